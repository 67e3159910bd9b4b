using System.Net;
using System.Runtime.InteropServices;
using HttpApi;

// Usage: HttpApi [port] [address]   (defaults: 8080 127.0.0.1; port 0 picks a free port). Ctrl+C or SIGTERM stops it.
var port = args.Length > 0 ? int.Parse(args[0]) : 8080;
var address = args.Length > 1 ? IPAddress.Parse(args[1]) : IPAddress.Loopback;

using var server = new ApiServer(address, port);
if (!server.Start())
{
    Console.Error.WriteLine($"HttpApi could not listen on {address}:{port}");
    return 1;
}
// Endpoint is the bound one, so port 0 shows the real port.
Console.WriteLine($"HttpApi listening on {server.Endpoint}");
Console.WriteLine($"Try: curl http://{server.Endpoint}/api/hello");

var stop = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
using var onInterrupt = PosixSignalRegistration.Create(PosixSignal.SIGINT, context => { context.Cancel = true; stop.TrySetResult(); });
using var onTerminate = PosixSignalRegistration.Create(PosixSignal.SIGTERM, context => { context.Cancel = true; stop.TrySetResult(); });
await stop.Task;

server.Stop();
Console.WriteLine("HttpApi stopped");
return 0;
