using System;
using System.IO;
using System.Net.Sockets;
using System.Threading.Tasks;

namespace NetCoreServer.Tests.Support;

/// <summary>The client the socket suite drives, whatever the transport: keeps every received byte and records hooks.</summary>
internal sealed class TestClient : IDisposable
{
    private readonly MemoryStream _data = new();
    private readonly TaskCompletionSource _disconnected = new(TaskCreationOptions.RunContinuationsAsynchronously);

    public TestClient(TestTransport transport, TestServer server)
        : this(transport, server, server.Endpoint)
    {
    }

    public TestClient(TestTransport transport, TestServer server, System.Net.EndPoint endpoint)
    {
        Client = transport.CreateClient(this, endpoint);
    }

    public StreamClient Client { get; }

    public HookLog Log { get; } = new();

    public Counter Received { get; } = new();

    public Counter Errors { get; } = new();

    public Task Closed => _disconnected.Task;

    /// <summary>Runs inside OnSent (tests of re-entrant sends).</summary>
    public Action<TestClient>? OnSentHook { get; set; }

    /// <summary>Runs inside OnDisconnecting (a goodbye sent while disconnecting).</summary>
    public Action<TestClient>? OnDisconnectingHook { get; set; }

    public bool IsConnected => Client.IsConnected;

    public bool IsSocketDisposed => Client.IsSocketDisposed;

    public DisconnectReason DisconnectReason => Client.DisconnectReason;

    public long BytesSent => Client.BytesSent;

    public Task<bool> ConnectAndWaitAsync() => Client.ConnectAndWaitAsync();

    public bool Connect() => Client.Connect();

    public bool Disconnect() => Client.Disconnect();

    public Task DisconnectAndWaitAsync() => Client.DisconnectAndWaitAsync();

    public void ReceiveAsync() => Client.ReceiveAsync();

    public bool SendAsync(byte[] data) => Client.SendAsync(data);

    public bool SendAsync(string text) => Client.SendAsync(text);

    public long Send(byte[] data) => Client.Send(data);

    public long Send(string text) => Client.Send(text);

    public Task<bool> SendAndWaitAsync(byte[] data) => Client.SendAndWaitAsync(data);

    public Task<bool> SendAndWaitAsync(string text) => Client.SendAndWaitAsync(text);

    public Task<bool> FlushAsync() => Client.FlushAsync();

    public void Dispose() => Client.Dispose();

    public byte[] Data()
    {
        lock (_data)
            return _data.ToArray();
    }

    public void Hook(string name) => Log.Add(name);

    public void Disconnecting()
    {
        Log.Add("OnDisconnecting");
        OnDisconnectingHook?.Invoke(this);
    }

    public void Sent()
    {
        Log.Add("OnSent");
        OnSentHook?.Invoke(this);
    }

    public void ReceivedData(byte[] buffer, long offset, long size)
    {
        Log.Add("OnReceived");
        lock (_data)
            _data.Write(buffer, (int)offset, (int)size);
        Received.Add(size);
    }

    public void Disconnected()
    {
        Log.Add("OnDisconnected");
        _disconnected.TrySetResult();
    }

    public void Error(SocketError error)
    {
        Log.Add("OnError " + error);
        Errors.Add(1);
    }
}
