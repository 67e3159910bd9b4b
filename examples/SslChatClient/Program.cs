using System.Threading.Tasks;
using NetCoreServer.Examples;

namespace SslChatClient;

internal static class Program
{
    private const int DefaultPort = 2222;

    // The client certificate is presented when the server asks for one; the server's is checked in ChatClient.
    private static Task<int> Main(string[] args) => TlsExampleStartup.RunChatClientAsync(args, "SslChatClient",
        "A TLS chat client: sends typed lines, prints what the server sends; reconnects every second.", "SSL", DefaultPort,
        (context, authority, address, port) => new ChatClient(context, authority, address, port));
}
