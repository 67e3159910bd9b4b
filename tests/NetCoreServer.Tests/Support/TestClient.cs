using System;
using System.IO;
using System.Net;
using System.Net.Sockets;
using System.Threading.Tasks;

namespace NetCoreServer.Tests.Support;

/// <summary>Client used by the socket tests: keeps every received byte and records hooks.</summary>
internal sealed class TestClient : TcpClient
{
    private readonly MemoryStream _data = new();
    private readonly TaskCompletionSource _disconnected = new(TaskCreationOptions.RunContinuationsAsynchronously);

    public TestClient(IPAddress address, int port)
        : base(address, port)
    {
    }

    public TestClient(string address, int port)
        : base(address, port)
    {
    }

    public TestClient(DnsEndPoint endpoint)
        : base(endpoint)
    {
    }

    public HookLog Log { get; } = new();

    public Counter Received { get; } = new();

    public Counter Errors { get; } = new();

    public Task Closed => _disconnected.Task;

    public byte[] Data()
    {
        lock (_data)
            return _data.ToArray();
    }

    protected override void OnConnecting() => Log.Add("OnConnecting");

    protected override void OnConnected() => Log.Add("OnConnected");

    protected override void OnEmpty() => Log.Add("OnEmpty");

    protected override void OnSent(long sent, long pending) => Log.Add("OnSent");

    protected override void OnReceived(byte[] buffer, long offset, long size)
    {
        Log.Add("OnReceived");
        lock (_data)
            _data.Write(buffer, (int)offset, (int)size);
        Received.Add(size);
    }

    protected override void OnDisconnecting() => Log.Add("OnDisconnecting");

    protected override void OnDisconnected()
    {
        Log.Add("OnDisconnected");
        _disconnected.TrySetResult();
    }

    protected override void OnError(SocketError error)
    {
        Log.Add("OnError " + error);
        Errors.Add(1);
    }
}
