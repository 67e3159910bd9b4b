using System;
using System.Security.Authentication;
using System.Threading.Tasks;
using NetCoreServer;
using NetCoreServer.Examples;

namespace HttpsClientExample;

internal static class Program
{
    private const int DefaultPort = 8443;

    private static readonly ExampleUsage s_usage = ExampleCertificates.UsageOf("HttpsClient",
        "An HTTPS client console: each typed line (METHOD URL [BODY]) is a request; prints the response.",
        $"{HttpClientConsole.Usage} [address] [port]",
        $"a {HttpClientConsole.DefaultTimeout.TotalSeconds} s timeout, {ChatArguments.DefaultAddress} {DefaultPort}");

    private static async Task<int> Main(string[] args)
    {
        if (ExampleUsage.AsksForHelp(args))
            return s_usage.Help();
        if (!ExampleCertificates.TryParse(args, out var certificates, out var rest, out var error)
            || !HttpClientConsole.TryParseTimeout(rest, out var timeout, out var positional)
            || !ChatArguments.TryParseClient(positional, DefaultPort, out var address, out var port))
            return s_usage.Error(error);

        // client.pfx is presented only to a server that asks; the HTTPS example server does not.
        if (!certificates.TryLoad("client.pfx", out var certificate, out var authority))
            return 1;
        using (certificate)
        using (authority)
        {
            var context = new SslContext(SslProtocols.Tls12 | SslProtocols.Tls13, certificate);
            using var client = new ConsoleClient(context, authority, address, port);
            return await HttpClientConsole.RunAsync(client, "HTTPS", address, port, timeout).ConfigureAwait(false);
        }
    }
}
