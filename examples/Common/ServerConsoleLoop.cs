using System;
using System.Threading.Tasks;

namespace NetCoreServer.Examples;

/// <summary>
/// The console loop of the example servers, stream and datagram alike: <c>!</c> restarts, an empty line (end of
/// input, SIGINT, SIGTERM) stops the server, any other line is the server's to handle (send it, or say what works).
/// One loop, so the lines the example scripts wait for ("Server restarting...", "Done!") are the same in every server.
/// </summary>
public static class ServerConsoleLoop
{
    /// <summary>Runs console commands until the user quits, then stops the server.</summary>
    /// <param name="commands">The console, created before the server printed anything (see <see cref="ConsoleCommands"/>).</param>
    /// <param name="onLine">Handles a typed line other than <c>!</c> (never empty), e.g. sends it the server's way.</param>
    /// <param name="restart">Restarts the server; false (after saying why) when it did not start again.</param>
    /// <param name="stop">Stops the server.</param>
    /// <returns>A task that completes when the server has stopped.</returns>
    public static async Task RunAsync(ConsoleCommands commands, Action<string> onLine, Func<bool> restart, Action stop)
    {
        while (await commands.ReadAsync().ConfigureAwait(false) is { } typed)
        {
            if (typed == "!")
            {
                Console.WriteLine("Server restarting...");
                Console.WriteLine(restart() ? "Done!" : "The server did not restart; it stays stopped.");
                continue;
            }
            onLine(typed);
        }

        Console.WriteLine("Server stopping...");
        stop();
        Console.WriteLine("Done!");
    }
}
