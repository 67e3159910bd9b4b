using System;
using System.Collections.Generic;

namespace NetCoreServer.Performance.IdleConnections;

/// <summary>The sets of connections measured per protocol, by name: the library's, and the raw baselines.</summary>
internal static class ConnectionSets
{
    /// <summary>The library's connections (tcp or ssl, as the protocol says).</summary>
    public const string Library = "library";

    /// <summary>Plain socket pairs, no library.</summary>
    public const string Raw = "raw";

    /// <summary>SslStream pairs, no library.</summary>
    public const string RawTls = "raw-tls";

    /// <summary>True for a name <see cref="Create"/> knows.</summary>
    public static bool IsKnown(string name) => name is Library or Raw or RawTls;

    /// <summary>
    /// The sets measured for the protocol: the library's first, then its baselines. For ssl, SslStream pairs show what
    /// TLS itself costs, so that the library's share can be told apart from it; plain sockets are measured for both.
    /// </summary>
    public static IReadOnlyList<string> For(IdleOptions options) => options.Tls ? [Library, RawTls, Raw] : [Library, Raw];

    /// <summary>Creates the set <paramref name="name"/> for the protocol of <paramref name="options"/>; not started yet.</summary>
    public static IConnectionSet Create(string name, IdleOptions options) => name switch
    {
        Library => options.Tls ? LibrarySet.Ssl() : LibrarySet.Tcp(),
        Raw => RawSet.Plain(),
        RawTls => RawSet.Tls(),
        _ => throw new ArgumentOutOfRangeException(nameof(name), name, "unknown connection set"),
    };
}
