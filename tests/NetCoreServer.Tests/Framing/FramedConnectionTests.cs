using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Tests.Framing;

/// <summary>Framing over real connections: TCP (both engines), TLS and Unix sockets, servers and clients.</summary>
[TestFixture("tcp")]
[TestFixture("tcp-loops")]
[TestFixture("ssl")]
[TestFixture("uds")]
public sealed class FramedConnectionTests(string transport)
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(10);

    [Test]
    public void LinesSplitAndJoinedAnyWayArriveWholeAndEchoBackFramed()
    {
        var server = new Node();
        using var host = StartServer(server, MessageFraming.Lines(64));
        server.OnMessage = (session, line) => session.SendMessageAsync(line);
        var client = new Node();
        using var peer = Connect(host, client, MessageFraming.Lines(64));

        // Raw bytes cut across line ends, one write at a time, waiting for each to leave.
        foreach (var piece in new[] { "hel", "lo\nwor", "ld\r\n\nlast", "\n" })
        {
            Assert.That(peer.SendAsync(Encoding.UTF8.GetBytes(piece)), Is.True);
            Thread.Sleep(20);
        }
        Assert.That(WaitFor(() => client.Messages.Count == 4), Is.True, string.Join("|", client.Messages));
        Assert.That(server.Messages, Is.EqualTo(new[] { "hello", "world", "", "last" }));
        Assert.That(client.Messages, Is.EqualTo(new[] { "hello", "world", "", "last" }), "SendMessageAsync adds the line end");
    }

    [Test]
    public void MulticastMessageReachesEveryClientAsWholeMessages()
    {
        var server = new Node();
        using var host = StartServer(server, MessageFraming.LengthPrefixed(2, bigEndian: false, maxMessageSize: 4000));
        var clients = Enumerable.Range(0, 3).Select(_ => new Node()).ToList();
        var peers = clients.Select(c => Connect(host, c, MessageFraming.LengthPrefixed(2, bigEndian: false, maxMessageSize: 4000))).ToList();
        try
        {
            Assert.That(WaitFor(() => server.Connected == 3), Is.True);
            var big = new string('m', 3000);
            Assert.That(host.MulticastMessage("first"), Is.True);
            Assert.That(host.MulticastMessage(big), Is.True);
            Assert.That(host.MulticastMessage(""), Is.True);
            foreach (var client in clients)
            {
                Assert.That(WaitFor(() => client.Messages.Count == 3), Is.True);
                Assert.That(client.Messages, Is.EqualTo(new[] { "first", big, "" }));
            }
        }
        finally
        {
            foreach (var peer in peers)
                peer.Dispose();
        }
    }

    [Test]
    public void ALineOverTheLimitClosesItsSenderAsAProtocolErrorAfterTheLinesBeforeIt()
    {
        var server = new Node();
        using var host = StartServer(server, MessageFraming.Lines(16));
        var client = new Node();
        using var peer = Connect(host, client, framing: null);
        Assert.That(peer.SendAsync(Encoding.ASCII.GetBytes("fine\n" + new string('x', 40))), Is.True);
        Assert.That(WaitFor(() => server.Disconnected == 1), Is.True, "the session closes");
        Assert.That(server.Messages, Is.EqualTo(new[] { "fine" }));
        Assert.That(server.Errors, Does.Contain(SocketError.MessageSize));
        Assert.That(server.Reasons, Is.EqualTo(new[] { DisconnectReason.ProtocolError }));
        Assert.That(WaitFor(() => !peer.IsConnected), Is.True, "the client sees the connection end");
    }

    [Test]
    public void RepliesOfAHookAndSendsOfAnotherThreadToTheSameSessionArriveWholeAndEachInOrder()
    {
        // The hook's replies are staged in its thread's cork; the other thread's sends move that stage into the
        // queue while the hook thread is staging: no frame may be torn, lost or reordered within its sender.
        const int count = 20_000;
        var server = new Node();
        using var host = StartServer(server, MessageFraming.LengthPrefixed(2));
        Thread? other = null;
        server.OnMessage = (session, text) =>
        {
            if (text == "e0")
            {
                other = new Thread(() =>
                {
                    for (var i = 0; i < count; i++)
                        Assert.That(session.SendMessageAsync("o" + i), Is.True);
                });
                other.Start();
            }
            Assert.That(session.SendMessageAsync(text), Is.True);
        };
        var client = new Node();
        using var peer = Connect(host, client, MessageFraming.LengthPrefixed(2));

        // Many messages per write, so that one read hands the hook hundreds of them.
        for (var start = 0; start < count; start += 500)
        {
            var batch = new List<byte>();
            for (var i = start; i < start + 500; i++)
            {
                var payload = Encoding.ASCII.GetBytes("e" + i);
                batch.Add((byte)(payload.Length >> 8));
                batch.Add((byte)payload.Length);
                batch.AddRange(payload);
            }
            Assert.That(peer.SendAsync(batch.ToArray()), Is.True);
        }

        Assert.That(WaitFor(() => client.MessagesQueue.Count >= 2 * count), Is.True, $"{client.MessagesQueue.Count} of {2 * count} messages");
        Assert.That(other!.Join(Patience), Is.True);
        var received = client.Messages;
        Assert.That(received.Where(m => m[0] == 'e'), Is.EqualTo(Enumerable.Range(0, count).Select(i => "e" + i)), "the hook's replies");
        Assert.That(received.Where(m => m[0] == 'o'), Is.EqualTo(Enumerable.Range(0, count).Select(i => "o" + i)), "the other thread's sends");
        Assert.That(received, Has.Count.EqualTo(2 * count));
        Assert.That(server.Errors, Is.Empty);
    }

    [Test]
    public void BlockingSendMessageFramesAsSendMessageAsyncDoes()
    {
        var server = new Node();
        using var host = StartServer(server, MessageFraming.Delimited([0]));
        using var peer = Connect(host, new Node(), MessageFraming.Delimited([0]));
        Assert.That(peer.SendMessage("one"), Is.EqualTo(4), "three bytes and the delimiter");
        Assert.That(peer.SendMessage(Encoding.UTF8.GetBytes("two")), Is.EqualTo(4));
        Assert.That(WaitFor(() => server.Messages.Count == 2), Is.True);
        Assert.That(server.Messages, Is.EqualTo(new[] { "one", "two" }));
        Assert.That(() => peer.SendMessage("a\0b"), Throws.ArgumentException, "a message may not hold its delimiter");
    }

    [Test]
    public void RawHooksStayWhenNoFramingIsSet()
    {
        var server = new Node();
        using var host = StartServer(server, framing: null);
        using var peer = Connect(host, new Node(), framing: null);
        Assert.That(peer.SendAsync("no\nframes\n"), Is.True);
        Assert.That(WaitFor(() => host.Server.BytesReceived == 10), Is.True);
        Assert.That(server.Messages, Is.Empty);
        Assert.That(() => peer.SendMessage("x"), Throws.InvalidOperationException, "SendMessage needs a framing");
    }

    [Test]
    public async Task ReceiveMessagesAsyncGivesASlowReaderEveryMessageInOrderAndEndsWithTheConnection()
    {
        var server = new Node();
        using var host = StartServer(server, MessageFraming.Lines(64));
        server.OnMessage = (session, text) =>
        {
            if (text != "go")
                return;
            for (var i = 0; i < 1000; i++)
                session.SendMessageAsync($"message {i}");
            ((StreamSession)session).Disconnect();
        };
        var client = new Node();
        using var peer = Connect(host, client, MessageFraming.Lines(64));
        using var cancel = new CancellationTokenSource(Patience);

        // The enumeration starts with its first MoveNextAsync; only then is the server asked to send.
        var messages = ((StreamClient)peer).ReceiveMessagesAsync(capacity: 4, cancel.Token).GetAsyncEnumerator(cancel.Token);
        var next = messages.MoveNextAsync();
        Assert.That(peer.SendMessageAsync("go"), Is.True);
        var received = new List<string>();
        while (await next)
        {
            received.Add(Encoding.UTF8.GetString(messages.Current));
            // A slow reader: the client holds its socket while four messages wait.
            if (received.Count % 100 == 0)
                await Task.Delay(20);
            next = messages.MoveNextAsync();
        }
        await messages.DisposeAsync();

        Assert.That(received, Is.EqualTo(Enumerable.Range(0, 1000).Select(i => $"message {i}")), "every message, in order, then the end");
        Assert.That(client.Messages, Has.Count.EqualTo(1000), "OnReceivedMessage still ran for each");
    }

    [Test]
    public async Task CancellingReceiveMessagesAsyncEndsItAndAnotherMayStart()
    {
        var server = new Node();
        using var host = StartServer(server, MessageFraming.Lines(64));
        server.OnMessage = (session, text) => session.SendMessageAsync("re: " + text);
        using var peer = Connect(host, new Node(), MessageFraming.Lines(64));
        var client = (StreamClient)peer;

        using (var cancel = new CancellationTokenSource())
        {
            var first = client.ReceiveMessagesAsync(cancellationToken: cancel.Token).GetAsyncEnumerator(cancel.Token);
            var waiting = first.MoveNextAsync();
            Assert.That(() => client.ReceiveMessagesAsync().GetAsyncEnumerator().MoveNextAsync().AsTask().GetAwaiter().GetResult(),
                Throws.InvalidOperationException, "one enumeration at a time");
            cancel.Cancel();
            Assert.That(async () => await waiting, Throws.InstanceOf<OperationCanceledException>());
            await first.DisposeAsync();
        }

        using var patience = new CancellationTokenSource(Patience);
        var second = client.ReceiveMessagesAsync(cancellationToken: patience.Token).GetAsyncEnumerator(patience.Token);
        var next = second.MoveNextAsync();
        Assert.That(peer.SendMessageAsync("again"), Is.True);
        Assert.That(await next, Is.True);
        Assert.That(Encoding.UTF8.GetString(second.Current), Is.EqualTo("re: again"));
        await second.DisposeAsync();
    }

    private static bool WaitFor(Func<bool> condition)
    {
        var clock = Stopwatch.StartNew();
        while (!condition())
        {
            if (clock.Elapsed > Patience)
                return false;
            Thread.Sleep(5);
        }
        return true;
    }

    private StreamServerHandle StartServer(Node node, MessageFraming? framing)
    {
        IFramedServer server = transport switch
        {
            "tcp" => new FramedTcpServer(node, 0),
            "tcp-loops" => new FramedTcpServer(node, 2),
            "ssl" => new FramedSslServer(node),
            _ => new FramedUdsServer(node, UdsTestTransport.NewPath()),
        };
        server.Framing = framing;
        Assert.That(server.Start(), Is.True);
        return new StreamServerHandle(server);
    }

    private StreamConnection Connect(StreamServerHandle host, Node node, MessageFraming? framing)
    {
        StreamConnection client = transport switch
        {
            "tcp" or "tcp-loops" => new FramedTcpClient(node, (IPEndPoint)host.Server.Endpoint),
            "ssl" => new FramedSslClient(node, (IPEndPoint)host.Server.Endpoint),
            _ => new FramedUdsClient(node, host.Server.Endpoint),
        };
        client.Framing = framing;
        Assert.That(((IConnectable)client).Connect(), Is.True);
        if (transport == "ssl")
            Assert.That(WaitFor(() => node.Handshaked), Is.True);
        return client;
    }

    /// <summary>What one side saw; sessions of a server share one.</summary>
    private sealed class Node
    {
        private int _connected;
        private int _disconnected;
        private long _raw;

        public ConcurrentQueue<string> MessagesQueue { get; } = new();

        public List<string> Messages => [.. MessagesQueue];

        public ConcurrentQueue<SocketError> ErrorsQueue { get; } = new();

        public List<SocketError> Errors => [.. ErrorsQueue];

        public ConcurrentQueue<DisconnectReason> ReasonsQueue { get; } = new();

        public List<DisconnectReason> Reasons => [.. ReasonsQueue];

        public Action<StreamConnection, string>? OnMessage { get; set; }

        public int Connected => Volatile.Read(ref _connected);

        public int Disconnected => Volatile.Read(ref _disconnected);

        public long RawBytes => Interlocked.Read(ref _raw);

        public volatile bool Handshaked;

        public void Message(StreamConnection connection, ReadOnlySpan<byte> message)
        {
            var text = Encoding.UTF8.GetString(message);
            MessagesQueue.Enqueue(text);
            OnMessage?.Invoke(connection, text);
        }

        public void Raw(long size) => Interlocked.Add(ref _raw, size);

        public void Connect() => Interlocked.Increment(ref _connected);

        public void Disconnect(DisconnectReason reason)
        {
            ReasonsQueue.Enqueue(reason);
            Interlocked.Increment(ref _disconnected);
        }
    }

    private interface IFramedServer : IDisposable
    {
        MessageFraming? Framing { get; set; }

        EndPoint Endpoint { get; }

        bool Start();

        bool MulticastMessage(string text);

        long BytesReceived { get; }
    }

    private interface IConnectable
    {
        bool Connect();
    }

    private sealed class StreamServerHandle(IFramedServer server) : IDisposable
    {
        public IFramedServer Server => server;

        public bool MulticastMessage(string text) => server.MulticastMessage(text);

        public void Dispose() => server.Dispose();
    }

    private sealed class FramedTcpServer : TcpServer, IFramedServer
    {
        private readonly Node _node;

        public FramedTcpServer(Node node, int loops) : base(IPAddress.Loopback, 0)
        {
            _node = node;
            OptionEventLoops = loops;
        }

        protected override TcpSession CreateSession() => new Session(this, _node);

        // Overrides OnReceived (calling the base): framing then runs behind the user's hook, as NetCoreServer code does.

        private sealed class Session(TcpServer server, Node node) : TcpSession(server)
        {
            protected override void OnConnected() => node.Connect();

            protected override void OnReceived(byte[] buffer, long offset, long size)
            {
                node.Raw(size);
                base.OnReceived(buffer, offset, size);
            }

            protected override void OnReceivedMessage(ReadOnlySpan<byte> message) => node.Message(this, message);

            protected override void OnError(SocketError error) => node.ErrorsQueue.Enqueue(error);

            protected override void OnDisconnected() => node.Disconnect(DisconnectReason);
        }
    }

    private sealed class FramedSslServer(Node node) : SslServer(SslTestTransport.DefaultServerContext(), IPAddress.Loopback, 0), IFramedServer
    {
        protected override SslSession CreateSession() => new Session(this, node);

        private sealed class Session(SslServer server, Node node) : SslSession(server)
        {
            protected override void OnHandshaked() => node.Connect();

            protected override void OnReceivedMessage(ReadOnlySpan<byte> message) => node.Message(this, message);

            protected override void OnError(SocketError error) => node.ErrorsQueue.Enqueue(error);

            protected override void OnDisconnected() => node.Disconnect(DisconnectReason);
        }
    }

    private sealed class FramedUdsServer(Node node, string path) : UdsServer(path), IFramedServer
    {
        protected override UdsSession CreateSession() => new Session(this, node);

        private sealed class Session(UdsServer server, Node node) : UdsSession(server)
        {
            protected override void OnConnected() => node.Connect();

            protected override void OnReceivedMessage(ReadOnlySpan<byte> message) => node.Message(this, message);

            protected override void OnError(SocketError error) => node.ErrorsQueue.Enqueue(error);

            protected override void OnDisconnected() => node.Disconnect(DisconnectReason);
        }
    }

    private sealed class FramedTcpClient(Node node, IPEndPoint endpoint) : TcpClient(endpoint), IConnectable
    {
        bool IConnectable.Connect() => ConnectAsync() && WaitFor(() => IsConnected);

        protected override void OnReceivedMessage(ReadOnlySpan<byte> message) => node.Message(this, message);
    }

    private sealed class FramedSslClient(Node node, IPEndPoint endpoint) : SslClient(SslTestTransport.DefaultClientContext(), endpoint), IConnectable
    {
        bool IConnectable.Connect() => ConnectAsync() && WaitFor(() => IsConnected);

        protected override void OnHandshaked() => node.Handshaked = true;

        protected override void OnReceivedMessage(ReadOnlySpan<byte> message) => node.Message(this, message);
    }

    private sealed class FramedUdsClient(Node node, EndPoint endpoint) : UdsClient((UnixDomainSocketEndPoint)endpoint), IConnectable
    {
        bool IConnectable.Connect() => ConnectAsync() && WaitFor(() => IsConnected);

        protected override void OnReceivedMessage(ReadOnlySpan<byte> message) => node.Message(this, message);
    }
}
