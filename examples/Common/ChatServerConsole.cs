using System;
using System.Threading.Tasks;

namespace NetCoreServer.Examples;

/// <summary>The console of the chat servers: every line goes to everyone as (admin), <c>!</c> restarts, an empty line quits.</summary>
public static class ChatServerConsole
{
    /// <summary>Starts the server, then runs console commands until the user quits (empty line, end of input,
    /// SIGINT or SIGTERM) and stops the server.</summary>
    /// <typeparam name="TSession">The server's session type.</typeparam>
    /// <param name="server">The server, not started yet.</param>
    /// <param name="protocol">The name printed in messages, such as <c>TCP</c>.</param>
    /// <returns>The process exit code: 0, or 1 when the server could not start.</returns>
    public static Task<int> RunAsync<TSession>(StreamServer<TSession> server, string protocol)
        where TSession : StreamSession
        => RunAsync(server, protocol, text => server.Multicast(text + "\n"));

    /// <summary>Starts the server, then runs console commands until the user quits (empty line, end of input,
    /// SIGINT or SIGTERM) and stops the server.</summary>
    /// <typeparam name="TSession">The server's session type.</typeparam>
    /// <param name="server">The server, not started yet.</param>
    /// <param name="protocol">The name printed in messages, such as <c>WS</c>.</param>
    /// <param name="announce">Sends an admin line (the typed line after "(admin) ") to everyone, the server's way: the WebSocket servers
    /// send it as one text message, which needs no line ending.</param>
    /// <param name="started">Prints what else there is to know once the server listens, such as the chat page's address; may be null.</param>
    /// <returns>The process exit code: 0, or 1 when the server could not start.</returns>
    public static async Task<int> RunAsync<TSession>(StreamServer<TSession> server, string protocol, Action<string> announce, Action? started = null)
        where TSession : StreamSession
    {
        using var commands = new ConsoleCommands();
        if (!StreamServerStartup.TryStart(server, "chat server"))
            return 1;

        // Scripts read the bound port (the real one when port 0 was asked for) from this line, so it must not wait in a buffer.
        Console.WriteLine($"{protocol} chat server listening on {server.Endpoint}");
        Console.Out.Flush();
        started?.Invoke();
        Console.WriteLine("Type a line to send it to everyone as (admin), '!' to restart the server, an empty line to quit.");

        await ServerConsoleLoop.RunAsync(
            commands,
            line => announce($"(admin) {line}"),
            () => StreamServerStartup.Restart(server, "chat server"),
            () => server.Stop()).ConfigureAwait(false);
        return 0;
    }
}
