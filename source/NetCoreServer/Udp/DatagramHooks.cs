using System;
using System.Net;
using System.Net.Sockets;
using NetCoreServer.Engine;

namespace NetCoreServer.Udp;

/// <summary>
/// The one rule for the datagram engine's hooks. Raised by a loop, a hook that throws goes to OnHandlerException and
/// the loop carries on (a failing OnHandlerException too); raised for a user's synchronous call, its exception reaches
/// that call, as in NetCoreServer. Static lambdas with the datagram passed as state keep the loops' hooks allocation-free.
/// </summary>
internal sealed class DatagramHooks
{
    private static readonly Action<IDatagramHost, Exception> s_handlerFailed = static (host, exception) =>
    {
        try
        {
            host.HandlerException(exception);
        }
        catch (Exception)
        {
            // The handler of handler failures failed too; the loop must survive it.
        }
    };

    private readonly IDatagramHost _host;

    public DatagramHooks(IDatagramHost host) => _host = host;

    /// <summary>OnReceived from the receive loop; <paramref name="buffer"/> is the loop's and is reused once this returns.</summary>
    public void Received(EndPoint endpoint, byte[] buffer, int size)
        => Hooks.Run(_host, HookKind.Other, (endpoint, buffer, size),
            static (host, datagram) => host.Received(datagram.endpoint, datagram.buffer, 0, datagram.size), s_handlerFailed);

    /// <summary>OnSent from the send loop.</summary>
    public void Sent(EndPoint endpoint, long sent)
        => Hooks.Run(_host, HookKind.Sending, (endpoint, sent), static (host, datagram) => host.Sent(datagram.endpoint, datagram.sent), s_handlerFailed);

    /// <summary>OnError from either loop.</summary>
    public void Error(SocketError error)
        => Hooks.Run(_host, HookKind.Other, error, static (host, error) => host.Error(error), s_handlerFailed);

    /// <summary>OnError for a synchronous call, on the caller's thread; exceptions from the hook reach the caller.</summary>
    public void ReportInline(SocketError error)
    {
        using var scope = Hooks.Enter(_host);
        _host.Error(error);
    }

    /// <summary>A blocking send or receive failed: reports the error when worth it (not after close) and returns -1.</summary>
    /// <param name="error">What the socket said.</param>
    /// <param name="closed">The engine is closed: the error is the close's doing and is not reported.</param>
    public int BlockingFailed(SocketError error, bool closed)
    {
        if (!closed && DatagramErrors.IsReportable(error))
            ReportInline(error);
        return -1;
    }
}
