using System;
using System.Net.Sockets;

namespace NetCoreServer.Examples;

/// <summary>
/// What the WebSocket chat clients (WS and WSS) do in their hooks, written once: keep reconnecting through an
/// <see cref="AutoReconnect"/>, print every message on a line of its own, and print a disconnect or an error once per
/// outage, not once per attempt. The clients forward their hooks here.
/// </summary>
/// <remarks>Thread-safe as <see cref="AutoReconnect"/> is: hooks run on thread-pool threads.</remarks>
public sealed class WsChatClientEvents
{
    private readonly string _protocol;

    /// <summary>Creates the events of one client.</summary>
    /// <param name="protocol">WS or WSS, as printed.</param>
    /// <param name="connect">The client's ConnectAsync.</param>
    public WsChatClientEvents(string protocol, Func<bool> connect)
    {
        _protocol = protocol;
        Reconnect = new AutoReconnect(connect);
    }

    /// <summary>The client's reconnect policy: stopped on purpose before quitting; its outage state gates printing.</summary>
    public AutoReconnect Reconnect { get; }

    /// <summary>Call from OnWsConnected: the connection is usable, the outage (if any) is over.</summary>
    /// <param name="id">The client's Id.</param>
    /// <param name="detail">Appended to the line, such as the server certificate; empty for none.</param>
    public void Upgraded(Guid id, string detail = "")
    {
        Reconnect.Recovered();
        Console.WriteLine($"Chat {_protocol} client connected a new session with Id {id}{detail}");
    }

    /// <summary>Call from OnWsReceived: prints the message on a line of its own.</summary>
    /// <param name="buffer">The message's buffer.</param>
    /// <param name="offset">Where the message starts.</param>
    /// <param name="size">Its length.</param>
    public static void Received(byte[] buffer, long offset, long size) => Console.WriteLine(WsChat.Decode(buffer, offset, size));

    /// <summary>Call from OnDisconnected (after the base class's): says so at the start of an outage, and schedules the next attempt.</summary>
    /// <param name="id">The client's Id.</param>
    /// <param name="reason">Why the connection ended.</param>
    public void Disconnected(Guid id, DisconnectReason reason)
    {
        if (Reconnect.IsStopped)
            Console.WriteLine($"Chat {_protocol} client disconnected a session with Id {id}");
        else if (Reconnect.Disconnected())
            Console.WriteLine($"Chat {_protocol} client disconnected a session with Id {id} ({reason}); reconnecting every {Reconnect.Delay.TotalSeconds:0} s");
    }

    /// <summary>Call from OnError: prints the error unless it belongs to an outage already reported.</summary>
    /// <param name="error">The socket error.</param>
    public void Error(SocketError error)
    {
        if (!Reconnect.IsRecovering)
            Console.WriteLine($"Chat {_protocol} client caught an error with code {error}");
    }
}
