using System;
using System.Buffers;
using System.Linq;

namespace NetCoreServer.Redis.Tests;

/// <summary>The wire format of a backplane message: round trips, and every truncation refused, never thrown.</summary>
[TestFixture]
public sealed class BackplaneFrameTests
{
    private static readonly Guid s_node = Guid.NewGuid();
    private static readonly Guid s_session = Guid.NewGuid();

    private static readonly object[] s_cases =
    [
        new object?[] { (byte)BackplaneTarget.All, MulticastKind.Raw, null, new byte[] { 1, 2, 3 } },
        new object?[] { (byte)BackplaneTarget.All, MulticastKind.Binary, null, Array.Empty<byte>() },
        new object?[] { (byte)BackplaneTarget.Group, MulticastKind.Text, "salle à manger", "bonjour"u8.ToArray() },
        new object?[] { (byte)BackplaneTarget.Group, MulticastKind.Raw, "", new byte[] { 0 } },
        new object?[] { (byte)BackplaneTarget.Session, MulticastKind.Binary, null, Enumerable.Range(0, 70_000).Select(i => (byte)i).ToArray() },
    ];

    [TestCaseSource(nameof(s_cases))]
    public void AFrameReadsBackAsWritten(byte targetCode, MulticastKind kind, string? group, byte[] payload)
    {
        var target = (BackplaneTarget)targetCode;
        var bytes = Write(target, kind, group, payload, sequence: 42);
        Assert.That(BackplaneFrame.TryRead(bytes, out var frame), Is.True);
        Assert.Multiple(() =>
        {
            Assert.That(frame.Target, Is.EqualTo(target));
            Assert.That(frame.Kind, Is.EqualTo(kind));
            Assert.That(frame.Node, Is.EqualTo(s_node));
            Assert.That(frame.Sequence, Is.EqualTo(42UL));
            Assert.That(frame.Group, Is.EqualTo(target == BackplaneTarget.Group ? group : null));
            Assert.That(frame.Session, Is.EqualTo(target == BackplaneTarget.Session ? s_session : Guid.Empty));
            Assert.That(frame.Payload.ToArray(), Is.EqualTo(payload));
        });
    }

    [TestCaseSource(nameof(s_cases))]
    public void EveryPrefixShorterThanTheAddressIsRefused(byte targetCode, MulticastKind kind, string? group, byte[] payload)
    {
        var target = (BackplaneTarget)targetCode;
        var bytes = Write(target, kind, group, payload, sequence: 1);
        var address = BackplaneFrame.HeaderSize + BackplaneFrame.AddressSize(target, group);
        for (var length = 0; length < address; length++)
            Assert.That(BackplaneFrame.TryRead(bytes.AsMemory(0, length), out _), Is.False, $"a prefix of {length} bytes");
        // Past the address any length is a whole frame with a shorter payload: Redis never cuts a value.
        Assert.That(BackplaneFrame.TryRead(bytes.AsMemory(0, address), out var empty), Is.True);
        Assert.That(empty.Payload.Length, Is.Zero);
    }

    [Test]
    public void AnotherVersionOrTargetIsRefusedAndAnUnknownKindIsLeftForTheListener()
    {
        var bytes = Write(BackplaneTarget.All, MulticastKind.Raw, null, new byte[] { 1 }, sequence: 1);
        // Version 2 is a signed frame, which needs its 44-byte trailer: this one is too short for it.
        foreach (var (offset, value) in new[] { (0, (byte)2), (0, (byte)3), (1, (byte)3) })
        {
            var changed = (byte[])bytes.Clone();
            changed[offset] = value;
            Assert.That(BackplaneFrame.TryRead(changed, out _), Is.False, $"byte {offset} = {value}");
        }
        bytes[2] = 3;
        Assert.That(BackplaneFrame.TryRead(bytes, out var unknown), Is.True);
        Assert.That((byte)unknown.Kind, Is.EqualTo(3), "read as sent; the listener refuses and counts it");
    }

    private static byte[] Write(BackplaneTarget target, MulticastKind kind, string? group, byte[] payload, ulong sequence)
    {
        var rented = BackplaneFrame.Rent(target, kind, s_node, group, s_session, payload, signed: false, out var length);
        BackplaneFrame.SetSequence(rented, sequence);
        var bytes = rented.AsSpan(0, length).ToArray();
        ArrayPool<byte>.Shared.Return(rented);
        return bytes;
    }
}
