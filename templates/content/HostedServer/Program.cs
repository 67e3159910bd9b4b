using HostedServer;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using NetCoreServer;
using NetCoreServer.Hosting;

// A TCP chat on the .NET generic host. appsettings.json's "Chat" section configures the server (address, port,
// limits, timeouts); the environment overrides it (Chat__Port=9000), and so does the command line (--Chat:Port=9000).
// Ctrl+C or SIGTERM drains it: no new connections, each client gets what was queued for it, then the close; what is
// left when HostOptions:ShutdownTimeout ends is closed at once.
var builder = Host.CreateApplicationBuilder(args);
builder.Services.Configure<HostOptions>(builder.Configuration.GetSection("HostOptions"));
builder.Services.AddSessionServer<ChatServer, TcpSession>(builder.Configuration.GetSection("Chat"), (_, options) => new ChatServer(options.Address, options.Port));
// Healthy while the server accepts connections (map it to an HTTP endpoint or read it from your own probe).
builder.Services.AddHealthChecks().AddSessionServerCheck<ChatServer, TcpSession>();
await builder.Build().RunAsync();
