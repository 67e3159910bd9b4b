using System.Net;
using System.Net.Sockets;
using System.Threading;
using NetCoreServer.Connections;
using NetCoreServer.Engine;

namespace NetCoreServer;

/// <summary>
/// UDP server: binds one socket, receives datagrams from anyone (<see cref="DatagramPeer.ReceiveAsync"/> or
/// <see cref="DatagramPeer.OptionContinuousReceive"/>) and sends to any endpoint, or to
/// <see cref="MulticastEndpoint"/> with <c>Multicast</c>. Subclass it and override the hooks. Hook order:
/// OnStarting (after bind), OnStarted, data hooks, OnStopping, OnStopped.
/// </summary>
public partial class UdpServer : DatagramPeer
{
    private const int Stopped = 0;
    private const int Starting = 1;
    private const int Running = 2;
    private const int Stopping = 3;

    private int _state;
    private volatile bool _started;
    private Diagnostics.ServerMetrics? _metrics;

    /// <summary>Creates a server for an IP address and port (0 picks a free port; see <see cref="DatagramPeer.Endpoint"/> after Start).</summary>
    /// <param name="address">Address to bind.</param>
    /// <param name="port">Port to bind.</param>
    public UdpServer(IPAddress address, int port)
        : base(EndpointSpec.Of(address, port))
    {
    }

    /// <summary>Creates a server for an IP address literal or a host name, and a port.</summary>
    /// <param name="address">IP address or host name to bind.</param>
    /// <param name="port">Port to bind.</param>
    public UdpServer(string address, int port)
        : base(EndpointSpec.Of(address, port))
    {
    }

    /// <summary>Creates a server for a host-name endpoint (resolved when the server starts).</summary>
    /// <param name="endpoint">Endpoint to bind.</param>
    public UdpServer(DnsEndPoint endpoint)
        : base(EndpointSpec.Of(endpoint))
    {
    }

    /// <summary>Creates a server for an IP endpoint.</summary>
    /// <param name="endpoint">Endpoint to bind.</param>
    public UdpServer(IPEndPoint endpoint)
        : base(EndpointSpec.Of(endpoint))
    {
    }

    /// <summary>
    /// Where this server's instruments come from: a host's <see cref="System.Diagnostics.Metrics.IMeterFactory"/>, or null
    /// (the default) for the library's own meter named <see cref="ServerMeter.Name"/>. Read by <c>Start</c>.
    /// </summary>
    public System.Diagnostics.Metrics.IMeterFactory? OptionMeterFactory { get; set; }

    /// <summary>Where <c>Multicast</c> and <c>MulticastAsync</c> send; set by the Start overloads that take one, otherwise null.</summary>
    public EndPoint? MulticastEndpoint { get; private set; }

    /// <summary>True from just before OnStarted until the socket is closed by <see cref="Stop"/>.</summary>
    public bool IsStarted => _started;

    /// <summary>
    /// Binds the socket and starts. Receiving starts when <see cref="DatagramPeer.ReceiveAsync"/> is called (typically
    /// from OnStarted), or by itself with <see cref="DatagramPeer.OptionContinuousReceive"/>. Hooks, on this thread:
    /// OnStarting (after bind), OnStarted.
    /// </summary>
    /// <returns>False if already started.</returns>
    /// <exception cref="SocketException">The endpoint cannot be bound (for example, the port is in use).</exception>
    public virtual bool Start()
    {
        if (Interlocked.CompareExchange(ref _state, Starting, Stopped) != Stopped)
            return false;
        Socket? socket = null;
        try
        {
            var endpoint = Resolve(Endpoint);
            Endpoint = endpoint;
            socket = OpenSocket(endpoint);
            Endpoint = socket.LocalEndPoint ?? endpoint;
            OnStarting();
        }
        catch
        {
            socket?.Dispose();
            Volatile.Write(ref _state, Stopped);
            throw;
        }
        StartEngine(socket);
        _started = true;
        _metrics = Diagnostics.ServerMetrics.Start(OptionMeterFactory, new DatagramReadings(this), "udp", null, Address, (Endpoint as IPEndPoint)?.Port);
        Volatile.Write(ref _state, Running);
        OnStarted();
        StartContinuousReceive();
        return true;
    }

    /// <summary>Starts with a multicast group as <see cref="MulticastEndpoint"/>; see <see cref="Start()"/>.</summary>
    /// <param name="multicastAddress">Multicast group address.</param>
    /// <param name="multicastPort">Port the group's members listen on.</param>
    /// <returns>False if already started.</returns>
    public virtual bool Start(IPAddress multicastAddress, int multicastPort) => Start(new IPEndPoint(multicastAddress, multicastPort));

    /// <summary>Starts with a multicast group as <see cref="MulticastEndpoint"/>; see <see cref="Start()"/>.</summary>
    /// <param name="multicastAddress">Multicast group address (an IP literal or a host name).</param>
    /// <param name="multicastPort">Port the group's members listen on.</param>
    /// <returns>False if already started.</returns>
    public virtual bool Start(string multicastAddress, int multicastPort) => Start(EndpointSpec.Of(multicastAddress, multicastPort).Endpoint);

    /// <summary>Starts with <paramref name="multicastEndpoint"/> as <see cref="MulticastEndpoint"/>; see <see cref="Start()"/>.</summary>
    /// <param name="multicastEndpoint">Multicast group and port.</param>
    /// <returns>False if already started.</returns>
    public virtual bool Start(EndPoint multicastEndpoint)
    {
        if (IsStarted)
            return false;
        MulticastEndpoint = Resolve(multicastEndpoint);
        return Start();
    }

    /// <summary>
    /// Stops: datagrams accepted by SendAsync are handed to the socket first (bounded, and not when called from inside a
    /// hook), then the socket closes and the loops end; outside a hook this waits for them, so no data hook runs after
    /// OnStopped. Hooks, on this thread: OnStopping, OnStopped.
    /// </summary>
    /// <returns>False if not started.</returns>
    public virtual bool Stop()
    {
        if (Interlocked.CompareExchange(ref _state, Stopping, Running) != Running)
            return false;
        try
        {
            OnStopping();
        }
        finally
        {
            CloseEngine(flush: true);
            _started = false;
            _metrics?.Stop();
            Volatile.Write(ref _state, Stopped);
        }
        OnStopped();
        return true;
    }

    /// <summary>Stops and starts again on the same endpoint (the bound port, if it was 0).</summary>
    /// <returns>False if the server was not started.</returns>
    public virtual bool Restart() => Stop() && Start();

    /// <summary>Called after the socket is bound, before the server is started; on the thread calling Start.</summary>
    protected virtual void OnStarting()
    {
    }

    /// <summary>Called once the server is started, on the thread calling Start; a good place to call ReceiveAsync.</summary>
    protected virtual void OnStarted()
    {
    }

    /// <summary>Called when a stop begins, on the thread calling Stop; sending is still possible.</summary>
    protected virtual void OnStopping()
    {
    }

    /// <summary>Called last, after the socket is closed, on the thread calling Stop.</summary>
    protected virtual void OnStopped()
    {
    }

    private protected override void CloseForDispose() => Stop();
}
