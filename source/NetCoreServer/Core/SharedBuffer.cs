using System;
using System.Threading;

namespace NetCoreServer.Core;

/// <summary>
/// A pooled, reference-counted byte block. Multicast copies a message into one of these once and every
/// session's send queue holds a reference to the same bytes; the array returns to the pool when the last
/// session has sent it.
/// </summary>
internal sealed class SharedBuffer
{
    private byte[]? _array;
    private int _references;

    private SharedBuffer(byte[] array, int length)
    {
        _array = array;
        Length = length;
        _references = 1;
    }

    public int Length { get; }

    public byte[] Array => _array ?? throw new ObjectDisposedException(nameof(SharedBuffer));

    /// <summary>Copies <paramref name="data"/> into a pooled block owned by the caller (one reference).</summary>
    public static SharedBuffer Copy(ReadOnlySpan<byte> data)
    {
        var array = EngineBuffers.Rent(data.Length);
        data.CopyTo(array);
        return new SharedBuffer(array, data.Length);
    }

    public void AddReference() => Interlocked.Increment(ref _references);

    public void Release()
    {
        if (Interlocked.Decrement(ref _references) != 0)
            return;
        var array = Interlocked.Exchange(ref _array, null);
        if (array != null)
            EngineBuffers.Return(array);
    }
}
