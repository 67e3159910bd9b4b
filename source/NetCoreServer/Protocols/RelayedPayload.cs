using System;
using System.Text.Unicode;

namespace NetCoreServer.Protocols;

/// <summary>The checks every server makes on a relayed payload before its own rule: a known kind, and text that is UTF-8.</summary>
internal static class RelayedPayload
{
    public static RelayedVerdict Check(MulticastKind kind, ReadOnlySpan<byte> payload) => kind switch
    {
        MulticastKind.Raw or MulticastKind.Binary => RelayedVerdict.Accepted,
        MulticastKind.Text => Utf8.IsValid(payload) ? RelayedVerdict.Accepted : RelayedVerdict.RefusedText,
        _ => RelayedVerdict.RefusedKind,
    };
}
