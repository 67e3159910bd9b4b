using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Text;
using System.Threading;
using System.Threading.Channels;
using System.Threading.Tasks;

namespace NetCoreServer.Tests.WebSockets.Live;

/// <summary>What the test servers' sessions saw and how they answer: one probe per server, shared by its sessions.</summary>
internal sealed class WsProbe
{
    private readonly object _lock = new();
    private readonly List<string> _log = new();

    /// <summary>How sessions answer a message: echo it as text, as binary, or not at all.</summary>
    public WsEcho Echo { get; set; } = WsEcho.Text;

    /// <summary>Decides OnWsConnecting (default: accept).</summary>
    public Func<HttpRequest, HttpResponse, bool> Connecting { get; set; } = (_, _) => true;

    /// <summary>Runs in OnWsConnected (e.g. send a greeting).</summary>
    public Action<IWsPeer>? OnUpgraded { get; set; }

    public Channel<byte[]> Messages { get; } = Channel.CreateUnbounded<byte[]>();

    public TaskCompletionSource<IWsPeer> Upgraded { get; } = New<IWsPeer>();

    public TaskCompletionSource<(int Status, string Reason)> CloseReceived { get; } = New<(int, string)>();

    public TaskCompletionSource<string> Error { get; } = New<string>();

    /// <summary>Every OnError of the sessions (the socket-level hook; OnWsError is <see cref="Error"/>).</summary>
    public ConcurrentQueue<System.Net.Sockets.SocketError> SocketErrors { get; } = new();

    public TaskCompletionSource<bool> Disconnected { get; } = New<bool>();

    public TaskCompletionSource<byte[]> Pong { get; } = New<byte[]>();

    public int Sessions;

    /// <summary>Completes when <see cref="ExpectedSessions"/> sessions have upgraded.</summary>
    public TaskCompletionSource<bool> AllUpgraded { get; } = New<bool>();

    public int ExpectedSessions { get; set; } = 1;

    public static TaskCompletionSource<T> New<T>() => new(TaskCreationOptions.RunContinuationsAsynchronously);

    /// <summary>The hooks raised, in order, over all sessions (the tests use one session when they read it).</summary>
    public string[] Log
    {
        get
        {
            lock (_lock)
                return _log.ToArray();
        }
    }

    /// <summary>Records a hook; true, so a hook's body can be <c>probe.Hook(...) &amp;&amp; ...</c>.</summary>
    public bool Hook(string name)
    {
        lock (_lock)
            _log.Add(name);
        return true;
    }

    public void Received(IWsPeer peer, byte[] buffer, long offset, long size)
    {
        Hook("OnWsReceived");
        var copy = buffer.AsSpan((int)offset, (int)size).ToArray();
        Messages.Writer.TryWrite(copy);
        if (Echo == WsEcho.Text)
            peer.SendTextAsync(copy);
        else if (Echo == WsEcho.TextBlocking)
            peer.SendText(copy);
        else if (Echo == WsEcho.Binary)
            peer.SendBinaryAsync(copy);
    }

    public void Closed(byte[] buffer, long offset, long size, int status)
    {
        Hook("OnWsClose");
        CloseReceived.TrySetResult((status, Encoding.UTF8.GetString(buffer, (int)offset, (int)size)));
    }

    public void Failed(string error)
    {
        Hook("OnWsError");
        Error.TrySetResult(error);
    }

    public void Connected(IWsPeer peer)
    {
        Hook("OnWsConnected");
        OnUpgraded?.Invoke(peer);
        if (Interlocked.Increment(ref Sessions) == ExpectedSessions)
            AllUpgraded.TrySetResult(true);
        Upgraded.TrySetResult(peer);
    }
}

internal enum WsEcho
{
    Text,
    TextBlocking,
    Binary,
    None,
}

/// <summary>What a test needs of a session or client to send (implemented by the test subclasses over WS and WSS).</summary>
internal interface IWsPeer
{
    bool SendTextAsync(ReadOnlySpan<byte> buffer);

    bool SendBinaryAsync(ReadOnlySpan<byte> buffer);

    long SendText(ReadOnlySpan<byte> buffer);

    bool SendPingAsync(ReadOnlySpan<byte> buffer);

    bool CloseAsync(int status, string text);

    bool IsWsOpen { get; }

    string? WsSubprotocol { get; }
}
