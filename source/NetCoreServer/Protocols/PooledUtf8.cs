using System;
using System.Buffers;
using System.Text;

namespace NetCoreServer.Protocols;

/// <summary>UTF-8 bytes of a string in a pooled array, returned on dispose; keeps the text overloads allocation-free.</summary>
internal readonly ref struct PooledUtf8
{
    private readonly byte[] _array;
    private readonly int _length;

    private PooledUtf8(byte[] array, int length)
    {
        _array = array;
        _length = length;
    }

    public ReadOnlySpan<byte> Span => _array.AsSpan(0, _length);

    public ReadOnlyMemory<byte> Memory => _array.AsMemory(0, _length);

    public static PooledUtf8 Encode(ReadOnlySpan<char> text)
    {
        var array = ArrayPool<byte>.Shared.Rent(Math.Max(Encoding.UTF8.GetMaxByteCount(text.Length), 1));
        var length = Encoding.UTF8.GetBytes(text, array);
        return new PooledUtf8(array, length);
    }

    public void Dispose() => ArrayPool<byte>.Shared.Return(_array);
}
