using System.Threading.Tasks;

namespace NetCoreServer.Examples;

/// <summary>What <see cref="ChatClientConsole"/> needs of a chat client; the library's clients already have the first three.</summary>
public interface IChatClient
{
    /// <summary>Starts connecting.</summary>
    /// <returns>False when already connected or connecting.</returns>
    bool ConnectAsync();

    /// <summary>Disconnects and starts connecting again.</summary>
    /// <returns>False when not connected.</returns>
    bool ReconnectAsync();

    /// <summary>Queues text to send.</summary>
    /// <param name="text">The text, sent as UTF-8.</param>
    /// <returns>False when not connected.</returns>
    bool SendAsync(string text);

    /// <summary>Disconnects for good: no reconnect follows.</summary>
    /// <returns>A task that completes once the connection is closed.</returns>
    Task DisconnectAndStopAsync();
}
