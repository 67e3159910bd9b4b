using System;
using System.Net;
using System.Net.Sockets;
using System.Threading.Tasks;

namespace NetCoreServer.Tests.Support;

/// <summary>A bare socket to a test server: a peer that connects and then does only what the test says (nothing, garbage).</summary>
internal sealed class RawPeer : IDisposable
{
    private RawPeer(Socket socket, bool resetOnConnect)
    {
        Socket = socket;
        ResetOnConnect = resetOnConnect;
    }

    public Socket Socket { get; }

    /// <summary>The server closed the connection so fast that the connect itself saw the reset (Unix sockets can).</summary>
    public bool ResetOnConnect { get; }

    /// <summary>Connects to <paramref name="endpoint"/>, from <paramref name="from"/> when given (another loopback address).</summary>
    public static async Task<RawPeer> ConnectAsync(EndPoint endpoint, IPAddress? from = null)
    {
        var socket = endpoint is UnixDomainSocketEndPoint
            ? new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified)
            : new Socket(endpoint.AddressFamily, SocketType.Stream, ProtocolType.Tcp);
        try
        {
            if (from != null)
                socket.Bind(new IPEndPoint(from, 0));
            try
            {
                await Wait.For(socket.ConnectAsync(endpoint), "raw connect to " + endpoint);
            }
            catch (SocketException exception) when (exception.SocketErrorCode == SocketError.ConnectionReset)
            {
                return new RawPeer(socket, resetOnConnect: true);
            }
            return new RawPeer(socket, resetOnConnect: false);
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }

    /// <summary>Completes when the server has closed the connection (end of stream or reset); data before it is skipped.</summary>
    public async Task Closed()
    {
        if (ResetOnConnect)
            return;
        var buffer = new byte[4096];
        try
        {
            for (var i = 0; i < 10_000; i++)
            {
                if (await Socket.ReceiveAsync(buffer, SocketFlags.None) == 0)
                    return;
            }
            throw new InvalidOperationException("the server kept sending instead of closing");
        }
        catch (SocketException)
        {
            // A reset is a close too.
        }
    }

    public void Dispose() => Socket.Dispose();
}
