using System;
using System.Buffers.Binary;

namespace NetCoreServer.Protocols.Http2;

/// <summary>
/// One side's SETTINGS values (RFC 9113 §6.5.2), starting at the protocol's initial values. A SETTINGS payload is
/// checked whole by <see cref="Validate"/> before any of it applies, so a frame with one bad parameter changes nothing.
/// Not thread-safe.
/// </summary>
internal sealed class Http2Settings
{
    /// <summary>The largest flow-control window (§6.9.1): 2^31-1.</summary>
    public const int MaxWindowSize = int.MaxValue;

    /// <summary>The initial and smallest SETTINGS_MAX_FRAME_SIZE: 2^14.</summary>
    public const int MinMaxFrameSize = 16_384;

    /// <summary>The largest SETTINGS_MAX_FRAME_SIZE: 2^24-1.</summary>
    public const int MaxMaxFrameSize = 16_777_215;

    /// <summary>The initial flow-control window of streams and of the connection: 65,535.</summary>
    public const int DefaultInitialWindowSize = 65_535;

    /// <summary>SETTINGS_HEADER_TABLE_SIZE: 4096 initially.</summary>
    public uint HeaderTableSize { get; set; } = 4096;

    /// <summary>SETTINGS_ENABLE_PUSH: true initially.</summary>
    public bool EnablePush { get; set; } = true;

    /// <summary>SETTINGS_MAX_CONCURRENT_STREAMS: unlimited (uint.MaxValue) initially.</summary>
    public uint MaxConcurrentStreams { get; set; } = uint.MaxValue;

    /// <summary>SETTINGS_INITIAL_WINDOW_SIZE: 65,535 initially.</summary>
    public int InitialWindowSize { get; set; } = DefaultInitialWindowSize;

    /// <summary>SETTINGS_MAX_FRAME_SIZE: 16,384 initially.</summary>
    public int MaxFrameSize { get; set; } = MinMaxFrameSize;

    /// <summary>SETTINGS_MAX_HEADER_LIST_SIZE: unlimited (uint.MaxValue) initially.</summary>
    public uint MaxHeaderListSize { get; set; } = uint.MaxValue;

    /// <summary>
    /// Checks a SETTINGS payload (a multiple of 6 bytes, which the frame reader has ensured): NoError, or the connection
    /// error a bad value calls for (§6.5.2), with why.
    /// </summary>
    public static Http2ErrorCode Validate(ReadOnlySpan<byte> payload, out string? reason)
    {
        for (var at = 0; at + 6 <= payload.Length; at += 6)
        {
            var id = (Http2SettingId)BinaryPrimitives.ReadUInt16BigEndian(payload[at..]);
            var value = BinaryPrimitives.ReadUInt32BigEndian(payload[(at + 2)..]);
            switch (id)
            {
                case Http2SettingId.EnablePush or Http2SettingId.EnableConnectProtocol or Http2SettingId.NoRfc7540Priorities when value > 1:
                    reason = $"SETTINGS parameter {(ushort)id} must be 0 or 1";
                    return Http2ErrorCode.ProtocolError;
                case Http2SettingId.InitialWindowSize when value > MaxWindowSize:
                    reason = "SETTINGS_INITIAL_WINDOW_SIZE above 2^31-1";
                    return Http2ErrorCode.FlowControlError;
                case Http2SettingId.MaxFrameSize when value is < MinMaxFrameSize or > MaxMaxFrameSize:
                    reason = "SETTINGS_MAX_FRAME_SIZE outside 2^14 to 2^24-1";
                    return Http2ErrorCode.ProtocolError;
            }
        }
        reason = null;
        return Http2ErrorCode.NoError;
    }

    /// <summary>Applies a payload that passed <see cref="Validate"/>, in order; unknown parameters are ignored (§6.5.2).</summary>
    public void Apply(ReadOnlySpan<byte> payload)
    {
        for (var at = 0; at + 6 <= payload.Length; at += 6)
        {
            var value = BinaryPrimitives.ReadUInt32BigEndian(payload[(at + 2)..]);
            switch ((Http2SettingId)BinaryPrimitives.ReadUInt16BigEndian(payload[at..]))
            {
                case Http2SettingId.HeaderTableSize: HeaderTableSize = value; break;
                case Http2SettingId.EnablePush: EnablePush = value == 1; break;
                case Http2SettingId.MaxConcurrentStreams: MaxConcurrentStreams = value; break;
                case Http2SettingId.InitialWindowSize: InitialWindowSize = (int)value; break;
                case Http2SettingId.MaxFrameSize: MaxFrameSize = (int)value; break;
                case Http2SettingId.MaxHeaderListSize: MaxHeaderListSize = value; break;
            }
        }
    }
}
