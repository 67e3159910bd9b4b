using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Net;
using System.Net.Sockets;
using System.Threading.Tasks;

namespace NetCoreServer.Examples;

/// <summary>
/// The console of the HTTP and HTTPS client examples: each line is a request, <c>METHOD URL [BODY]</c>, answered by
/// printing the response's status line, headers and body; <c>quit</c> or an empty line quits.
/// </summary>
public static class HttpClientConsole
{
    /// <summary>The options this class reads, for usage lines.</summary>
    public const string Usage = "[--timeout SECONDS]";

    /// <summary>How long a request may take, connecting included, unless <c>--timeout</c> says otherwise: 10 seconds.</summary>
    public static readonly TimeSpan DefaultTimeout = TimeSpan.FromSeconds(10);

    private const string TimeoutOption = "--timeout";
    private const string Help = "Type a request: METHOD URL [BODY], such as 'GET /api/cache', 'POST /api/cache?key=a some value', "
        + "'PUT /api/cache?key=a other value', 'GET /api/cache?key=a', 'HEAD /api/cache?key=a', 'DELETE /api/cache?key=a', "
        + "'OPTIONS /api/cache', 'TRACE /'; 'quit' or an empty line quits.";

    private static readonly HashSet<string> s_methods = new(StringComparer.Ordinal) { "GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "TRACE" };

    /// <summary>Takes <c>--timeout SECONDS</c> out of the command line.</summary>
    /// <param name="args">The command line.</param>
    /// <param name="timeout">The request timeout: the option's, or <see cref="DefaultTimeout"/>.</param>
    /// <param name="remaining">The other arguments, in their order.</param>
    /// <returns>False when the option has no value or it is not a positive number.</returns>
    public static bool TryParseTimeout(IReadOnlyList<string> args, out TimeSpan timeout, out string[] remaining)
    {
        timeout = DefaultTimeout;
        var rest = new List<string>();
        for (var i = 0; i < args.Count; i++)
        {
            if (args[i] != TimeoutOption)
            {
                rest.Add(args[i]);
                continue;
            }
            if (i + 1 == args.Count
                || !double.TryParse(args[++i], NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out var seconds)
                || seconds <= 0 || seconds > int.MaxValue / 1000)
            {
                remaining = rest.ToArray();
                return false;
            }
            timeout = TimeSpan.FromSeconds(seconds);
        }
        remaining = rest.ToArray();
        return true;
    }

    /// <summary>Sends the typed requests one by one until the user quits (<c>quit</c>, an empty line, end of input,
    /// SIGINT or SIGTERM), then disconnects.</summary>
    /// <param name="client">The client; it connects on the first request and again after the connection closed.</param>
    /// <param name="protocol">The name printed in messages: <c>HTTP</c> or <c>HTTPS</c>.</param>
    /// <param name="address">The server address, for the first message.</param>
    /// <param name="port">The server port, for the first message.</param>
    /// <param name="timeout">How long each request may take, connecting included.</param>
    /// <returns>The process exit code: 0.</returns>
    public static Task<int> RunAsync(IHttpConsoleClient client, string protocol, string address, int port, TimeSpan timeout)
    {
        var host = IPAddress.TryParse(address, out var ip) && ip.AddressFamily == AddressFamily.InterNetworkV6 ? $"[{address}]:{port}" : $"{address}:{port}";
        return RunAsync(client, protocol, $"{address}:{port}", host, timeout);
    }

    /// <summary>Sends the typed requests one by one until the user quits; see the overload for an address and port.</summary>
    /// <param name="client">The client; it connects on the first request and again after the connection closed.</param>
    /// <param name="protocol">The name printed in messages: <c>HTTP</c> or <c>HTTPS</c>.</param>
    /// <param name="server">Where the server is, for the first message: <c>address:port</c>, or a socket file.</param>
    /// <param name="host">The requests' Host field (<c>localhost</c> for a socket file).</param>
    /// <param name="timeout">How long each request may take, connecting included.</param>
    /// <returns>The process exit code: 0.</returns>
    public static async Task<int> RunAsync(IHttpConsoleClient client, string protocol, string server, string host, TimeSpan timeout)
    {
        ArgumentNullException.ThrowIfNull(client);
        using var commands = new ConsoleCommands();
        Console.WriteLine($"{protocol} client of {server}; a request may take {timeout.TotalSeconds:0.###} s");
        Console.WriteLine(Help);
        var request = new HttpRequest();

        while (await commands.ReadAsync().ConfigureAwait(false) is { } line)
        {
            if (line.Trim() == "quit")
                break;
            if (!TryMakeRequest(line, host, request, out var problem))
            {
                Console.WriteLine($"{problem}. Type METHOD URL [BODY], or 'quit'.");
                continue;
            }
            await SendAsync(client, request, timeout).ConfigureAwait(false);
        }

        Console.WriteLine("Client disconnecting...");
        await client.DisconnectAndWaitAsync().ConfigureAwait(false);
        Console.WriteLine("Done!");
        return 0;
    }

    private static async Task SendAsync(IHttpConsoleClient client, HttpRequest request, TimeSpan timeout)
    {
        var events = client.Events;
        events.Clear();
        var reused = client.IsConnected;
        try
        {
            Print(await client.SendRequest(request, timeout).ConfigureAwait(false));
        }
        catch (TimeoutException exception)
        {
            Console.WriteLine($"Error (timeout): {exception.Message}");
        }
        catch (InvalidDataException exception)
        {
            Console.WriteLine($"Error (bad response): {exception.Message}");
        }
        catch (IOException exception)
        {
            var error = events.LastError;
            if (error != SocketError.Success)
                Console.WriteLine($"Error (connection): {exception.Message} ({error})");
            else if (!reused && !events.HasConnected)
                // Every failed connect reaches OnError except the ordinary ones: refused, or reset (a server refusing too).
                Console.WriteLine($"Error (connection refused): {exception.Message}");
            else
                Console.WriteLine($"Error (connection): {exception.Message}");
        }
    }

    // The response as it came, with the body decoded as UTF-8 (a HEAD response has none).
    private static void Print(HttpResponse response)
    {
        Console.WriteLine($"{response.Protocol} {response.Status} {response.StatusPhrase}");
        for (var i = 0; i < response.Headers; i++)
        {
            var (name, value) = response.Header(i);
            Console.WriteLine($"{name}: {value}");
        }
        Console.WriteLine();
        var body = response.Body;
        if (body.Length > 0)
            Console.WriteLine(body.EndsWith('\n') ? body[..^1] : body);
        Console.Out.Flush();
    }

    private static bool TryMakeRequest(string line, string host, HttpRequest request, out string problem)
    {
        var parts = line.TrimStart().Split(' ', 3);
        var method = parts[0].ToUpperInvariant();
        problem = "";
        if (!s_methods.Contains(method))
            problem = $"Unknown method '{parts[0]}'";
        else if (parts.Length < 2 || !(parts[1].StartsWith('/') || (method == "OPTIONS" && parts[1] == "*")))
            problem = $"{method} needs a URL starting with '/'";
        else if (parts.Length == 3 && parts[2].Trim().Length > 0 && method is not ("POST" or "PUT"))
            problem = $"Only POST and PUT take a body, not {method}";
        if (problem.Length > 0)
            return false;

        // Not the Make...Request helpers: they end the head at once, and HTTP/1.1 wants a Host field (RFC 9112 3.2).
        request.SetBegin(method, parts[1]).SetHeader("Host", host);
        if (method is "POST" or "PUT")
            request.SetHeader("Content-Type", "text/plain; charset=UTF-8").SetBody(parts.Length == 3 ? parts[2] : "");
        else
            request.SetBody();
        return true;
    }
}
