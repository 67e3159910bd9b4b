using System;
using System.Collections.Generic;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Udp.Probe;

/// <summary>A multicast member that records the texts it receives and lets the probe await a given one.</summary>
internal sealed class Receiver : UdpClient
{
    private readonly object _lock = new();
    private readonly List<string> _texts = new();
    private readonly Dictionary<string, TaskCompletionSource> _waiters = new();

    public Receiver(string name, IPAddress anyAddress, int port)
        : base(anyAddress, port)
    {
        Name = name;
        SetupMulticast(true);
        OptionContinuousReceive = true;
    }

    public string Name { get; }

    public int Joined;

    public int Left;

    public SocketError? LastError { get; private set; }

    public bool Saw(Func<string, bool> match)
    {
        lock (_lock)
            return _texts.Exists(t => match(t));
    }

    public Task WhenReceived(string text)
    {
        lock (_lock)
        {
            if (_texts.Contains(text))
                return Task.CompletedTask;
            if (!_waiters.TryGetValue(text, out var waiter))
                _waiters[text] = waiter = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            return waiter.Task;
        }
    }

    protected override void OnReceived(EndPoint endpoint, byte[] buffer, long offset, long size)
    {
        var text = Encoding.UTF8.GetString(buffer, (int)offset, (int)size);
        TaskCompletionSource? waiter;
        lock (_lock)
        {
            _texts.Add(text);
            _waiters.Remove(text, out waiter);
        }
        waiter?.TrySetResult();
    }

    protected override void OnJoinedMulticastGroup(IPAddress address) => Interlocked.Increment(ref Joined);

    protected override void OnLeftMulticastGroup(IPAddress address) => Interlocked.Increment(ref Left);

    protected override void OnError(SocketError error) => LastError = error;
}
