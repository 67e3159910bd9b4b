using System;
using System.Net.Sockets;
using NetCoreServer.Engine;
using NetCoreServer.Tests.Support;

namespace NetCoreServer.Tests.Engine;

/// <summary>Engine host that records what the engine tells it.</summary>
internal sealed class RecordingHost : IStreamSessionHost
{
    public HookLog Log { get; } = new();

    public Counter Received { get; } = new();

    public int MaxStackDepth { get; private set; }

    public Action<byte[], int, int>? OnData { get; set; }

    /// <summary>The options the engine reads.</summary>
    public EngineOptions EngineOptions { get; set; } = new();

    public void EngineConnecting() => Log.Add("connecting");

    public void EngineConnected() => Log.Add("connected");

    public void EngineHandshaking() => Log.Add("handshaking");

    public void EngineHandshaked() => Log.Add("handshaked");

    /// <summary>Set when the engine released its host, the last thing it does.</summary>
    public bool Released { get; private set; }

    public void EngineReleased() => Released = true;

    /// <summary>A protocol in the host's place: returns how much of what it was handed it consumed (default: all of it).</summary>
    public Func<ReadOnlyMemory<byte>, int>? Protocol { get; set; }

    public int EngineReceived(byte[] buffer, int offset, int size)
    {
        MaxStackDepth = Math.Max(MaxStackDepth, new System.Diagnostics.StackTrace().FrameCount);
        if (Protocol != null)
            return Protocol(buffer.AsMemory(offset, size));
        OnData?.Invoke(buffer, offset, size);
        Received.Add(size);
        return size;
    }

    public void EngineSent(long sent, long pending) => Log.Add("sent");

    /// <summary>Runs inside the empty hook, after it is logged.</summary>
    public Action? OnEmpty { get; set; }

    public void EngineEmpty()
    {
        Log.Add("empty");
        OnEmpty?.Invoke();
    }

    public void EngineWritabilityChanged(bool writable) => Log.Add("writable " + writable);

    public void EngineError(SocketError error) => Log.Add("error " + error);

    public void EngineHandlerException(Exception exception) => Log.Add("exception " + exception.Message);

    /// <summary>Runs inside the disconnecting hook, after it is logged.</summary>
    public Action? OnDisconnecting { get; set; }

    public void EngineDisconnecting()
    {
        Log.Add("disconnecting");
        OnDisconnecting?.Invoke();
    }

    public void EngineDisconnected() => Log.Add("disconnected");

    public void EngineCounted(long received, long sent)
    {
    }
}
