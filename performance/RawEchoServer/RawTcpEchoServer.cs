using System;
using System.Collections.Concurrent;
using System.IO;
using System.Net;
using System.Net.Security;
using System.Net.Sockets;
using System.Security.Authentication;
using System.Security.Cryptography.X509Certificates;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.RawEchoServer;

/// <summary>
/// An async accept loop, and per connection a receive-then-send loop over one 8 KiB buffer: the least an echo
/// server can do. Socket options are left at their defaults, as the library's server leaves them. The endpoint is
/// an IP one for tcp or a Unix socket file for uds, which is removed when the server stops. With a
/// <paramref name="certificate"/> (ssl) every connection is the runtime's <see cref="SslStream"/> over the socket:
/// the server's handshake (TLS 1.2 or 1.3, as the library's ssl server accepts), then a read-then-write loop.
/// </summary>
internal sealed class RawTcpEchoServer(EndPoint endpoint, X509Certificate2? certificate = null) : IBenchmarkServer
{
    private const int BufferSize = 8192;

    // How long Stop waits for the accept loop and the connections to end after their sockets were closed.
    private static readonly TimeSpan s_stopTimeout = TimeSpan.FromSeconds(5);

    private readonly ConcurrentDictionary<Socket, Task> _connections = new();
    private readonly CancellationTokenSource _stopping = new();
    private Socket? _listener;
    private Task _acceptLoop = Task.CompletedTask;

    public string ListeningOn => _listener?.LocalEndPoint?.ToString() ?? endpoint.ToString() ?? "";

    public bool Start()
    {
        if (_listener != null)
            return false;
        var listener = new Socket(endpoint.AddressFamily, SocketType.Stream, endpoint is UnixDomainSocketEndPoint ? ProtocolType.Unspecified : ProtocolType.Tcp);
        try
        {
            listener.Bind(endpoint);
            listener.Listen(1024);
        }
        catch
        {
            listener.Dispose();
            throw;
        }
        _listener = listener;
        _acceptLoop = AcceptLoopAsync(listener, _stopping.Token);
        return true;
    }

    public bool Stop()
    {
        var listener = Interlocked.Exchange(ref _listener, null);
        if (listener == null)
            return false;
        _stopping.Cancel();
        listener.Dispose();
        foreach (var socket in _connections.Keys)
            socket.Dispose();
        var all = Task.WhenAll([_acceptLoop, .. _connections.Values]);
        if (!all.Wait(s_stopTimeout))
            Console.Error.WriteLine($"warning: connections still open {s_stopTimeout.TotalSeconds:0} s after the stop");
        // A Unix socket file outlives its socket; the next server on the same path could not bind.
        if (endpoint is UnixDomainSocketEndPoint && endpoint.ToString() is { } file)
            File.Delete(file);
        return true;
    }

    public void Dispose()
    {
        Stop();
        _stopping.Dispose();
    }

    private async Task AcceptLoopAsync(Socket listener, CancellationToken cancellationToken)
    {
        // Leave the caller (Start) at once; the loop runs on the thread pool.
        await Task.Yield();
        while (!cancellationToken.IsCancellationRequested)
        {
            Socket socket;
            try
            {
                socket = await listener.AcceptAsync(cancellationToken).ConfigureAwait(false);
            }
            catch (Exception exception) when (exception is OperationCanceledException or ObjectDisposedException)
            {
                return;
            }
            catch (SocketException exception)
            {
                if (cancellationToken.IsCancellationRequested)
                    return;
                Console.Error.WriteLine($"Raw echo server caught an accept error: {exception.SocketErrorCode}");
                continue;
            }

            // Registered before the loop starts, so that a connection ending at once is not added back after its removal.
            _connections[socket] = Task.CompletedTask;
            var echo = certificate is null ? EchoAsync(socket, cancellationToken) : EchoTlsAsync(socket, certificate, cancellationToken);
            _connections.TryUpdate(socket, echo, Task.CompletedTask);
        }
    }

    private async Task EchoAsync(Socket socket, CancellationToken cancellationToken)
    {
        await Task.Yield();
        var buffer = new byte[BufferSize];
        try
        {
            while (true)
            {
                var received = await socket.ReceiveAsync(buffer, SocketFlags.None, cancellationToken).ConfigureAwait(false);
                if (received == 0)
                    break;
                var sent = 0;
                while (sent < received)
                    sent += await socket.SendAsync(buffer.AsMemory(sent, received - sent), SocketFlags.None, cancellationToken).ConfigureAwait(false);
            }
        }
        catch (Exception exception) when (exception is SocketException or OperationCanceledException or ObjectDisposedException)
        {
            // The peer went away or the server is stopping: either way this connection is over.
        }
        finally
        {
            _connections.TryRemove(socket, out _);
            socket.Dispose();
        }
    }

    private async Task EchoTlsAsync(Socket socket, X509Certificate2 serverCertificate, CancellationToken cancellationToken)
    {
        await Task.Yield();
        var buffer = new byte[BufferSize];
        // The stream owns the socket: disposing it closes the connection.
        var tls = new SslStream(new NetworkStream(socket, ownsSocket: true));
        try
        {
            var options = new SslServerAuthenticationOptions { ServerCertificate = serverCertificate, EnabledSslProtocols = DevelopmentTls.ServerProtocols };
            await tls.AuthenticateAsServerAsync(options, cancellationToken).ConfigureAwait(false);
            while (true)
            {
                // At most one TLS record's plaintext per read; a write is one record (or more above 16 KiB).
                var received = await tls.ReadAsync(buffer, cancellationToken).ConfigureAwait(false);
                if (received == 0)
                    break;
                await tls.WriteAsync(buffer.AsMemory(0, received), cancellationToken).ConfigureAwait(false);
            }
        }
        catch (Exception exception) when (exception is IOException or AuthenticationException or SocketException or OperationCanceledException or ObjectDisposedException)
        {
            // The peer went away, failed the handshake, or the server is stopping: either way this connection is over.
        }
        finally
        {
            _connections.TryRemove(socket, out _);
            await tls.DisposeAsync().ConfigureAwait(false);
        }
    }
}
