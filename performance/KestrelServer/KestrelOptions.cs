using System;
using System.Globalization;
using System.Net;

namespace NetCoreServer.Performance.KestrelServer;

/// <summary>
/// The command line: <c>PORT [http|https|ws|wss|h2c|h2] [--address A] [--lifetime SECONDS] [--cert FILE] [--password P]
/// [--inline-completions]</c>. PORT 0 picks a free one, printed in the "listening" line; the address defaults to
/// 127.0.0.1; ws and wss serve the WebSocket echo over TCP and TLS (see <see cref="WebSocketEcho"/>); the lifetime
/// (default 0, none) stops the server by itself, a safety net for scripts and tests; the certificate defaults to the one our benchmarks serve (see <see cref="Common.DevelopmentTls"/>);
/// <c>--inline-completions</c> is the counterpart of our servers' option of that name (see <see cref="InlineCompletions"/>).
/// </summary>
internal sealed class KestrelOptions
{
    public const string Usage = "usage: KestrelServer PORT [http|https|ws|wss|h2c|h2] [--address 127.0.0.1] [--lifetime SECONDS] [--cert FILE] [--password qwerty] [--inline-completions]";

    public int Port { get; private set; }

    /// <summary>Over TLS: https or wss.</summary>
    public bool Https { get; private set; }

    /// <summary>HTTP/2: h2c (without TLS, for prior-knowledge clients), or h2 (over TLS, by ALPN, beside HTTP/1.1).</summary>
    public bool Http2 { get; private set; }

    /// <summary>The WebSocket echo is served as well: ws or wss.</summary>
    public bool WebSockets { get; private set; }

    public IPAddress Address { get; private set; } = IPAddress.Loopback;

    public int Lifetime { get; private set; }

    public string? Certificate { get; private set; }

    public string Password { get; private set; } = Common.DevelopmentTls.DefaultPassword;

    /// <summary>
    /// Runs socket completions on the runtime's socket engine threads (the runtime's
    /// <c>DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS=1</c>, as our servers' <c>--inline-completions</c> sets) and lets
    /// Kestrel go on with the request on that thread too (its socket transport's <c>UnsafePreferInlineScheduling</c>),
    /// so that a comparison in that mode does not leave Kestrel one thread hand-off per read behind.
    /// </summary>
    public bool InlineCompletions { get; private set; }

    public string Scheme => (WebSockets, Https) switch
    {
        (true, true) => "wss",
        (true, false) => "ws",
        (false, true) => "https",
        (false, false) => "http",
    };

    /// <summary>The options, or null with <paramref name="error"/> saying what is wrong.</summary>
    public static KestrelOptions? Parse(string[] args, out string? error)
    {
        var options = new KestrelOptions();
        var positional = 0;
        for (var i = 0; i < args.Length; i++)
        {
            var argument = args[i];
            if (argument == "--inline-completions")
            {
                options.InlineCompletions = true;
            }
            else if (argument.StartsWith("--", StringComparison.Ordinal))
            {
                if (i + 1 == args.Length)
                {
                    error = $"{argument} needs a value";
                    return null;
                }
                var value = args[++i];
                switch (argument)
                {
                    case "--address" when IPAddress.TryParse(value, out var address):
                        options.Address = address;
                        break;
                    case "--lifetime" when int.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out var seconds):
                        options.Lifetime = seconds;
                        break;
                    case "--cert":
                        options.Certificate = value;
                        break;
                    case "--password":
                        options.Password = value;
                        break;
                    default:
                        error = $"unknown option or bad value: {argument} {value}";
                        return null;
                }
            }
            else if (positional == 0 && int.TryParse(argument, NumberStyles.None, CultureInfo.InvariantCulture, out var port) && port <= 65535)
            {
                options.Port = port;
                positional++;
            }
            else if (positional == 1 && argument is "http" or "https" or "ws" or "wss" or "h2c" or "h2")
            {
                options.Http2 = argument is "h2c" or "h2";
                options.Https = argument is "https" or "wss" or "h2";
                options.WebSockets = argument is "ws" or "wss";
                positional++;
            }
            else
            {
                error = $"unexpected argument '{argument}'";
                return null;
            }
        }
        error = positional == 0 ? "the port is missing" : null;
        return error is null ? options : null;
    }
}
