using System;
using System.Net;
using System.Security.Authentication;
using System.Threading.Tasks;

namespace NetCoreServer.Examples;

/// <summary>
/// The start of the TLS examples that work the same way, written once: parse the certificate options and the
/// positional arguments (printing the usage on a bad command line), load (or create) the certificate and the
/// authority, build the TLS 1.2/1.3 context, run, and release the certificates at the end.
/// </summary>
public static class TlsExampleStartup
{
    /// <summary>
    /// Runs a TLS server that asks for no client certificate (the HTTPS and WSS chat servers: browsers and curl reach
    /// them with server authentication only). Arguments: certificate options, then [port] [address].
    /// </summary>
    /// <param name="args">The command line.</param>
    /// <param name="program">The program's name, for the usage line.</param>
    /// <param name="summary">What the program does, in one line, for the usage.</param>
    /// <param name="defaultPort">The port when none is given.</param>
    /// <param name="run">Creates and runs the server with the context, address and port; returns the exit code.</param>
    /// <returns>The exit code: 0 after <c>--help</c>, 2 for a bad command line, 1 when the certificates cannot be used,
    /// else <paramref name="run"/>'s.</returns>
    public static async Task<int> RunServerAsync(string[] args, string program, string summary, int defaultPort, Func<SslContext, IPAddress, int, Task<int>> run)
    {
        var usage = ExampleCertificates.ServerUsage(program, summary, defaultPort);
        if (ExampleUsage.AsksForHelp(args))
            return usage.Help();
        if (!ExampleCertificates.TryParseServer(args, usage, defaultPort, out var certificates, out var address, out var port))
            return ExampleUsage.BadCommandLine;

        if (!certificates.TryLoad("server.pfx", out var certificate, out var authority))
            return 1;
        using (certificate)
        using (authority)
            return await run(new SslContext(SslProtocols.Tls12 | SslProtocols.Tls13, certificate), address, port).ConfigureAwait(false);
    }

    /// <summary>
    /// Runs a TLS chat client through <see cref="ChatClientConsole"/>: it presents client.pfx to a server that asks for
    /// a certificate, and the client <paramref name="create"/> makes checks the server's against the authority.
    /// Arguments: certificate options, then [address] [port].
    /// </summary>
    /// <typeparam name="TClient">The example's client.</typeparam>
    /// <param name="args">The command line.</param>
    /// <param name="program">The program's name, for the usage line.</param>
    /// <param name="summary">What the program does, in one line, for the usage.</param>
    /// <param name="protocol">The name printed in messages, such as <c>SSL</c>.</param>
    /// <param name="defaultPort">The port when none is given.</param>
    /// <param name="create">Creates the client from the context, the authority, the address and the port.</param>
    /// <returns>The exit code: 0 after <c>--help</c>, 2 for a bad command line, 1 when the certificates cannot be used,
    /// else the console's.</returns>
    public static async Task<int> RunChatClientAsync<TClient>(string[] args, string program, string summary, string protocol, int defaultPort,
        Func<SslContext, CertificateAuthority, string, int, TClient> create)
        where TClient : IChatClient, IDisposable
    {
        var usage = ExampleCertificates.UsageOf(program, summary, "[address] [port]", $"{ChatArguments.DefaultAddress} {defaultPort}");
        if (ExampleUsage.AsksForHelp(args))
            return usage.Help();
        if (!ExampleCertificates.TryParse(args, out var certificates, out var positional, out var error)
            || !ChatArguments.TryParseClient(positional, defaultPort, out var address, out var port))
            return usage.Error(error);

        if (!certificates.TryLoad("client.pfx", out var certificate, out var authority))
            return 1;
        using (certificate)
        using (authority)
        {
            using var client = create(new SslContext(SslProtocols.Tls12 | SslProtocols.Tls13, certificate), authority, address, port);
            return await ChatClientConsole.RunAsync(client, protocol, address, port).ConfigureAwait(false);
        }
    }
}
