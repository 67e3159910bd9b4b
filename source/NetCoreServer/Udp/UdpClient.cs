using System.Net;
using System.Net.Sockets;
using System.Threading;
using NetCoreServer.Connections;
using NetCoreServer.Engine;

namespace NetCoreServer;

/// <summary>
/// UDP client: a socket bound to an ephemeral port (or, with <see cref="SetupMulticast"/>, to the multicast port) that
/// sends to the server endpoint or any other, and receives from anyone. UDP has no connection: "connected" means the
/// socket is open. Hook order: OnConnecting, OnConnected, data hooks, OnDisconnecting, OnDisconnected.
/// </summary>
public partial class UdpClient : DatagramPeer
{
    private const int Disconnected = 0;
    private const int Connecting = 1;
    private const int Connected = 2;
    private const int Disconnecting = 3;

    private readonly EndPoint _serverEndpoint;
    private int _state;
    private volatile bool _connected;

    /// <summary>Creates a client for a server IP address and port.</summary>
    /// <param name="address">Server address.</param>
    /// <param name="port">Server port.</param>
    public UdpClient(IPAddress address, int port)
        : this(EndpointSpec.Of(address, port))
    {
    }

    /// <summary>Creates a client for a server IP address literal or host name, and a port.</summary>
    /// <param name="address">Server address or host name.</param>
    /// <param name="port">Server port.</param>
    public UdpClient(string address, int port)
        : this(EndpointSpec.Of(address, port))
    {
    }

    /// <summary>Creates a client for a server host-name endpoint (resolved on every Connect).</summary>
    /// <param name="endpoint">Server endpoint.</param>
    public UdpClient(DnsEndPoint endpoint)
        : this(EndpointSpec.Of(endpoint))
    {
    }

    /// <summary>Creates a client for a server IP endpoint.</summary>
    /// <param name="endpoint">Server endpoint.</param>
    public UdpClient(IPEndPoint endpoint)
        : this(EndpointSpec.Of(endpoint))
    {
    }

    private UdpClient(EndpointSpec target)
        : base(target)
    {
        _serverEndpoint = target.Endpoint;
    }

    /// <summary>True while the socket is open: from just before OnConnected until Disconnect closes it.</summary>
    public bool IsConnected => _connected;

    /// <summary>
    /// Bind to the endpoint's port on any address instead of an ephemeral port, as a multicast receiver must (default
    /// false; set by <see cref="SetupMulticast"/>). Applied on Connect.
    /// </summary>
    /// <remarks>
    /// On Linux the socket then receives only the groups it joined itself: IP_MULTICAST_ALL is turned off, where the
    /// system default would also deliver every group joined by any other socket on the host to this port.
    /// </remarks>
    public bool OptionMulticast { get; set; }

    /// <summary>
    /// Opens the socket: resolves the server endpoint, binds (an ephemeral port, or the endpoint's port with
    /// <see cref="OptionMulticast"/>) and starts. Hooks, on this thread: OnConnecting, OnConnected.
    /// </summary>
    /// <remarks>
    /// Receiving starts when <see cref="DatagramPeer.ReceiveAsync"/> is called (typically from OnConnected), or by itself
    /// with <see cref="DatagramPeer.OptionContinuousReceive"/>. A failed bind raises OnError, OnDisconnecting and
    /// OnDisconnected instead, as in NetCoreServer (so a client that reconnects from OnDisconnected retries then too).
    /// </remarks>
    /// <returns>True when connected; false if already connected or the socket could not be bound.</returns>
    public virtual bool Connect()
    {
        if (Interlocked.CompareExchange(ref _state, Connecting, Disconnected) != Disconnected)
            return false;
        Socket socket;
        try
        {
            OnConnecting();
            var server = Resolve(_serverEndpoint);
            Endpoint = server;
            var any = server.AddressFamily == AddressFamily.InterNetworkV6 ? IPAddress.IPv6Any : IPAddress.Any;
            socket = OpenSocket(new IPEndPoint(any, OptionMulticast ? server.Port : 0));
        }
        catch (SocketException e)
        {
            Volatile.Write(ref _state, Disconnected);
            using (Hooks.Enter(this))
                OnError(e.SocketErrorCode);
            OnDisconnecting();
            OnDisconnected();
            return false;
        }
        catch
        {
            Volatile.Write(ref _state, Disconnected);
            throw;
        }
        StartEngine(socket);
        _connected = true;
        Volatile.Write(ref _state, Connected);
        OnConnected();
        StartContinuousReceive();
        return true;
    }

    /// <summary>
    /// Closes the socket: datagrams accepted by SendAsync are handed to the socket first (bounded, and not when called
    /// from inside a hook), then the loops end; outside a hook this waits for them, so no data hook runs after
    /// OnDisconnected. Hooks, on this thread: OnDisconnecting, OnDisconnected.
    /// </summary>
    /// <returns>False if not connected.</returns>
    public virtual bool Disconnect()
    {
        if (Interlocked.CompareExchange(ref _state, Disconnecting, Connected) != Connected)
            return false;
        try
        {
            OnDisconnecting();
        }
        finally
        {
            CloseEngine(flush: true);
            _connected = false;
            Volatile.Write(ref _state, Disconnected);
        }
        OnDisconnected();
        return true;
    }

    /// <summary>Disconnects and connects again (a new socket, a new ephemeral port).</summary>
    /// <returns>False if not connected, or if connecting again failed.</returns>
    public virtual bool Reconnect() => Disconnect() && Connect();

    /// <summary>Called before the socket opens, on the thread calling Connect; options set here apply to it.</summary>
    protected virtual void OnConnecting()
    {
    }

    /// <summary>Called once the socket is open, on the thread calling Connect; a good place to call ReceiveAsync or join groups.</summary>
    protected virtual void OnConnected()
    {
    }

    /// <summary>Called when a disconnect begins, on the thread calling Disconnect; sending is still possible.</summary>
    protected virtual void OnDisconnecting()
    {
    }

    /// <summary>Called last, after the socket is closed, on the thread calling Disconnect.</summary>
    protected virtual void OnDisconnected()
    {
    }

    private protected override void CloseForDispose() => Disconnect();
}
