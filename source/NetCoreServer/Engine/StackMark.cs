using System.Runtime.CompilerServices;

namespace NetCoreServer.Engine;

/// <summary>
/// Tells a deeper frame of the thread that took a mark from any other thread without asking which thread runs (a
/// thread-static lookup per staged message was a tenth of the framed echo server, issue 24). A mark is the address of a
/// local, taken only while the runtime guarantees at least 128 KiB of this thread's stack below it; the
/// <see cref="Window"/> below the mark is then this thread's stack and no other's, so a caller whose local lies in it
/// runs on this thread. Any other answer is "do not know", and the caller asks the thread.
/// </summary>
internal static class StackMark
{
    /// <summary>How deep below the mark a caller is recognised: well under what the runtime keeps free.</summary>
    private const nuint Window = 16 * 1024;

    /// <summary>A mark at the caller's depth, or 0 (never matched) when its stack is nearly used up.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static nuint Take() => RuntimeHelpers.TryEnsureSufficientExecutionStack() ? Here() : 0;

    /// <summary>True only on the thread that took <paramref name="mark"/>, in a frame at most <see cref="Window"/> below it.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool IsAbove(nuint mark) => mark - Here() < Window;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static nuint Here()
    {
        byte local = 0;
        return (nuint)Unsafe.ByteOffset(ref Unsafe.NullRef<byte>(), ref local);
    }
}
