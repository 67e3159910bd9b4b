using System;
using System.Linq;
using System.Net;
using System.Net.Sockets;
using NetCoreServer.Connections;
using NetCoreServer.Udp;


namespace NetCoreServer;

/// <summary>
/// What <see cref="UdpServer"/> and <see cref="UdpClient"/> share: one bound UDP socket with sending to any endpoint,
/// receiving (NetCoreServer's one-shot <see cref="ReceiveAsync"/>, or continuous with
/// <see cref="OptionContinuousReceive"/>), statistics, options and the data hooks. Both run on one internal datagram
/// engine; the server and the client add only how the socket is bound and their lifecycle hooks.
/// </summary>
public abstract partial class DatagramPeer : IDisposable, IDatagramHost
{
    private readonly DatagramOptions _options = new();
    private DatagramEngine? _engine;

    /// <summary>Creates a peer for any endpoint.</summary>
    /// <param name="target">The endpoint, and the address and port as given by the user.</param>
    private protected DatagramPeer(EndpointSpec target)
    {
        Id = Guid.NewGuid();
        (Endpoint, Address, Port) = target;
    }

    /// <summary>Unique identifier of this server or client.</summary>
    public Guid Id { get; }

    /// <summary>The address as given to the constructor.</summary>
    public string Address { get; }

    /// <summary>The port as given to the constructor.</summary>
    public int Port { get; }

    /// <summary>
    /// The endpoint. A host name is resolved when the socket opens, and a server's endpoint then becomes the bound
    /// one, so a server started on port 0 reports its real port.
    /// </summary>
    public EndPoint Endpoint { get; private protected set; }

    /// <summary>The socket of the current (or last) run; null before the first.</summary>
    public Socket Socket { get; private set; } = null!;

    /// <summary>True after <see cref="Dispose()"/>.</summary>
    public bool IsDisposed { get; private set; }

    /// <summary>True when there is no open socket.</summary>
    public bool IsSocketDisposed => _engine == null || _engine.IsClosed;

    /// <summary>The engine of the current (or last) run.</summary>
    private protected DatagramEngine? Engine => _engine;

    /// <summary>The engine when it is open; null before the first run and after close.</summary>
    private protected DatagramEngine? OpenEngine
    {
        get
        {
            var engine = _engine;
            return engine == null || engine.IsClosed ? null : engine;
        }
    }

    /// <summary>Creates the socket; override to customise it. Options are applied to it afterwards, then it is bound.</summary>
    /// <returns>A new UDP socket of <see cref="Endpoint"/>'s address family.</returns>
    protected virtual Socket CreateSocket() => new(Endpoint.AddressFamily, SocketType.Dgram, ProtocolType.Udp);

    /// <summary>Resolves a host-name endpoint to its first address (the IPv4 one first, as most peers listen there).</summary>
    private protected static IPEndPoint Resolve(EndPoint endpoint)
    {
        switch (endpoint)
        {
            case IPEndPoint ip:
                return ip;
            case DnsEndPoint dns:
                var addresses = Dns.GetHostAddresses(dns.Host);
                var address = addresses.FirstOrDefault(a => a.AddressFamily == AddressFamily.InterNetwork) ?? addresses.FirstOrDefault()
                    ?? throw new SocketException((int)SocketError.HostNotFound);
                return new IPEndPoint(address, dns.Port);
            default:
                throw new ArgumentException($"UDP needs an IP or host-name endpoint, not {endpoint.GetType().Name}.", nameof(endpoint));
        }
    }

    /// <summary>Creates the socket for <see cref="Endpoint"/> (already resolved), applies the options and binds it.</summary>
    /// <param name="bindTo">Local endpoint to bind.</param>
    private protected Socket OpenSocket(EndPoint bindTo)
    {
        var socket = CreateSocket();
        try
        {
            if (OptionReuseAddress)
                socket.SetSocketOption(SocketOptionLevel.Socket, SocketOptionName.ReuseAddress, true);
            if (OptionExclusiveAddressUse && OperatingSystem.IsWindows())
                socket.ExclusiveAddressUse = true;
            if (socket.AddressFamily == AddressFamily.InterNetworkV6)
                socket.DualMode = OptionDualMode;
            if (OptionReceiveBufferSize > 0)
                socket.ReceiveBufferSize = OptionReceiveBufferSize;
            if (OptionSendBufferSize > 0)
                socket.SendBufferSize = OptionSendBufferSize;
            ApplyMulticastOptions(socket);
            PrepareSocket(socket);
            socket.Bind(bindTo);
        }
        catch
        {
            socket.Dispose();
            throw;
        }
        return socket;
    }

    /// <summary>Server- or client-specific preparation of the socket after the options, before it binds.</summary>
    /// <param name="socket">The new socket.</param>
    private protected virtual void PrepareSocket(Socket socket)
    {
    }

    /// <summary>Starts the engine on a bound socket; both loops park until there is something to do.</summary>
    private protected void StartEngine(Socket socket)
    {
        var engine = new DatagramEngine(socket, this, _options);
        Socket = socket;
        _engine = engine;
        engine.Start();
    }

    /// <summary>Starts receiving if <see cref="OptionContinuousReceive"/> is on (after OnStarted / OnConnected).</summary>
    private protected void StartContinuousReceive()
    {
        if (OptionContinuousReceive)
            OpenEngine?.RequestReceive();
    }

    /// <summary>Closes the current socket; see <see cref="DatagramEngine.Close"/>.</summary>
    /// <param name="flush">Hand datagrams accepted by SendAsync to the socket first (bounded).</param>
    private protected void CloseEngine(bool flush) => _engine?.Close(flush);

    /// <summary>Closes the socket for <see cref="Dispose(bool)"/>: the server stops, the client disconnects.</summary>
    private protected abstract void CloseForDispose();

    /// <summary>Stops or disconnects (when <paramref name="disposingManagedResources"/> is true) and marks this object disposed.</summary>
    /// <param name="disposingManagedResources">True when called from <see cref="Dispose()"/>.</param>
    protected virtual void Dispose(bool disposingManagedResources)
    {
        if (IsDisposed)
            return;
        if (disposingManagedResources)
            CloseForDispose();
        IsDisposed = true;
    }

    /// <summary>Stops or disconnects and releases this object.</summary>
    public void Dispose()
    {
        Dispose(true);
        GC.SuppressFinalize(this);
    }

    void IDatagramHost.Received(EndPoint endpoint, byte[] buffer, long offset, long size) => OnReceived(endpoint, buffer, offset, size);

    void IDatagramHost.Sent(EndPoint endpoint, long sent) => OnSent(endpoint, sent);

    void IDatagramHost.Error(SocketError error) => OnError(error);

    void IDatagramHost.HandlerException(Exception exception) => OnHandlerException(exception);
}
