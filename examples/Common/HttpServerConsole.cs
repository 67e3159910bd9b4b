using System;
using System.IO;
using System.Net.Sockets;
using System.Threading.Tasks;

namespace NetCoreServer.Examples;

/// <summary>
/// The console of the HTTP and HTTPS server examples: <c>!</c> restarts the server (the cache and the static content
/// stay), an empty line quits, anything else prints what works.
/// </summary>
public static class HttpServerConsole
{
    /// <summary>Starts the server, then runs console commands until the user quits (empty line, end of input,
    /// SIGINT or SIGTERM) and stops the server.</summary>
    /// <typeparam name="TSession">The server's session type.</typeparam>
    /// <param name="server">The server, not started yet, with its static content added.</param>
    /// <param name="protocol">The name printed in messages and the URL scheme: <c>HTTP</c> or <c>HTTPS</c>.</param>
    /// <returns>The process exit code: 0, or 1 when the server could not start.</returns>
    public static async Task<int> RunAsync<TSession>(StreamServer<TSession> server, string protocol)
        where TSession : StreamSession
    {
        var name = $"{protocol} server";
        using var commands = new ConsoleCommands();
        if (!Directory.Exists(HttpCacheApi.StaticDirectory))
            Console.Error.WriteLine($"No static content: {HttpCacheApi.StaticDirectory} is missing");
        if (!StreamServerStartup.TryStart(server, name))
            return 1;

        // Scripts read the bound port (the real one when port 0 was asked for) from this line, so it must not wait in a buffer.
        Console.WriteLine($"{name} listening on {server.Endpoint}");
        Console.Out.Flush();
        // A socket file has no host to put in a URL: curl names the file and the URL only the Host field.
        var socketFile = server.Endpoint is UnixDomainSocketEndPoint;
        var root = socketFile ? $"{protocol.ToLowerInvariant()}://localhost" : $"{protocol.ToLowerInvariant()}://{server.Endpoint}";
        Console.WriteLine($"Static content from {HttpCacheApi.StaticDirectory}: open {root}{HttpCacheApi.HomePage}");
        if (socketFile)
            Console.WriteLine($"Through the socket file: curl --unix-socket {server.Endpoint} {root}{HttpCacheApi.HomePage}");
        Console.WriteLine($"Cache API: GET, POST, PUT, DELETE {root}{HttpCacheApi.Path}?key=K (the body is the value)");
        Console.WriteLine(Help);

        await ServerConsoleLoop.RunAsync(
            commands,
            line => Console.WriteLine($"Unknown command '{line}'. {Help}"),
            () => StreamServerStartup.Restart(server, name),
            () => server.Stop()).ConfigureAwait(false);
        return 0;
    }

    private const string Help = "Type '!' to restart the server, an empty line to quit.";
}
