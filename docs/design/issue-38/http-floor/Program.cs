using System;
using System.Net;
using System.Text;
using System.Threading;
using NetCoreServer;

// The floor under issue 38's HTTP row: a TcpServer on the library's default engine that answers every request head
// (each "\r\n\r\n", found across reads) with the bytes EchoServer sends for GET /fixed, parsing nothing else.
// Usage: http-floor PORT SECONDS. Prints "listening" once it accepts connections.
var server = new FloorServer(IPAddress.Loopback, int.Parse(args[0]));
if (!server.Start())
    return 1;
Console.WriteLine("listening");
Thread.Sleep(TimeSpan.FromSeconds(int.Parse(args[1])));
server.Stop();
return 0;

internal sealed class FloorServer(IPAddress address, int port) : TcpServer(address, port)
{
    protected override TcpSession CreateSession() => new FloorSession(this);
}

internal sealed class FloorSession(TcpServer server) : TcpSession(server)
{
    private static readonly byte[] Answer = Encoding.ASCII.GetBytes(
        "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=UTF-8\r\nContent-Length: 13\r\n\r\nHello, World!");

    // How much of "\r\n\r\n" the bytes so far end with.
    private int _matched;

    protected override void OnReceived(byte[] buffer, long offset, long size)
    {
        foreach (var b in buffer.AsSpan((int)offset, (int)size))
        {
            _matched = b == (_matched % 2 == 0 ? (byte)'\r' : (byte)'\n') ? _matched + 1 : b == '\r' ? 1 : 0;
            if (_matched == 4)
            {
                _matched = 0;
                SendAsync(Answer);
            }
        }
    }
}
