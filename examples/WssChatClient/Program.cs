using System.Security.Authentication;
using System.Threading.Tasks;
using NetCoreServer;
using NetCoreServer.Examples;

namespace WssChatClient;

internal static class Program
{
    private const int DefaultPort = 8443;

    private static async Task<int> Main(string[] args)
    {
        if (!ExampleCertificates.TryParse(args, out var certificates, out var positional, out var error)
            || !ChatArguments.TryParseClient(positional, DefaultPort, out var address, out var port))
        {
            ExampleCertificates.PrintUsage(error, "WssChatClient", "[address] [port]", $"{ChatArguments.DefaultAddress} {DefaultPort}");
            return 2;
        }

        // client.pfx is presented only to a server that asks; the WSS chat server does not.
        if (!certificates.TryLoad("client.pfx", out var certificate, out var authority))
            return 1;
        using (certificate)
        using (authority)
        {
            var context = new SslContext(SslProtocols.Tls12 | SslProtocols.Tls13, certificate);
            using var client = new ChatClient(context, authority, address, port);
            return await ChatClientConsole.RunAsync(client, "WSS", address, port).ConfigureAwait(false);
        }
    }
}
