using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Net;
using System.Net.Sockets;
using NetCoreServer.Engine;

namespace NetCoreServer.Udp.Tests.Support;

/// <summary>
/// A UDP server that records what its hooks see. By default it echoes with NetCoreServer's one-shot pattern
/// (ReceiveAsync in OnStarted and OnSent); with continuous receive it echoes from OnReceived alone.
/// </summary>
internal sealed class TestUdpServer : UdpServer
{
    private readonly List<string> _hooks = new();

    public TestUdpServer(IPAddress address, bool continuous = false, bool echo = true)
        : base(address, 0)
    {
        OptionContinuousReceive = continuous;
        Echo = echo;
        OptionReceiveThread = ReceiveMode.Threaded;
    }

    /// <summary>Echo every datagram back to its sender.</summary>
    public bool Echo { get; set; }

    /// <summary>In one-shot mode, call ReceiveAsync from OnStarted and after each datagram (echoed: from OnSent).</summary>
    public bool Rearm { get; set; } = true;

    /// <summary>Keep a copy of every datagram received.</summary>
    public bool Record { get; set; } = true;

    /// <summary>Runs inside OnReceived, after recording.</summary>
    public Action<EndPoint, byte[], long, long>? ReceivedHandler { get; set; }

    public Counter Received { get; } = new();

    public Counter Sent { get; } = new();

    public Counter HandlerExceptions { get; } = new();

    public ConcurrentQueue<byte[]> Datagrams { get; } = new();

    public ConcurrentQueue<SocketError> Errors { get; } = new();

    public EndPoint? LastSender { get; private set; }

    public int BoundPort => ((IPEndPoint)Endpoint).Port;

    /// <summary>The engine of the current run, for tests that watch its loops.</summary>
    public DatagramEngine? CurrentEngine => Engine;

    public string[] Hooks()
    {
        lock (_hooks)
            return _hooks.ToArray();
    }

    protected override void OnStarting() => Log("OnStarting");

    protected override void OnStarted()
    {
        Log("OnStarted");
        if (!OptionContinuousReceive && Rearm)
            ReceiveAsync();
    }

    protected override void OnStopping() => Log("OnStopping");

    protected override void OnStopped() => Log("OnStopped");

    protected override void OnReceived(EndPoint endpoint, byte[] buffer, long offset, long size)
    {
        LastSender = endpoint;
        if (Record)
            Datagrams.Enqueue(buffer.AsSpan((int)offset, (int)size).ToArray());
        Received.Add();
        ReceivedHandler?.Invoke(endpoint, buffer, offset, size);
        if (Echo)
            SendAsync(endpoint, buffer, offset, size);
        else if (!OptionContinuousReceive && Rearm)
            ReceiveAsync();
    }

    protected override void OnSent(EndPoint endpoint, long sent)
    {
        Sent.Add();
        if (Echo && !OptionContinuousReceive && Rearm)
            ReceiveAsync();
    }

    protected override void OnError(SocketError error) => Errors.Enqueue(error);

    protected override void OnHandlerException(Exception exception) => HandlerExceptions.Add();

    private void Log(string hook)
    {
        lock (_hooks)
            _hooks.Add(hook);
    }
}
