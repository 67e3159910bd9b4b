using System.Security.Authentication;
using System.Threading.Tasks;
using NetCoreServer;
using NetCoreServer.Examples;

namespace WssChatServer;

internal static class Program
{
    private const int DefaultPort = 8443;

    private static async Task<int> Main(string[] args)
    {
        if (!ExampleCertificates.TryParseServer(args, "WssChatServer", DefaultPort, out var certificates, out var address, out var port))
            return 2;

        if (!certificates.TryLoad("server.pfx", out var certificate, out var authority))
            return 1;
        using (certificate)
        using (authority)
        {
            // No client certificate is asked for: a browser reaches the page and the chat with server authentication only.
            var context = new SslContext(SslProtocols.Tls12 | SslProtocols.Tls13, certificate);
            using var server = new ChatServer(context, address, port);
            return await ChatServerConsole.RunAsync(server, "WSS", text => server.MulticastText(text),
                () => WsChat.PrintPage("https", server.Endpoint)).ConfigureAwait(false);
        }
    }
}
