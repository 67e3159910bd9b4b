using System;
using System.Buffers;

namespace NetCoreServer.Protocols.WebSockets;

/// <summary>A whole encoded frame in a pooled array, returned to the pool on dispose.</summary>
internal readonly ref struct WsPooledFrame
{
    private readonly byte[] _array;
    private readonly int _length;

    private WsPooledFrame(byte[] array, int length)
    {
        _array = array;
        _length = length;
    }

    /// <summary>The frame's bytes.</summary>
    public ReadOnlySpan<byte> Span => _array.AsSpan(0, _length);

    internal Span<byte> Writable => _array.AsSpan(0, _length);

    public static WsPooledFrame Rent(int length) => new(ArrayPool<byte>.Shared.Rent(length), length);

    public void Dispose() => ArrayPool<byte>.Shared.Return(_array);
}
