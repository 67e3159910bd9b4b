using System;
using System.Threading.Tasks;
using NetCoreServer.Examples;

namespace HttpClientExample;

internal static class Program
{
    private const int DefaultPort = 8080;

    private static async Task<int> Main(string[] args)
    {
        if (!HttpClientConsole.TryParseTimeout(args, out var timeout, out var positional))
            return Usage();
        if (ChatArguments.NamesSocketFile(positional))
        {
            if (!ChatArguments.TryParseSocketPath(positional, out var endpoint))
                return Usage();
            using var local = new ConsoleClient(endpoint);
            return await HttpClientConsole.RunAsync(local, "HTTP", endpoint.ToString(), "localhost", timeout).ConfigureAwait(false);
        }
        if (!ChatArguments.TryParseClient(positional, DefaultPort, out var address, out var port))
            return Usage();

        using var client = new ConsoleClient(address, port);
        return await HttpClientConsole.RunAsync(client, "HTTP", address, port, timeout).ConfigureAwait(false);
    }

    private static int Usage()
    {
        Console.Error.WriteLine($"Usage: HttpClient {HttpClientConsole.Usage} [address] [port]");
        Console.Error.WriteLine($"       HttpClient {HttpClientConsole.Usage} PATH   (a server's Unix socket file)");
        Console.Error.WriteLine($"   (defaults: a {HttpClientConsole.DefaultTimeout.TotalSeconds} s timeout, {ChatArguments.DefaultAddress} {DefaultPort})");
        return 2;
    }
}
