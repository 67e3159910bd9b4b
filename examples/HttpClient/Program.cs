using System;
using System.Threading.Tasks;
using NetCoreServer.Examples;

namespace HttpClientExample;

internal static class Program
{
    private const int DefaultPort = 8080;

    private static async Task<int> Main(string[] args)
    {
        if (!HttpClientConsole.TryParseTimeout(args, out var timeout, out var positional)
            || !ChatArguments.TryParseClient(positional, DefaultPort, out var address, out var port))
        {
            Console.Error.WriteLine($"Usage: HttpClient {HttpClientConsole.Usage} [address] [port]");
            Console.Error.WriteLine($"   (defaults: a {HttpClientConsole.DefaultTimeout.TotalSeconds} s timeout, {ChatArguments.DefaultAddress} {DefaultPort})");
            return 2;
        }

        using var client = new ConsoleClient(address, port);
        return await HttpClientConsole.RunAsync(client, "HTTP", address, port, timeout).ConfigureAwait(false);
    }
}
