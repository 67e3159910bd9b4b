using System;
using NUnit.Framework;

namespace NetCoreServer.Tests.Http;

/// <summary>NetCoreServer's growable <see cref="Buffer"/>: appends, the cursor, removal and growth.</summary>
[TestFixture]
public sealed class BufferTests
{
    [Test]
    public void AppendOverloadsAddTheirBytesAndReturnTheCount()
    {
        var buffer = new Buffer();
        Assert.That(buffer.IsEmpty, Is.True);
        Assert.That(buffer.Capacity, Is.Zero);

        Assert.That(buffer.Append((byte)'a'), Is.EqualTo(1));
        Assert.That(buffer.Append(new byte[] { (byte)'b', (byte)'c' }), Is.EqualTo(2));
        Assert.That(buffer.Append(new byte[] { 0, (byte)'d', 0 }, 1, 1), Is.EqualTo(1));
        Assert.That(buffer.Append("e\u00e9"u8), Is.EqualTo(3));
        Assert.That(buffer.Append("f"), Is.EqualTo(1));
        Assert.That(buffer.Append("\u2713".AsSpan()), Is.EqualTo(3));
        Assert.That(buffer.Append(new Buffer(new byte[] { (byte)'g' })), Is.EqualTo(1));

        Assert.That(buffer.ToString(), Is.EqualTo("abcde\u00e9f\u2713g"));
        Assert.That(buffer.Size, Is.EqualTo(12));
        Assert.That(buffer[0], Is.EqualTo((byte)'a'));
        Assert.That(buffer.ExtractString(1, 2), Is.EqualTo("bc"));
        Assert.That(() => buffer.ExtractString(12, 2), Throws.ArgumentException);
    }

    [Test]
    public void TheCursorMovesAndAsSpanStartsAtIt()
    {
        var buffer = new Buffer(new byte[] { 1, 2, 3, 4 });

        buffer.Shift(3);
        buffer.Unshift(1);

        Assert.That(buffer.Offset, Is.EqualTo(2));
        Assert.That(buffer.AsSpan().ToArray(), Is.EqualTo(new byte[] { 3, 4 }));
        buffer.Resize(1);
        Assert.That(buffer.Offset, Is.EqualTo(1), "the cursor stays within the content");
        buffer.Clear();
        Assert.That(buffer.Offset, Is.Zero);
        Assert.That(buffer.Capacity, Is.EqualTo(4), "Clear keeps the memory");
    }

    [Test]
    public void RemoveClosesTheGapAndMovesTheCursorWithTheBytes()
    {
        var buffer = new Buffer();
        buffer.Append("0123456789");
        buffer.Shift(8);

        buffer.Remove(2, 3);

        Assert.That(buffer.ToString(), Is.EqualTo("0156789"));
        Assert.That(buffer.Offset, Is.EqualTo(5));
        buffer.Shift(-4);
        buffer.Remove(0, 3);
        Assert.That(buffer.Offset, Is.Zero, "a cursor inside the removed range goes to its start");
        Assert.That(() => buffer.Remove(3, 10), Throws.ArgumentException);
    }

    [Test]
    public void ReserveAtLeastDoublesAndKeepsTheContent()
    {
        var buffer = new Buffer(4);
        buffer.Append("abc"u8);

        buffer.Reserve(5);

        Assert.That(buffer.Capacity, Is.EqualTo(8));
        Assert.That(buffer.ToString(), Is.EqualTo("abc"));
        buffer.Reserve(100);
        Assert.That(buffer.Capacity, Is.EqualTo(100));
        Assert.That(() => buffer.Reserve(-1), Throws.ArgumentException);
    }
}
