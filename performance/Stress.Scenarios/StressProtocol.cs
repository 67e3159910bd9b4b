using System;
using System.IO;
using System.Net;
using System.Net.Security;
using System.Net.Sockets;
using System.Security.Authentication;
using System.Security.Cryptography.X509Certificates;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Certificates;

namespace NetCoreServer.Stress;

/// <summary>One stream transport the scenarios run over: how to make the server and how a peer connects to it.</summary>
internal sealed class StressProtocol
{
    private static readonly X509Certificate2 s_authority = DevelopmentCertificates.CreateAuthority("Stress CA");
    private static readonly X509Certificate2 s_certificate = DevelopmentCertificates.CreateServer(s_authority);

    private StressProtocol(string transport, bool pool = false)
    {
        Transport = transport;
        Pool = pool;
        Name = pool ? transport + "-pool" : transport;
    }

    public static StressProtocol Tcp { get; } = new("tcp");

    public static StressProtocol Ssl { get; } = new("ssl");

    public static StressProtocol Uds { get; } = new("uds");

    /// <summary>tcp with the server's sessions on the runtime's thread pool (OptionEventLoops = 0), not the default loops.</summary>
    public static StressProtocol TcpPool { get; } = new("tcp", pool: true);

    /// <summary>ssl on the thread pool.</summary>
    public static StressProtocol SslPool { get; } = new("ssl", pool: true);

    /// <summary>uds on the thread pool.</summary>
    public static StressProtocol UdsPool { get; } = new("uds", pool: true);

    public string Name { get; }

    /// <summary>tcp, ssl or uds.</summary>
    public string Transport { get; }

    /// <summary>True when the server's sessions run on the thread pool instead of the default engine.</summary>
    public bool Pool { get; }

    public bool Secure => Transport == "ssl";

    public override string ToString() => Name;

    /// <summary>Whether <see cref="StartServer"/> can serve WebSocket over this transport (not over Unix sockets yet).</summary>
    public bool HasWebSocket => Transport != "uds";

    /// <summary>
    /// A started server whose sessions echo, or stay silent when <paramref name="echo"/> is false; with
    /// <paramref name="webSocket"/> a WsServer (WssServer over ssl) whose multicast is one binary message.
    /// </summary>
    public IStressServer StartServer(bool echo, Action<IStressServer>? configure = null, bool webSocket = false)
    {
        IStressServer server = (Transport, webSocket) switch
        {
            ("tcp", false) => new StressTcpServer(echo),
            ("tcp", true) => new StressWsServer(echo),
            ("ssl", false) => new StressSslServer(NewContext(), echo),
            ("ssl", true) => new StressWssServer(NewContext(), echo),
            (_, false) => new StressUdsServer(Path.Combine(Path.GetTempPath(), "ncs-stress-" + Guid.NewGuid().ToString("N")[..8] + ".sock"), echo),
            _ => throw new NotSupportedException("WebSocket over " + Transport),
        };
        if (Pool)
            ((StreamServer)server).OptionEventLoops = 0;
        configure?.Invoke(server);
        if (!server.Start())
            throw new InvalidOperationException("the server did not start");
        return server;
    }

    private static SslContext NewContext() => new(SslProtocols.Tls12 | SslProtocols.Tls13, s_certificate);

    /// <summary>A bare connected socket (no TLS handshake).</summary>
    public static async Task<Socket> ConnectRawAsync(EndPoint endpoint, CancellationToken cancel, IPAddress? from = null, int receiveBuffer = 0)
    {
        var socket = endpoint is UnixDomainSocketEndPoint
            ? new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified)
            : new Socket(endpoint.AddressFamily, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        try
        {
            // Before the connect, so the window the peer is offered is the small one from the start.
            if (receiveBuffer > 0)
                socket.ReceiveBufferSize = receiveBuffer;
            if (from != null && endpoint is IPEndPoint)
                socket.Bind(new IPEndPoint(from, 0));
            await socket.ConnectAsync(endpoint, cancel).ConfigureAwait(false);
            return socket;
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }

    /// <summary>A connected peer stream: the socket's, or TLS over it (handshake done).</summary>
    public async Task<Stream> ConnectAsync(EndPoint endpoint, CancellationToken cancel, IPAddress? from = null, int receiveBuffer = 0)
    {
        var socket = await ConnectRawAsync(endpoint, cancel, from, receiveBuffer).ConfigureAwait(false);
        var stream = new NetworkStream(socket, ownsSocket: true);
        if (!Secure)
            return stream;
        var ssl = new SslStream(stream, leaveInnerStreamOpen: false, (_, certificate, _, _) => certificate != null && certificate.GetCertHashString() == s_certificate.GetCertHashString());
        try
        {
            await ssl.AuthenticateAsClientAsync(new SslClientAuthenticationOptions { TargetHost = "localhost" }, cancel).ConfigureAwait(false);
            return ssl;
        }
        catch
        {
            await ssl.DisposeAsync().ConfigureAwait(false);
            throw;
        }
    }

    /// <summary>The bytes of a real ClientHello, captured from the platform's TLS client, for peers that never go further.</summary>
    public static async Task<byte[]> CaptureClientHelloAsync()
    {
        var capture = new CaptureStream();
        using var ssl = new SslStream(capture, leaveInnerStreamOpen: true);
        using var stop = new CancellationTokenSource(TimeSpan.FromSeconds(5));
        var handshake = ssl.AuthenticateAsClientAsync(new SslClientAuthenticationOptions { TargetHost = "localhost" }, stop.Token);
        var hello = await capture.FirstWrite.WaitAsync(TimeSpan.FromSeconds(5)).ConfigureAwait(false);
        stop.Cancel();
        try
        {
            await handshake.ConfigureAwait(false);
        }
        catch (Exception)
        {
            // Cancelled on purpose: only the first flight was wanted.
        }
        return hello;
    }

    /// <summary>Keeps the first write (the ClientHello); reads wait until cancelled.</summary>
    private sealed class CaptureStream : Stream
    {
        private readonly TaskCompletionSource<byte[]> _first = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public Task<byte[]> FirstWrite => _first.Task;

        public override bool CanRead => true;

        public override bool CanSeek => false;

        public override bool CanWrite => true;

        public override long Length => throw new NotSupportedException();

        public override long Position { get => throw new NotSupportedException(); set => throw new NotSupportedException(); }

        public override void Flush()
        {
        }

        public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException();

        public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
        {
            await Task.Delay(Timeout.Infinite, cancellationToken).ConfigureAwait(false);
            return 0;
        }

        public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) => ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

        public override void SetLength(long value) => throw new NotSupportedException();

        public override void Write(byte[] buffer, int offset, int count) => _first.TrySetResult(buffer.AsSpan(offset, count).ToArray());

        public override ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default)
        {
            _first.TrySetResult(buffer.ToArray());
            return ValueTask.CompletedTask;
        }

        public override Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) => WriteAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();
    }
}
