using System;
using System.IO;
using System.Linq;
using System.Security.Cryptography;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.AspNetCore.Server.Kestrel.Https;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.KestrelServer;

/// <summary>
/// The baseline of the HTTP and WebSocket benchmarks: a minimal-API ASP.NET Core app on Kestrel doing what our
/// EchoServer does with <c>--protocol http|https</c>: TRACE (any path) gets the request back as <c>message/http</c>
/// (see <see cref="TraceEcho"/>), <c>GET /fixed</c> gets "Hello, World!" as text/plain, anything else 404; with
/// <c>ws|wss</c> a WebSocket upgrade (any path) gets every message echoed back (see <see cref="WebSocketEcho"/>).
/// HTTP/1.1 only, over TCP or TLS 1.2/1.3 with our benchmarks' development certificate; no logging, no Server header
/// (ours sends none either). Prints "Kestrel server (http) listening on ADDRESS:PORT" once it accepts connections,
/// stops on Ctrl+C or SIGTERM.
/// Exit codes: 0 after a clean stop, 1 when it could not start, 2 for a bad command line.
/// </summary>
internal static class Program
{
    private static async Task<int> Main(string[] args)
    {
        if (args is ["-h" or "-?" or "--help"])
        {
            Console.Error.WriteLine(KestrelOptions.Usage);
            return 0;
        }
        var options = KestrelOptions.Parse(args, out var error);
        if (options is null)
        {
            Console.Error.WriteLine($"error: {error}");
            Console.Error.WriteLine(KestrelOptions.Usage);
            return 2;
        }

        // Read once, when the runtime's socket engine starts: must be set before this process's first socket.
        if (options.InlineCompletions)
            Environment.SetEnvironmentVariable("DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS", "1");

        WebApplication app;
        try
        {
            app = Build(options);
            await app.StartAsync();
        }
        catch (Exception exception) when (exception is IOException or CryptographicException or InvalidOperationException or UnauthorizedAccessException)
        {
            Console.Error.WriteLine($"error: Kestrel server could not start on {options.Address}:{options.Port}: {exception.Message}");
            return 1;
        }

        await using (app)
        {
            var bound = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()?.Addresses.FirstOrDefault() ?? "";
            var inline = options.InlineCompletions ? ", inline socket completions and scheduling" : "";
            Console.WriteLine($"Kestrel server ({options.Scheme}{inline}) listening on {new Uri(bound).Authority}");

            using var lifetime = new CancellationTokenSource();
            if (options.Lifetime > 0)
                lifetime.CancelAfter(TimeSpan.FromSeconds(options.Lifetime));
            using (lifetime.Token.Register(app.Lifetime.StopApplication))
                await app.WaitForShutdownAsync();
            Console.WriteLine(lifetime.IsCancellationRequested
                ? $"Kestrel server stopping (lifetime of {options.Lifetime} s reached)"
                : "Kestrel server stopping");
            await app.StopAsync();
        }

        Console.WriteLine("Kestrel server stopped");
        return 0;
    }

    private static WebApplication Build(KestrelOptions options)
    {
        // The slim builder: Kestrel, routing and configuration, without the extras (host filtering, IIS, logging
        // providers) a benchmark does not need.
        var builder = WebApplication.CreateSlimBuilder();
        builder.Logging.ClearProviders();
        if (options.Https)
            builder.WebHost.UseKestrelHttpsConfiguration();
        var certificate = options.Https ? DevelopmentTls.LoadServerCertificate(options.Certificate, options.Password) : null;
        if (options.InlineCompletions)
            builder.WebHost.UseSockets(sockets => sockets.UnsafePreferInlineScheduling = true);
        builder.WebHost.ConfigureKestrel(kestrel =>
        {
            kestrel.AddServerHeader = false;
            kestrel.Listen(options.Address, options.Port, listen =>
            {
                // h2c: HTTP/2 only, which Kestrel serves to prior-knowledge clients without TLS; h2: by ALPN over TLS.
                listen.Protocols = !options.Http2 ? HttpProtocols.Http1 : options.Https ? HttpProtocols.Http1AndHttp2 : HttpProtocols.Http2;
                if (certificate is not null)
                    listen.UseHttps(new HttpsConnectionAdapterOptions { ServerCertificate = certificate, SslProtocols = DevelopmentTls.ServerProtocols });
            });
        });

        var app = builder.Build();
        if (options.WebSockets)
        {
            app.UseWebSockets();
            app.Use(WebSocketEcho.Answer);
        }
        // Before routing: a TRACE endpoint on every path would turn a POST to an unknown path into 405, not 404.
        app.Use(next => context => HttpMethods.IsTrace(context.Request.Method) ? TraceEcho.Answer(context) : next(context));
        app.UseRouting();
        // Results.Text sends a Content-Length, as ours does; a bare string would go out chunked.
        app.MapGet("/fixed", () => Results.Text("Hello, World!"));
        return app;
    }
}
