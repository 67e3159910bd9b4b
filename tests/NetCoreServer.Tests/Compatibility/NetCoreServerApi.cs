using System;
using System.Collections.Generic;
using System.Linq;

namespace NetCoreServer.Tests.Compatibility;

/// <summary>
/// The public and protected members of NetCoreServer's transport types (chronoxor/NetCoreServer 8.x), as signatures
/// in the form of <see cref="ApiSignatures"/>: what a NetCoreServer user's code may call, set or override. Written
/// from NetCoreServer's API only (names, types, accessibility); our types must offer each of these unchanged.
/// </summary>
internal static class NetCoreServerApi
{
    /// <summary>Every type checked, with its expected members.</summary>
    public static IReadOnlyDictionary<Type, string[]> Types { get; } = new Dictionary<Type, string[]>
    {
        [typeof(TcpServer)] = [.. TcpServerMembers("TcpSession"), "public .ctor(IPAddress, int)", "public .ctor(string, int)", "public .ctor(DnsEndPoint)", "public .ctor(IPEndPoint)"],
        [typeof(TcpSession)] = [.. SessionMembers(), "public .ctor(TcpServer)", "public TcpServer Server { get; }"],
        [typeof(TcpClient)] = [.. TcpClientMembers(), "public .ctor(IPAddress, int)", "public .ctor(string, int)", "public .ctor(DnsEndPoint)", "public .ctor(IPEndPoint)"],
        [typeof(SslContext)] = SslContextMembers(),
        [typeof(SslServer)] =
        [
            .. TcpServerMembers("SslSession"),
            "public .ctor(SslContext, IPAddress, int)", "public .ctor(SslContext, string, int)", "public .ctor(SslContext, DnsEndPoint)", "public .ctor(SslContext, IPEndPoint)",
            "public SslContext Context { get; }",
            "protected virtual void OnHandshaking(SslSession)",
            "protected virtual void OnHandshaked(SslSession)",
        ],
        [typeof(SslSession)] =
        [
            .. SessionMembers(), "public .ctor(SslServer)", "public SslServer Server { get; }",
            "public bool IsHandshaked { get; }",
            "protected virtual void OnHandshaking()",
            "protected virtual void OnHandshaked()",
        ],
        [typeof(SslClient)] =
        [
            .. TcpClientMembers(),
            "public .ctor(SslContext, IPAddress, int)", "public .ctor(SslContext, string, int)", "public .ctor(SslContext, DnsEndPoint)", "public .ctor(SslContext, IPEndPoint)",
            "public SslContext Context { get; }",
            "public bool IsHandshaking { get; }",
            "public bool IsHandshaked { get; }",
            "protected virtual void OnHandshaking()",
            "protected virtual void OnHandshaked()",
        ],
        [typeof(UdsServer)] = [.. ServerMembers("UdsSession"), "public .ctor(string)", "public .ctor(UnixDomainSocketEndPoint)"],
        [typeof(UdsSession)] = [.. SessionMembers(), "public .ctor(UdsServer)", "public UdsServer Server { get; }"],
        [typeof(UdsClient)] = [.. ClientMembers(), "public .ctor(string)", "public .ctor(UnixDomainSocketEndPoint)"],
        [typeof(UdpServer)] = UdpServerMembers(),
        [typeof(UdpClient)] = UdpClientMembers(),
    };

    private static string[] Sends(string result, string method, string prefix = "") =>
    [
        $"public virtual {result} {method}({prefix}byte[])",
        $"public virtual {result} {method}({prefix}byte[], long, long)",
        $"public virtual {result} {method}({prefix}ReadOnlySpan<byte>)",
        $"public virtual {result} {method}({prefix}string)",
        $"public virtual {result} {method}({prefix}ReadOnlySpan<char>)",
    ];

    private static string[] Disposable() =>
    [
        "public bool IsDisposed { get; }",
        "public bool IsSocketDisposed { get; }",
        "public void Dispose()",
        "protected virtual void Dispose(bool)",
    ];

    /// <summary>What TcpSession, SslSession and UdsSession (and, with <see cref="ClientMembers"/>, the clients) share.</summary>
    private static IEnumerable<string> ConnectionMembers() =>
    [
        "public Guid Id { get; }",
        "public Socket Socket { get; }",
        "public long BytesPending { get; }",
        "public long BytesSending { get; }",
        "public long BytesSent { get; }",
        "public long BytesReceived { get; }",
        "public int OptionReceiveBufferLimit { get; set; }",
        "public int OptionReceiveBufferSize { get; set; }",
        "public int OptionSendBufferLimit { get; set; }",
        "public int OptionSendBufferSize { get; set; }",
        "public bool IsConnected { get; }",
        "public virtual bool Disconnect()",
        .. Sends("long", "Send"),
        .. Sends("bool", "SendAsync"),
        "public virtual long Receive(byte[])",
        "public virtual long Receive(byte[], long, long)",
        "public virtual string Receive(long)",
        "public virtual void ReceiveAsync()",
        "protected virtual void OnConnecting()",
        "protected virtual void OnConnected()",
        "protected virtual void OnDisconnecting()",
        "protected virtual void OnDisconnected()",
        "protected virtual void OnReceived(byte[], long, long)",
        "protected virtual void OnSent(long, long)",
        "protected virtual void OnEmpty()",
        "protected virtual void OnError(SocketError)",
        .. Disposable(),
    ];

    private static IEnumerable<string> SessionMembers() => ConnectionMembers();

    private static IEnumerable<string> ClientMembers() =>
    [
        .. ConnectionMembers(),
        "public EndPoint Endpoint { get; }",
        "public bool IsConnecting { get; }",
        "protected virtual Socket CreateSocket()",
        "public virtual bool Connect()",
        "public virtual bool Reconnect()",
        "public virtual bool ConnectAsync()",
        "public virtual bool DisconnectAsync()",
        "public virtual bool ReconnectAsync()",
    ];

    private static IEnumerable<string> TcpClientMembers() =>
    [
        .. ClientMembers(),
        "public string Address { get; }",
        "public int Port { get; }",
        "public bool OptionDualMode { get; set; }",
        "public bool OptionKeepAlive { get; set; }",
        "public int OptionTcpKeepAliveTime { get; set; }",
        "public int OptionTcpKeepAliveInterval { get; set; }",
        "public int OptionTcpKeepAliveRetryCount { get; set; }",
        "public bool OptionNoDelay { get; set; }",
    ];

    /// <summary>What TcpServer, SslServer and UdsServer share, for the session type <paramref name="session"/>.</summary>
    private static IEnumerable<string> ServerMembers(string session) =>
    [
        "public Guid Id { get; }",
        "public EndPoint Endpoint { get; }",
        "public long ConnectedSessions { get; }",
        "public long BytesPending { get; }",
        "public long BytesSent { get; }",
        "public long BytesReceived { get; }",
        "public int OptionAcceptorBacklog { get; set; }",
        "public int OptionReceiveBufferSize { get; set; }",
        "public int OptionSendBufferSize { get; set; }",
        "public bool IsStarted { get; }",
        "public bool IsAccepting { get; }",
        "protected virtual Socket CreateSocket()",
        "public virtual bool Start()",
        "public virtual bool Stop()",
        "public virtual bool Restart()",
        $"protected virtual {session} CreateSession()",
        $"protected ConcurrentDictionary<Guid, {session}> Sessions",
        "public virtual bool DisconnectAll()",
        $"public {session} FindSession(Guid)",
        .. Sends("bool", "Multicast"),
        "protected virtual void OnStarting()",
        "protected virtual void OnStarted()",
        "protected virtual void OnStopping()",
        "protected virtual void OnStopped()",
        $"protected virtual void OnConnecting({session})",
        $"protected virtual void OnConnected({session})",
        $"protected virtual void OnDisconnecting({session})",
        $"protected virtual void OnDisconnected({session})",
        "protected virtual void OnError(SocketError)",
        .. Disposable(),
    ];

    private static IEnumerable<string> TcpServerMembers(string session) =>
    [
        .. ServerMembers(session),
        "public string Address { get; }",
        "public int Port { get; }",
        "public bool OptionDualMode { get; set; }",
        "public bool OptionKeepAlive { get; set; }",
        "public int OptionTcpKeepAliveTime { get; set; }",
        "public int OptionTcpKeepAliveInterval { get; set; }",
        "public int OptionTcpKeepAliveRetryCount { get; set; }",
        "public bool OptionNoDelay { get; set; }",
        "public bool OptionReuseAddress { get; set; }",
        "public bool OptionExclusiveAddressUse { get; set; }",
    ];

    private static string[] SslContextMembers() =>
    [
        "public .ctor()",
        "public .ctor(SslProtocols)",
        "public .ctor(SslProtocols, X509Certificate)",
        "public .ctor(SslProtocols, X509Certificate, RemoteCertificateValidationCallback)",
        "public .ctor(SslProtocols, X509Certificate2Collection)",
        "public .ctor(SslProtocols, X509Certificate2Collection, RemoteCertificateValidationCallback)",
        "public SslProtocols Protocols { get; set; }",
        "public X509Certificate Certificate { get; set; }",
        "public X509Certificate2Collection Certificates { get; set; }",
        "public RemoteCertificateValidationCallback CertificateValidationCallback { get; set; }",
        "public bool ClientCertificateRequired { get; set; }",
    ];

    /// <summary>What UdpServer and UdpClient share.</summary>
    private static IEnumerable<string> DatagramMembers() =>
    [
        "public .ctor(IPAddress, int)",
        "public .ctor(string, int)",
        "public .ctor(DnsEndPoint)",
        "public .ctor(IPEndPoint)",
        "public Guid Id { get; }",
        "public string Address { get; }",
        "public int Port { get; }",
        "public EndPoint Endpoint { get; }",
        "public Socket Socket { get; }",
        "public long BytesPending { get; }",
        "public long BytesSending { get; }",
        "public long BytesSent { get; }",
        "public long BytesReceived { get; }",
        "public long DatagramsSent { get; }",
        "public long DatagramsReceived { get; }",
        "public bool OptionDualMode { get; set; }",
        "public bool OptionReuseAddress { get; set; }",
        "public bool OptionExclusiveAddressUse { get; set; }",
        "public int OptionReceiveBufferLimit { get; set; }",
        "public int OptionReceiveBufferSize { get; set; }",
        "public int OptionSendBufferLimit { get; set; }",
        "public int OptionSendBufferSize { get; set; }",
        "protected virtual Socket CreateSocket()",
        .. Sends("long", "Send", "EndPoint, "),
        .. Sends("bool", "SendAsync", "EndPoint, "),
        "public virtual long Receive(ref EndPoint, byte[])",
        "public virtual long Receive(ref EndPoint, byte[], long, long)",
        "public virtual string Receive(ref EndPoint, long)",
        "public virtual void ReceiveAsync()",
        "protected virtual void OnReceived(EndPoint, byte[], long, long)",
        "protected virtual void OnSent(EndPoint, long)",
        "protected virtual void OnError(SocketError)",
        .. Disposable(),
    ];

    private static string[] UdpServerMembers() =>
    [
        .. DatagramMembers(),
        "public EndPoint MulticastEndpoint { get; }",
        "public bool IsStarted { get; }",
        "public virtual bool Start()",
        "public virtual bool Start(IPAddress, int)",
        "public virtual bool Start(string, int)",
        "public virtual bool Start(EndPoint)",
        "public virtual bool Stop()",
        "public virtual bool Restart()",
        .. Sends("long", "Send"),
        .. Sends("long", "Multicast"),
        .. Sends("bool", "MulticastAsync"),
        "protected virtual void OnStarting()",
        "protected virtual void OnStarted()",
        "protected virtual void OnStopping()",
        "protected virtual void OnStopped()",
    ];

    private static string[] UdpClientMembers() =>
    [
        .. DatagramMembers(),
        "public bool OptionMulticast { get; set; }",
        "public bool IsConnected { get; }",
        "public virtual bool Connect()",
        "public virtual bool Disconnect()",
        "public virtual bool Reconnect()",
        "public virtual void SetupMulticast(bool)",
        "public virtual void JoinMulticastGroup(IPAddress)",
        "public virtual void JoinMulticastGroup(string)",
        "public virtual void LeaveMulticastGroup(IPAddress)",
        "public virtual void LeaveMulticastGroup(string)",
        .. Sends("long", "Send"),
        .. Sends("bool", "SendAsync"),
        "protected virtual void OnConnecting()",
        "protected virtual void OnConnected()",
        "protected virtual void OnDisconnecting()",
        "protected virtual void OnDisconnected()",
        "protected virtual void OnJoinedMulticastGroup(IPAddress)",
        "protected virtual void OnLeftMulticastGroup(IPAddress)",
    ];

    /// <summary>The expected signatures of <paramref name="type"/> that it does not offer.</summary>
    public static string[] Missing(Type type)
    {
        var offered = ApiSignatures.VisibleFrom(type);
        return Types[type].Distinct().Where(signature => !offered.Contains(signature)).ToArray();
    }
}
