using System.Net.Sockets;
using System.Threading.Tasks;
using NetCoreServer.Transports;

namespace NetCoreServer.Engine;

/// <summary>
/// The connect phase of a <see cref="StreamSessionEngine"/>, in hook order: OnConnecting (server), Connected, joining a
/// multicast log (a client given one), OnConnected, the TLS handshake with OnHandshaking and OnHandshaked, OnEmpty, then
/// the receive loop. Each hook holds teardown back while it runs (the engine's holds); a disconnect that comes first
/// skips the hooks not yet begun.
/// </summary>
internal static class ConnectSequence
{
    public static async Task RunAsync(StreamSessionEngine engine, bool raiseConnecting, bool receive, MulticastLog? log)
    {
        // The constructor's hold covers the connect hooks; a disconnect requested before they begin skips them all.
        if (!engine.BeginHooks())
        {
            // TLS: nothing can be sent before a handshake and none starts now, so a graceful end would only wait out the disconnect timeout.
            if (engine.Transport.Tls != null)
                engine.CloseTransport();
            engine.Release();
            return;
        }
        if (raiseConnecting)
            engine.RunHook(HookKind.Other, 0, static (e, _) => e.Host.EngineConnecting());
        engine.MarkConnected();
        AttachLog(engine, log);
        engine.RunHook(HookKind.Other, 0, static (e, _) => e.Host.EngineConnected());
        engine.Release();

        if (engine.Transport.Tls != null)
        {
            // Disconnected before the handshake began: nothing queued can be delivered without one.
            if (!engine.Hold())
            {
                engine.CloseTransport();
                return;
            }
            engine.RunHook(HookKind.Other, 0, static (e, _) => e.Host.EngineHandshaking());
            engine.Release();
            var error = await engine.Transport.HandshakeAsync().ConfigureAwait(false);
            if (error != SocketError.Success)
            {
                if (engine.Hold())
                {
                    engine.RunHook(HookKind.Other, error, static (e, error) => e.Host.EngineError(error));
                    engine.Release();
                }
                engine.Abort(DisconnectReason.HandshakeFailed);
                return;
            }
        }

        // Disconnected meanwhile: what was queued is still delivered (a graceful disconnect), but no more hooks begin.
        var holding = engine.Hold();
        if (holding && engine.Transport.Tls != null)
            engine.RunHook(HookKind.Other, 0, static (e, _) => e.Host.EngineHandshaked());
        engine.MarkReady(raiseEmpty: holding);
        if (!holding)
            return;
        engine.Release();
        if (receive)
            engine.StartReceiving();
    }

    /// <summary>Joins the log at its end, so the session gets what is multicast from now on (a client given a log: from OnConnected on).</summary>
    private static void AttachLog(StreamSessionEngine engine, MulticastLog? log)
    {
        if (log == null)
            return;
        lock (log.Lock)
            engine.JoinLogLocked(log);
    }
}
