using System;
using System.Net;
using System.Net.Sockets;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Transports;

/// <summary>
/// Connects a client's socket to an address, a socket file or a host name (every address it resolves to, in turn),
/// blocking or not, one attempt at a time. The attempt's <see cref="CancellationTokenSource"/> is the one mechanism for
/// both its timeout (<c>CancelAfter</c>) and its abandonment (<see cref="Abandon"/>): an attempt it ended fails with
/// TimedOut or OperationAborted. Lock: this object (internal, never handed out) guards the attempt's state; no socket
/// call is made under it.
/// </summary>
internal sealed class SocketConnector
{
    // Under lock (this).
    private bool _connecting;
    private bool _abandoned;
    private CancellationTokenSource? _attempt;

    /// <summary>True from <see cref="TryBegin"/> until <see cref="End"/>.</summary>
    public bool IsConnecting => Volatile.Read(ref _connecting);

    /// <summary>The clock of the connect timeout (the client's OptionTimeProvider).</summary>
    public TimeProvider Time { get; set; } = TimeProvider.System;

    /// <summary>Starts an attempt unless one is under way or the client is still connected (<paramref name="idle"/> false).</summary>
    public bool TryBegin(bool idle)
    {
        lock (this)
        {
            if (_connecting || !idle)
                return false;
            _connecting = true;
            _abandoned = false;
            return true;
        }
    }

    /// <summary>The attempt is over (connected, failed or abandoned).</summary>
    public void End()
    {
        lock (this)
            _connecting = false;
    }

    /// <summary>Ends the connect under way as aborted; the attempt's caller then reports it. No effect when none is.</summary>
    public void Abandon()
    {
        CancellationTokenSource? attempt;
        lock (this)
        {
            if (!_connecting)
                return;
            _abandoned = true;
            attempt = _attempt;
        }
        Cancel(attempt);
    }

    /// <summary>
    /// Connects <paramref name="created"/> to <paramref name="endpoint"/>, or for a host name (null socket) a new socket
    /// to each address in turn, blocking; a timeout of zero or less leaves the system's. Throws the last SocketException
    /// (TimedOut when the timeout passed), and disposes what it made.
    /// </summary>
    public Socket Connect(Socket? created, EndPoint endpoint, TimeSpan timeout)
    {
        // Without a timeout the plain blocking connect: no token, nothing to cancel it with (as NetCoreServer's).
        var attempt = timeout > TimeSpan.Zero ? Start(timeout) : null;
        try
        {
            if (created != null)
            {
                ConnectOne(created, endpoint, attempt);
                return created;
            }
            var name = (DnsEndPoint)endpoint;
            SocketException? last = null;
            foreach (var address in Dns.GetHostAddresses(name.Host))
            {
                var socket = new Socket(address.AddressFamily, SocketType.Stream, ProtocolType.Tcp);
                try
                {
                    ConnectOne(socket, new IPEndPoint(address, name.Port), attempt);
                    return socket;
                }
                catch (SocketException e)
                {
                    socket.Dispose();
                    last = e;
                    if (attempt?.IsCancellationRequested == true)
                        break;
                }
            }
            throw last ?? new SocketException((int)SocketError.HostNotFound);
        }
        finally
        {
            if (attempt != null)
                Finish(attempt);
        }
    }

    private void ConnectOne(Socket socket, EndPoint endpoint, CancellationTokenSource? attempt)
    {
        if (attempt == null)
        {
            socket.Connect(endpoint);
            return;
        }
        try
        {
            socket.ConnectAsync(endpoint, attempt.Token).AsTask().GetAwaiter().GetResult();
        }
        catch (OperationCanceledException)
        {
            throw new SocketException((int)(IsAbandoned() ? SocketError.OperationAborted : SocketError.TimedOut));
        }
    }

    /// <summary>
    /// Connects asynchronously: <paramref name="created"/> to <paramref name="endpoint"/>, or for a host name (null socket)
    /// a new socket to each address it resolves to. Completes with the outcome and the socket (null when none was made);
    /// the caller disposes a socket whose connect failed.
    /// </summary>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    public async ValueTask<(IoResult Result, Socket? Socket)> ConnectAsync(Socket? created, EndPoint endpoint, TimeSpan timeout)
    {
        var args = new AwaitableSocketArgs();
        var attempt = Start(timeout);
        var socket = created;
        IoResult result;
        try
        {
            var pending = created == null ? args.ConnectByNameAsync((DnsEndPoint)endpoint) : args.ConnectAsync(created, endpoint);
            if (pending.IsCompleted)
            {
                result = pending.Result;
            }
            else
            {
                // Registered once started, so a timeout or abandon that came first cancels the connect under way.
                using (attempt.Token.UnsafeRegister(static a => CancelConnect((SocketAsyncEventArgs)a!), args))
                    result = await pending.ConfigureAwait(false);
            }
            if (created == null)
                socket = args.ConnectSocket;
        }
        catch (SocketException e)
        {
            result = IoResult.Failed(e.SocketErrorCode);
        }
        finally
        {
            args.Dispose();
        }
        var timedOut = Finish(attempt);
        if (!result.Succeeded && result.Error == SocketError.OperationAborted && timedOut)
            result = IoResult.Failed(SocketError.TimedOut);
        return (result, socket);
    }

    /// <summary>The attempt's token source: cancelled by its timeout, or at once when it was abandoned before it started.</summary>
    private CancellationTokenSource Start(TimeSpan timeout)
    {
        var attempt = timeout > TimeSpan.Zero ? new CancellationTokenSource(timeout, Time) : new CancellationTokenSource();
        bool abandoned;
        lock (this)
        {
            _attempt = attempt;
            abandoned = _abandoned;
        }
        if (abandoned)
            Cancel(attempt);
        return attempt;
    }

    /// <summary>Ends the attempt's token source; true when its timeout (not an abandon) cancelled it.</summary>
    private bool Finish(CancellationTokenSource attempt)
    {
        bool timedOut;
        lock (this)
        {
            _attempt = null;
            timedOut = attempt.IsCancellationRequested && !_abandoned;
        }
        attempt.Dispose();
        return timedOut;
    }

    private bool IsAbandoned()
    {
        lock (this)
            return _abandoned;
    }

    private static void Cancel(CancellationTokenSource? attempt)
    {
        try
        {
            attempt?.Cancel();
        }
        catch (ObjectDisposedException)
        {
            // The attempt finished while it was being abandoned.
        }
    }

    private static void CancelConnect(SocketAsyncEventArgs args)
    {
        try
        {
            Socket.CancelConnectAsync(args);
        }
        catch (ObjectDisposedException)
        {
            // The connect finished while it was being cancelled.
        }
    }
}
