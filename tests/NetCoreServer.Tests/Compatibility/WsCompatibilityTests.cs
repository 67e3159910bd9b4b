using System;
using System.Collections.Concurrent;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Threading.Tasks;
using NetCoreServer.Testing;
using NetCoreServer.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Tests.Compatibility;

/// <summary>
/// WebSocket classes subclassed the way NetCoreServer's chat examples do, run end to end: the session greets from
/// OnWsConnected and multicasts what it receives through <c>((WsServer)Server).MulticastText</c>; the client writes its
/// own upgrade request in OnWsConnecting with <c>Convert.ToBase64String(WsNonce)</c> as the key and ends with
/// <c>CloseAsync(1000)</c>.
/// </summary>
[TestFixture]
public sealed class WsCompatibilityTests
{
    private sealed class ChatSession(WsServer server) : WsSession(server)
    {
        public override void OnWsConnected(HttpRequest request) => SendTextAsync("Hello from WebSocket chat! Please send a message or '!' to disconnect the client!");

        public override void OnWsReceived(byte[] buffer, long offset, long size)
        {
            var message = Encoding.UTF8.GetString(buffer, (int)offset, (int)size);
            ((WsServer)Server).MulticastText(message);
            if (message == "!")
                Close();
        }

        protected override void OnError(SocketError error) => Console.WriteLine($"Chat WebSocket session caught an error with code {error}");
    }

    private sealed class ChatServer(IPAddress address, int port) : WsServer(address, port)
    {
        protected override TcpSession CreateSession() => new ChatSession(this);
    }

    private sealed class SecureChatSession(WssServer server) : WssSession(server)
    {
        public override void OnWsConnected(HttpRequest request) => SendTextAsync("Hello over TLS!");

        public override void OnWsReceived(byte[] buffer, long offset, long size)
            => ((WssServer)Server).MulticastText(Encoding.UTF8.GetString(buffer, (int)offset, (int)size));
    }

    private sealed class SecureChatServer(SslContext context, IPAddress address, int port) : WssServer(context, address, port)
    {
        protected override SslSession CreateSession() => new SecureChatSession(this);
    }

    /// <summary>NetCoreServer's chat client: its own upgrade request, messages into a queue.</summary>
    private sealed class ChatClient(IPAddress address, int port) : WsClient(address, port)
    {
        public BlockingCollection<string> Received { get; } = new();

        public TaskCompletionSource<bool> Closed { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public override void OnWsConnecting(HttpRequest request)
        {
            request.SetBegin("GET", "/");
            request.SetHeader("Host", "localhost");
            request.SetHeader("Origin", "http://localhost");
            request.SetHeader("Upgrade", "websocket");
            request.SetHeader("Connection", "Upgrade");
            request.SetHeader("Sec-WebSocket-Key", Convert.ToBase64String(WsNonce));
            request.SetHeader("Sec-WebSocket-Protocol", "chat, superchat");
            request.SetHeader("Sec-WebSocket-Version", "13");
            request.SetBody();
        }

        public override void OnWsReceived(byte[] buffer, long offset, long size) => Received.Add(Encoding.UTF8.GetString(buffer, (int)offset, (int)size));

        public override void OnWsDisconnected() => Closed.TrySetResult(true);
    }

    private sealed class SecureChatClient(SslContext context, IPAddress address, int port) : WssClient(context, address, port)
    {
        public BlockingCollection<string> Received { get; } = new();

        public override void OnWsReceived(byte[] buffer, long offset, long size) => Received.Add(Encoding.UTF8.GetString(buffer, (int)offset, (int)size));
    }

    private static Task<string> Take(BlockingCollection<string> queue) => Task.Run(() => queue.Take());

    [Test]
    public async Task AChatServerSubclassGreetsAndMulticastsToNetCoreServerStyleClients()
    {
        using var server = new ChatServer(IPAddress.Loopback, 0);
        Assert.That(server.Start(), Is.True);
        var port = ((IPEndPoint)server.Endpoint).Port;
        using var alice = new ChatClient(IPAddress.Loopback, port);
        using var bob = new ChatClient(IPAddress.Loopback, port);

        Assert.That(alice.ConnectAsync(), Is.True);
        Assert.That(await Wait.For(Take(alice.Received), "alice's greeting"), Does.StartWith("Hello from WebSocket chat!"));
        Assert.That(bob.ConnectAsync(), Is.True);
        Assert.That(await Wait.For(Take(bob.Received), "bob's greeting"), Does.StartWith("Hello from WebSocket chat!"));

        alice.SendTextAsync("hi all");
        Assert.That(await Wait.For(Take(alice.Received), "alice's own message back"), Is.EqualTo("hi all"));
        Assert.That(await Wait.For(Take(bob.Received), "alice's message at bob"), Is.EqualTo("hi all"));

        Assert.That(alice.CloseAsync(1000), Is.True);
        await Wait.For(alice.Closed.Task, "alice's OnWsDisconnected");
        bob.SendTextAsync("still here");
        Assert.That(await Wait.For(Take(bob.Received), "bob's message"), Is.EqualTo("still here"));
    }

    [Test]
    public async Task ASecureChatServerSubclassWorksWithAWssClient()
    {
        using var server = new SecureChatServer(SslTestTransport.DefaultServerContext(), IPAddress.Loopback, 0);
        Assert.That(server.Start(), Is.True);
        using var client = new SecureChatClient(SslTestTransport.DefaultClientContext(), IPAddress.Loopback, ((IPEndPoint)server.Endpoint).Port);

        Assert.That(client.ConnectAsync(), Is.True);
        Assert.That(await Wait.For(Take(client.Received), "the greeting"), Is.EqualTo("Hello over TLS!"));
        client.SendTextAsync("secure hello");
        Assert.That(await Wait.For(Take(client.Received), "the multicast"), Is.EqualTo("secure hello"));
        Assert.That(client.Close(1000), Is.True, "the synchronous close returns once the connection has closed");
        Assert.That(client.IsConnected, Is.False);
    }
}
