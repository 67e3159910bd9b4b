using System;
using System.Buffers;
using System.Buffers.Binary;
using System.Text;

namespace NetCoreServer.Redis;

/// <summary>
/// The bytes of one backplane message on the Redis channel: a fixed header (version, target, kind, the publishing
/// node's id, its sequence number), the group name or session id, then the payload as it is. Redis pub/sub carries
/// binary values whole, so no escaping is needed and a message of any size up to the queue's limit survives. A signed
/// frame (version 2) ends with a trailer: its time (Unix ms), the signing key's id and an HMAC-SHA256 over all bytes
/// before the MAC (<see cref="FrameSigner"/>). Nothing read here is trusted: the listener judges it.
/// </summary>
internal readonly struct BackplaneFrame
{
    public const byte Version = 1;

    public const byte SignedVersion = 2;

    // Time (8), key id (4), MAC (32), after the payload of a signed frame.
    public const int TrailerSize = 44;

    public const int MacSize = 32;

    // version, target, kind, reserved, node id (16), sequence (8).
    public const int HeaderSize = 28;

    // A group name longer than this is refused: it travels with every message to the group.
    public const int MaxGroupBytes = 1024;

    private const int SequenceOffset = 20;

    public BackplaneFrame(BackplaneTarget target, MulticastKind kind, Guid node, ulong sequence, string? group, Guid session, ReadOnlyMemory<byte> payload, bool signed = false, long time = 0)
    {
        IsSigned = signed;
        Time = time;
        Target = target;
        Kind = kind;
        Node = node;
        Sequence = sequence;
        Group = group;
        Session = session;
        Payload = payload;
    }

    public BackplaneTarget Target { get; }

    /// <summary>As sent: possibly a value no node publishes (the listener refuses it).</summary>
    public MulticastKind Kind { get; }

    public bool IsSigned { get; }

    /// <summary>A signed frame's time of publishing, in Unix milliseconds (0 when unsigned).</summary>
    public long Time { get; }

    public Guid Node { get; }

    public ulong Sequence { get; }

    public string? Group { get; }

    public Guid Session { get; }

    public ReadOnlyMemory<byte> Payload { get; }

    /// <summary>Bytes a frame takes for this target (header and address), before the payload.</summary>
    public static int AddressSize(BackplaneTarget target, string? group) => target switch
    {
        BackplaneTarget.Group => 2 + Encoding.UTF8.GetByteCount(group!),
        BackplaneTarget.Session => 16,
        _ => 0,
    };

    /// <summary>
    /// Writes a whole frame into a rented array (sequence 0, set later by <see cref="SetSequence"/>; a signed frame's
    /// trailer is left for <see cref="FrameSigner.Sign"/>); the caller returns the array to <see cref="ArrayPool{T}.Shared"/>.
    /// </summary>
    public static byte[] Rent(BackplaneTarget target, MulticastKind kind, Guid node, string? group, Guid session, ReadOnlySpan<byte> payload, bool signed, out int length)
    {
        var address = AddressSize(target, group);
        length = HeaderSize + address + payload.Length + (signed ? TrailerSize : 0);
        var buffer = ArrayPool<byte>.Shared.Rent(length);
        var span = buffer.AsSpan(0, length);
        span[0] = signed ? SignedVersion : Version;
        span[1] = (byte)target;
        span[2] = (byte)kind;
        span[3] = 0;
        node.TryWriteBytes(span.Slice(4, 16));
        BinaryPrimitives.WriteUInt64LittleEndian(span.Slice(SequenceOffset, 8), 0);
        var rest = span[HeaderSize..];
        if (target == BackplaneTarget.Group)
        {
            BinaryPrimitives.WriteUInt16LittleEndian(rest, (ushort)(address - 2));
            Encoding.UTF8.GetBytes(group!, rest[2..address]);
        }
        else if (target == BackplaneTarget.Session)
        {
            session.TryWriteBytes(rest[..16]);
        }
        payload.CopyTo(rest[address..]);
        if (signed)
            span[^TrailerSize..].Clear();
        return buffer;
    }

    public static void SetSequence(byte[] frame, ulong sequence)
        => BinaryPrimitives.WriteUInt64LittleEndian(frame.AsSpan(SequenceOffset, 8), sequence);

    /// <summary>
    /// Reads a frame (any kind byte: the listener judges it); false for bytes that are not one (another program on the
    /// channel, a newer version, cut short).
    /// </summary>
    public static bool TryRead(ReadOnlyMemory<byte> bytes, out BackplaneFrame frame)
    {
        frame = default;
        var span = bytes.Span;
        if (span.Length < HeaderSize || span[0] is not (Version or SignedVersion) || span[1] > (byte)BackplaneTarget.Session)
            return false;
        var signed = span[0] == SignedVersion;
        long time = 0;
        if (signed)
        {
            if (span.Length < HeaderSize + TrailerSize)
                return false;
            time = BinaryPrimitives.ReadInt64LittleEndian(span[^TrailerSize..]);
            bytes = bytes[..^TrailerSize];
            span = bytes.Span;
        }
        var target = (BackplaneTarget)span[1];
        var node = new Guid(span.Slice(4, 16));
        var sequence = BinaryPrimitives.ReadUInt64LittleEndian(span.Slice(SequenceOffset, 8));
        var rest = span[HeaderSize..];
        string? group = null;
        var session = Guid.Empty;
        var address = 0;
        if (target == BackplaneTarget.Group)
        {
            if (rest.Length < 2)
                return false;
            var count = BinaryPrimitives.ReadUInt16LittleEndian(rest);
            if (rest.Length < 2 + count)
                return false;
            group = Encoding.UTF8.GetString(rest.Slice(2, count));
            address = 2 + count;
        }
        else if (target == BackplaneTarget.Session)
        {
            if (rest.Length < 16)
                return false;
            session = new Guid(rest[..16]);
            address = 16;
        }
        frame = new BackplaneFrame(target, (MulticastKind)span[2], node, sequence, group, session, bytes[(HeaderSize + address)..], signed, time);
        return true;
    }
}
