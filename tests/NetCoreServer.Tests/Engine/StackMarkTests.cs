using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Engine;
using NUnit.Framework;

namespace NetCoreServer.Tests.Engine;

/// <summary>The stack mark that lets the cork skip asking which thread runs: it must never claim another thread.</summary>
[TestFixture]
public sealed class StackMarkTests
{
    [Test]
    public void ADeeperFrameOfTheMarkingThreadIsRecognised()
    {
        var mark = StackMark.Take();
        Assert.That(mark, Is.Not.EqualTo((nuint)0), "a thread-pool thread has plenty of stack");
        Assert.That(Deeper(mark, 20), Is.True);
    }

    [Test]
    public void NoOtherThreadIsEverRecognised()
    {
        var mark = StackMark.Take();
        var others = new bool[8];
        var threads = new Thread[others.Length];
        for (var i = 0; i < threads.Length; i++)
        {
            var index = i;
            // Small stacks as well as the default: their memory may lie right below this thread's.
            threads[i] = new Thread(() => others[index] = StackMark.IsAbove(mark) || Deeper(mark, 20), i % 2 == 0 ? 256 * 1024 : 0);
            threads[i].Start();
        }
        foreach (var thread in threads)
            thread.Join();
        Assert.That(others, Has.All.False);
        Assert.That(Task.Run(() => StackMark.IsAbove(mark)).Result, Is.False, "a pool thread");
    }

    [Test]
    public void AShallowerFrameAndAMissingMarkAreNotRecognised()
    {
        Assert.That(StackMark.IsAbove(0), Is.False, "no mark");
        Assert.That(StackMark.IsAbove(MarkInACallee()), Is.False, "the mark of a frame that has returned lies below this one");
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static bool Deeper(nuint mark, int depth)
    {
        // A frame of a few hundred bytes per level, as hooks between the read and the send have.
        System.Span<byte> frame = stackalloc byte[128];
        frame[0] = (byte)depth;
        return depth == 0 ? StackMark.IsAbove(mark) : Deeper(mark, depth - 1) && frame[0] == depth;
    }

    // A frame of its own below the caller's, gone once it returns.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static nuint MarkInACallee()
    {
        System.Span<byte> frame = stackalloc byte[256];
        frame[0] = 1;
        return frame[0] == 1 ? StackMark.Take() : 0;
    }
}
