using System;
using System.Buffers;
using System.Collections.Generic;
using System.IO;
using System.Net;
using System.Net.Security;
using System.Net.Sockets;
using System.Security.Cryptography.X509Certificates;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.IdleConnections;

/// <summary>
/// The baseline with no library: accepted and connected <see cref="Socket"/> pairs, optionally each end wrapped in an
/// <see cref="SslStream"/> after a handshake. Like any event-driven server, every end keeps a receive pending: a
/// zero-byte one, so that an idle end holds no buffer (the library's sessions and clients do the same).
/// </summary>
internal sealed class RawSet : IConnectionSet
{
    private const int ConcurrentConnects = 64;
    private const int ReceiveBufferSize = 8192;

    private readonly X509Certificate2? _certificate;
    private readonly RemoteCertificateValidationCallback? _validation;
    private readonly List<IDisposable> _ends = [];
    private readonly List<Task> _receives = [];
    private Socket? _listener;

    private RawSet(X509Certificate2? certificate, RemoteCertificateValidationCallback? validation, string description)
    {
        _certificate = certificate;
        _validation = validation;
        Description = description;
    }

    public string Description { get; }

    /// <summary>Plain socket pairs.</summary>
    public static RawSet Plain() => new(null, null, "raw Socket pairs");

    /// <summary>SslStream pairs, with the certificates and protocols the library's ssl set uses.</summary>
    public static RawSet Tls() => new(
        DevelopmentTls.LoadServerCertificate(null, DevelopmentTls.DefaultPassword),
        DevelopmentTls.TrustAuthority(null),
        "raw SslStream pairs");

    private IPEndPoint Endpoint => (IPEndPoint)_listener!.LocalEndPoint!;

    public void Start()
    {
        var listener = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        listener.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        listener.Listen(1024);
        _listener = listener;
    }

    public async Task OpenAsync(int count, CancellationToken cancellationToken)
    {
        var accepting = AcceptAsync(count, cancellationToken);
        var connected = new Socket[count];
        var parallel = new ParallelOptions { MaxDegreeOfParallelism = ConcurrentConnects, CancellationToken = cancellationToken };
        try
        {
            await Parallel.ForAsync(0, count, parallel, async (i, token) =>
            {
                var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
                connected[i] = socket;
                await socket.ConnectAsync(Endpoint, token).ConfigureAwait(false);
            }).ConfigureAwait(false);
        }
        finally
        {
            lock (_ends)
            {
                foreach (var socket in connected)
                {
                    if (socket is not null)
                        _ends.Add(socket);
                }
            }
        }

        // Accepts complete in any order: each accepted socket is paired with the client whose local endpoint it sees.
        var clients = new Dictionary<EndPoint, Socket>(count);
        foreach (var socket in connected)
            clients.Add(socket.LocalEndPoint!, socket);
        var accepted = await accepting.ConfigureAwait(false);
        var pairs = new (Socket Server, Socket Client)[count];
        for (var i = 0; i < count; i++)
            pairs[i] = (accepted[i], clients[accepted[i].RemoteEndPoint!]);

        if (_certificate is null)
        {
            foreach (var (server, client) in pairs)
            {
                _receives.Add(ReceiveLoopAsync(server));
                _receives.Add(ReceiveLoopAsync(client));
            }
            return;
        }

        await Parallel.ForAsync(0, count, parallel, async (i, token) =>
        {
            var (server, client) = pairs[i];
            var (serverTls, clientTls) = await HandshakeAsync(server, client, token).ConfigureAwait(false);
            lock (_ends)
            {
                _ends.Add(serverTls);
                _ends.Add(clientTls);
                _receives.Add(ReceiveLoopAsync(serverTls));
                _receives.Add(ReceiveLoopAsync(clientTls));
            }
        }).ConfigureAwait(false);
    }

    public async Task CloseAllAsync(CancellationToken cancellationToken)
    {
        // Disposing an SslStream disposes its socket, and disposing a socket twice does nothing.
        foreach (var end in _ends)
            end.Dispose();
        _ends.Clear();
        await Task.WhenAll(_receives).WaitAsync(cancellationToken).ConfigureAwait(false);
        _receives.Clear();
    }

    public ValueTask DisposeAsync()
    {
        foreach (var end in _ends)
            end.Dispose();
        _ends.Clear();
        _listener?.Dispose();
        _certificate?.Dispose();
        return ValueTask.CompletedTask;
    }

    private async Task<Socket[]> AcceptAsync(int count, CancellationToken cancellationToken)
    {
        var accepted = new Socket[count];
        try
        {
            for (var i = 0; i < count; i++)
                accepted[i] = await _listener!.AcceptAsync(cancellationToken).ConfigureAwait(false);
        }
        finally
        {
            lock (_ends)
            {
                foreach (var socket in accepted)
                {
                    if (socket is not null)
                        _ends.Add(socket);
                }
            }
        }
        return accepted;
    }

    private async Task<(SslStream Server, SslStream Client)> HandshakeAsync(Socket server, Socket client, CancellationToken cancellationToken)
    {
        var serverTls = new SslStream(new NetworkStream(server, ownsSocket: true));
        var clientTls = new SslStream(new NetworkStream(client, ownsSocket: true));
        try
        {
            var serverOptions = new SslServerAuthenticationOptions
            {
                ServerCertificate = _certificate,
                EnabledSslProtocols = DevelopmentTls.ServerProtocols,
                CertificateRevocationCheckMode = X509RevocationMode.NoCheck,
            };
            var clientOptions = new SslClientAuthenticationOptions
            {
                // The name the library's SslClient checks too when it connects to IPAddress.Loopback.
                TargetHost = IPAddress.Loopback.ToString(),
                EnabledSslProtocols = DevelopmentTls.ClientProtocols,
                CertificateRevocationCheckMode = X509RevocationMode.NoCheck,
                RemoteCertificateValidationCallback = _validation,
            };
            await Task.WhenAll(
                serverTls.AuthenticateAsServerAsync(serverOptions, cancellationToken),
                clientTls.AuthenticateAsClientAsync(clientOptions, cancellationToken)).ConfigureAwait(false);
            return (serverTls, clientTls);
        }
        catch
        {
            serverTls.Dispose();
            clientTls.Dispose();
            throw;
        }
    }

    /// <summary>Waits with a zero-byte receive, then rents a buffer only while data is there, until the peer closes.</summary>
    /// <param name="socket">The connected socket.</param>
    /// <param name="ended">Told once the loop has ended (a server forgets the socket there): one state machine per
    /// connection, as a raw server written by hand has, rather than a second one awaiting this loop.</param>
    internal static async Task ReceiveLoopAsync(Socket socket, Action<Socket>? ended = null)
    {
        try
        {
            while (true)
            {
                await socket.ReceiveAsync(Memory<byte>.Empty, SocketFlags.None).ConfigureAwait(false);
                var buffer = ArrayPool<byte>.Shared.Rent(ReceiveBufferSize);
                try
                {
                    if (await socket.ReceiveAsync(buffer, SocketFlags.None).ConfigureAwait(false) == 0)
                        break;
                }
                finally
                {
                    ArrayPool<byte>.Shared.Return(buffer);
                }
            }
        }
        catch (Exception exception) when (exception is SocketException or ObjectDisposedException)
        {
        }
        ended?.Invoke(socket);
    }

    private static async Task ReceiveLoopAsync(Stream stream)
    {
        try
        {
            while (true)
            {
                await stream.ReadAsync(Memory<byte>.Empty).ConfigureAwait(false);
                var buffer = ArrayPool<byte>.Shared.Rent(ReceiveBufferSize);
                try
                {
                    if (await stream.ReadAsync(buffer).ConfigureAwait(false) == 0)
                        return;
                }
                finally
                {
                    ArrayPool<byte>.Shared.Return(buffer);
                }
            }
        }
        catch (Exception exception) when (exception is IOException or ObjectDisposedException or SocketException)
        {
        }
    }
}
