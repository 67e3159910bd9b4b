using System;
using System.Buffers.Binary;
using System.Collections.Generic;
using System.Security.Cryptography;
using System.Text;

namespace NetCoreServer.Redis;

/// <summary>
/// Signs this node's frames with the current secret and checks other nodes' frames against every accepted secret
/// (<see cref="RedisBackplaneOptions.Secret"/>, <see cref="RedisBackplaneOptions.AcceptedSecrets"/>). Each secret is
/// first bound to the channel (HMAC of the channel's name), so a frame of one cluster replayed on another cluster's
/// channel fails even with the same secret; a 4-byte key id in the trailer picks the key, so a check is one HMAC.
/// Not thread-safe: the publisher loop and the listener each have their own, and reuse one HMAC state per key (about
/// 1.5 us per 104-byte frame against 4 us for the one-shot <c>HMACSHA256.HashData</c>, docs/design/redis-backplane.md).
/// </summary>
internal sealed class FrameSigner
{
    private static readonly byte[] s_keyIdLabel = "key id"u8.ToArray();

    private readonly Key? _signing;
    private readonly Key[] _accepted;

    private FrameSigner(Key? signing, Key[] accepted)
    {
        _signing = signing;
        _accepted = accepted;
    }

    /// <summary>True when this node signs what it publishes.</summary>
    public bool Signs => _signing != null;

    /// <summary>The signer of <paramref name="options"/>, or null when it names no secret (frames are then neither signed nor checked).</summary>
    public static FrameSigner? Create(RedisBackplaneOptions options)
    {
        if (options.Secret == null && options.AcceptedSecrets.Count == 0)
            return null;
        var accepted = new List<Key>();
        Key? signing = null;
        if (options.Secret != null)
        {
            signing = Derive(options.Secret, options.Channel);
            accepted.Add(signing.Value);
        }
        foreach (var secret in options.AcceptedSecrets)
            accepted.Add(Derive(secret, options.Channel));
        return new FrameSigner(signing, accepted.ToArray());
    }

    /// <summary>Throws for a secret too short to be one (see <see cref="RedisBackplaneOptions.MinSecretSize"/>) or a frame age that is not positive.</summary>
    public static void Validate(RedisBackplaneOptions options)
    {
        if (options.Secret != null)
            Validate(options.Secret, nameof(RedisBackplaneOptions.Secret));
        foreach (var secret in options.AcceptedSecrets)
            Validate(secret, nameof(RedisBackplaneOptions.AcceptedSecrets));
        if (options.MaxFrameAge <= TimeSpan.Zero)
            throw new ArgumentOutOfRangeException(nameof(options), options.MaxFrameAge, $"{nameof(RedisBackplaneOptions)}.{nameof(RedisBackplaneOptions.MaxFrameAge)} must be positive");
    }

    /// <summary>Writes the trailer of a whole signed frame: <paramref name="time"/> (Unix ms), the key id, the MAC.</summary>
    public void Sign(Span<byte> frame, long time)
    {
        var key = _signing ?? throw new InvalidOperationException("this node has no secret to sign with");
        var trailer = frame[^BackplaneFrame.TrailerSize..];
        BinaryPrimitives.WriteInt64LittleEndian(trailer, time);
        BinaryPrimitives.WriteUInt32LittleEndian(trailer[8..], key.Id);
        key.Mac(frame[..^BackplaneFrame.MacSize], frame[^BackplaneFrame.MacSize..]);
    }

    /// <summary>True when a whole signed frame carries a MAC made with one of the accepted secrets.</summary>
    public bool Verify(ReadOnlySpan<byte> frame)
    {
        var id = BinaryPrimitives.ReadUInt32LittleEndian(frame[^(BackplaneFrame.MacSize + 4)..]);
        Span<byte> mac = stackalloc byte[BackplaneFrame.MacSize];
        foreach (var key in _accepted)
        {
            if (key.Id != id)
                continue;
            key.Mac(frame[..^BackplaneFrame.MacSize], mac);
            if (CryptographicOperations.FixedTimeEquals(mac, frame[^BackplaneFrame.MacSize..]))
                return true;
        }
        return false;
    }

    private static Key Derive(byte[] secret, string channel)
    {
        var key = HMACSHA256.HashData(secret, Encoding.UTF8.GetBytes("NetCoreServer.Redis backplane " + channel));
        var id = HMACSHA256.HashData(key, s_keyIdLabel);
        // Never disposed: one native HMAC state per key per loop, for the backplane's life; its finalizer frees it.
        return new Key(IncrementalHash.CreateHMAC(HashAlgorithmName.SHA256, key), BinaryPrimitives.ReadUInt32LittleEndian(id));
    }

    private static void Validate(byte[] secret, string name)
    {
        if (secret == null || secret.Length < RedisBackplaneOptions.MinSecretSize)
            throw new ArgumentException($"{nameof(RedisBackplaneOptions)}.{name}: a secret takes at least {RedisBackplaneOptions.MinSecretSize} bytes (32 random bytes recommended)");
    }

    private readonly record struct Key(IncrementalHash Hmac, uint Id)
    {
        public void Mac(ReadOnlySpan<byte> data, Span<byte> destination)
        {
            Hmac.AppendData(data);
            Hmac.GetHashAndReset(destination);
        }
    }
}
