namespace NetCoreServer.Tests.Support;

/// <summary>Which engine a test server runs on: the default (event loops on Linux) or the runtime's thread pool.</summary>
internal static class TestEngines
{
    /// <summary>Puts the server's sessions on the thread pool when <paramref name="pool"/>; otherwise leaves the default.</summary>
    public static T OnEngine<T>(this T server, bool pool)
        where T : StreamServer
    {
        if (pool)
            server.OptionEventLoops = 0;
        return server;
    }
}
