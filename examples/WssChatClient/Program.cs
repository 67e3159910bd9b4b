using System.Threading.Tasks;
using NetCoreServer.Examples;

namespace WssChatClient;

internal static class Program
{
    private const int DefaultPort = 8443;

    // client.pfx is presented only to a server that asks; the WSS chat server does not. The server's certificate is
    // checked in ChatClient.
    private static Task<int> Main(string[] args) => TlsExampleStartup.RunChatClientAsync(args, "WssChatClient",
        "A secure WebSocket chat client: sends typed lines as text messages, prints what the server sends.", "WSS", DefaultPort,
        (context, authority, address, port) => new ChatClient(context, authority, address, port));
}
