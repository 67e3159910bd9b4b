using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Threading.Tasks;
using NetCoreServer.Engine;

namespace NetCoreServer.Udp.Tests.Support;

/// <summary>
/// A UDP client that records what its hooks see. In one-shot mode it calls ReceiveAsync in OnConnected and after
/// every datagram, as NetCoreServer's examples do.
/// </summary>
internal sealed class TestUdpClient : UdpClient
{
    private readonly List<string> _hooks = new();
    private readonly Dictionary<string, TaskCompletionSource> _textWaiters = new();
    private readonly HashSet<string> _texts = new();

    public TestUdpClient(IPEndPoint server, bool continuous = false)
        : base(server)
    {
        OptionContinuousReceive = continuous;
        OptionReceiveThread = ReceiveMode.Threaded;
    }

    /// <summary>In one-shot mode, call ReceiveAsync from OnConnected and after each datagram.</summary>
    public bool Rearm { get; set; } = true;

    /// <summary>Runs inside OnSent.</summary>
    public Action<TestUdpClient, EndPoint, long>? SentHandler { get; set; }

    public Counter Received { get; } = new();

    public Counter Sent { get; } = new();

    public ConcurrentQueue<byte[]> Datagrams { get; } = new();

    public ConcurrentQueue<SocketError> Errors { get; } = new();

    /// <summary>The engine of the current run, for tests that watch its loops.</summary>
    public DatagramEngine? CurrentEngine => Engine;

    /// <summary>Completes when a datagram with exactly this UTF-8 text has been received.</summary>
    public Task WhenReceived(string text)
    {
        lock (_textWaiters)
        {
            if (_texts.Contains(text))
                return Task.CompletedTask;
            if (!_textWaiters.TryGetValue(text, out var waiter))
                _textWaiters[text] = waiter = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            return waiter.Task;
        }
    }

    public string[] Hooks()
    {
        lock (_hooks)
            return _hooks.ToArray();
    }

    protected override void OnConnecting() => Log("OnConnecting");

    protected override void OnConnected()
    {
        Log("OnConnected");
        if (!OptionContinuousReceive && Rearm)
            ReceiveAsync();
    }

    protected override void OnDisconnecting() => Log("OnDisconnecting");

    protected override void OnDisconnected() => Log("OnDisconnected");

    protected override void OnReceived(EndPoint endpoint, byte[] buffer, long offset, long size)
    {
        var datagram = buffer.AsSpan((int)offset, (int)size).ToArray();
        Datagrams.Enqueue(datagram);
        TaskCompletionSource? waiter;
        lock (_textWaiters)
        {
            var text = Encoding.UTF8.GetString(datagram);
            _texts.Add(text);
            _textWaiters.Remove(text, out waiter);
        }
        waiter?.TrySetResult();
        Received.Add();
        if (!OptionContinuousReceive && Rearm)
            ReceiveAsync();
    }

    protected override void OnSent(EndPoint endpoint, long sent)
    {
        Sent.Add();
        SentHandler?.Invoke(this, endpoint, sent);
    }

    protected override void OnError(SocketError error) => Errors.Enqueue(error);

    private void Log(string hook)
    {
        lock (_hooks)
            _hooks.Add(hook);
    }
}
