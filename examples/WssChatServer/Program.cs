using System.Threading.Tasks;
using NetCoreServer.Examples;

namespace WssChatServer;

internal static class Program
{
    private const int DefaultPort = 8443;

    // No client certificate is asked for: a browser reaches the page and the chat with server authentication only.
    private static Task<int> Main(string[] args) => TlsExampleStartup.RunServerAsync(args, "WssChatServer",
        "A secure WebSocket chat server with its browser page: every message goes to every client.", DefaultPort, async (context, address, port) =>
    {
        using var server = new ChatServer(context, address, port);
        return await ChatServerConsole.RunAsync(server, "WSS", text => server.MulticastText(text),
            () => WsChat.PrintPage("https", server.Endpoint)).ConfigureAwait(false);
    });
}
