using System;
using System.Threading.Tasks;
using NetCoreServer.Examples;

namespace HttpClientExample;

internal static class Program
{
    private const int DefaultPort = 8080;

    private static readonly ExampleUsage s_usage = new("HttpClient",
        "An HTTP client console: each typed line (METHOD URL [BODY]) is a request; prints the response.",
        $"{HttpClientConsole.Usage} [address] [port]",
        $"       HttpClient {HttpClientConsole.Usage} PATH   (a server's Unix socket file)",
        $"   (defaults: a {HttpClientConsole.DefaultTimeout.TotalSeconds} s timeout, {ChatArguments.DefaultAddress} {DefaultPort})");

    private static async Task<int> Main(string[] args)
    {
        if (ExampleUsage.AsksForHelp(args))
            return s_usage.Help();
        if (!HttpClientConsole.TryParseTimeout(args, out var timeout, out var positional))
            return s_usage.Error();
        if (ChatArguments.NamesSocketFile(positional))
        {
            if (!ChatArguments.TryParseSocketPath(positional, out var endpoint))
                return s_usage.Error();
            using var local = new ConsoleClient(endpoint);
            return await HttpClientConsole.RunAsync(local, "HTTP", endpoint.ToString(), "localhost", timeout).ConfigureAwait(false);
        }
        if (!ChatArguments.TryParseClient(positional, DefaultPort, out var address, out var port))
            return s_usage.Error();

        using var client = new ConsoleClient(address, port);
        return await HttpClientConsole.RunAsync(client, "HTTP", address, port, timeout).ConfigureAwait(false);
    }
}
