using System;
using System.IO;
using System.Linq;
using System.Net;
using System.Net.Security;
using System.Net.Sockets;
using System.Net.WebSockets;
using System.Security.Authentication;
using System.Security.Cryptography.X509Certificates;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Certificates;

namespace NetCoreServer.Redis.Tests;

/// <summary>The backplane on every kind of stream server: TLS, Unix socket and TCP nodes in one cluster; WSS with WS.</summary>
[TestFixture]
public sealed class ServerKindTests
{
    private static readonly X509Certificate2 s_authority = DevelopmentCertificates.CreateAuthority();
    private static readonly X509Certificate2 s_certificate = DevelopmentCertificates.CreateServer(s_authority);
    private RedisServerProcess _redis = null!;

    [OneTimeSetUp]
    public async Task StartRedis() => _redis = await RedisServerProcess.StartNewAsync();

    [OneTimeTearDown]
    public void StopRedis() => _redis?.Dispose();

    private static SslContext ServerContext() => new(SslProtocols.Tls12 | SslProtocols.Tls13, s_certificate);

    [Test]
    public async Task TlsUnixSocketAndTcpNodesReachEachOthersClients()
    {
        var options = new RedisBackplaneOptions { Channel = "test:" + Guid.NewGuid().ToString("N") };
        var path = Path.Combine(Path.GetTempPath(), $"backplane-{Guid.NewGuid():N}.sock");
        using var ssl = new SslServer(ServerContext(), IPAddress.Loopback, 0);
        using var uds = new UdsServer(path);
        using var tcp = new TcpServer(IPAddress.Loopback, 0);
        StreamServer[] servers = [ssl, uds, tcp];
        Assert.That(ssl.Start() && uds.Start() && tcp.Start(), Is.True);
        var backplanes = new RedisBackplane[3];
        try
        {
            for (var i = 0; i < 3; i++)
                backplanes[i] = await RedisBackplane.AttachAsync(servers[i], _redis.Configuration, options);

            using var sslSocket = await ConnectAsync(new IPEndPoint(IPAddress.Loopback, ((IPEndPoint)ssl.Endpoint).Port));
            using var sslStream = new SslStream(new NetworkStream(sslSocket), false, (_, _, _, _) => true);
            await sslStream.AuthenticateAsClientAsync("localhost");
            using var udsSocket = await ConnectAsync(new UnixDomainSocketEndPoint(path));
            using var tcpSocket = await ConnectAsync(new IPEndPoint(IPAddress.Loopback, ((IPEndPoint)tcp.Endpoint).Port));
            await Wait.Until(() => ssl.ConnectedSessions == 1 && uds.ConnectedSessions == 1 && tcp.ConnectedSessions == 1, "one session on each node");
            var readers = new[] { new StreamReader(sslStream), new StreamReader(new NetworkStream(udsSocket)), new StreamReader(new NetworkStream(tcpSocket)) };

            Assert.That(ssl.Multicast("from ssl\n") && uds.Multicast("from uds\n") && tcp.Multicast("from tcp\n"), Is.True);
            var expected = new[] { "from ssl", "from tcp", "from uds" };
            foreach (var reader in readers)
            {
                var lines = new[] { await ReadLineAsync(reader), await ReadLineAsync(reader), await ReadLineAsync(reader) };
                Assert.That(lines.Order(), Is.EqualTo(expected));
            }
        }
        finally
        {
            foreach (var backplane in backplanes.Where(b => b != null))
                await backplane.DisposeAsync();
        }
    }

    [Test]
    public async Task WssAndWsNodesExchangeTextAndBinaryMessages()
    {
        var options = new RedisBackplaneOptions { Channel = "test:" + Guid.NewGuid().ToString("N") };
        using var wss = new UpgradeCountingWssServer(ServerContext());
        using var ws = new UpgradeCountingWsServer();
        Assert.That(wss.Start() && ws.Start(), Is.True);
        await using var secure = await RedisBackplane.AttachAsync(wss, _redis.Configuration, options);
        await using var plain = await RedisBackplane.AttachAsync(ws, _redis.Configuration, options);
        using var atWss = new ClientWebSocket();
        atWss.Options.RemoteCertificateValidationCallback = (_, _, _, _) => true;
        using var atWs = new ClientWebSocket();
        using (var cancel = new CancellationTokenSource(Wait.Default))
        {
            await atWss.ConnectAsync(new Uri($"wss://localhost:{((IPEndPoint)wss.Endpoint).Port}/"), cancel.Token);
            await atWs.ConnectAsync(new Uri($"ws://127.0.0.1:{((IPEndPoint)ws.Endpoint).Port}/"), cancel.Token);
        }
        // The client sees the 101 before the server has its session among the upgraded ones: wait for OnWsConnected.
        await Wait.Until(() => wss.Upgraded == 1 && ws.Upgraded == 1, "both upgrades seen by their servers");

        Assert.That(wss.MulticastText("over tls"), Is.True);
        Assert.That(await ReceiveAsync(atWs), Is.EqualTo((WebSocketMessageType.Text, "over tls"u8.ToArray())));
        Assert.That(ws.MulticastBinary(new byte[] { 1, 2, 3 }), Is.True);
        Assert.That(await ReceiveAsync(atWss), Is.EqualTo((WebSocketMessageType.Text, "over tls"u8.ToArray())));
        Assert.That(await ReceiveAsync(atWss), Is.EqualTo((WebSocketMessageType.Binary, new byte[] { 1, 2, 3 })));
    }

    private static async Task<Socket> ConnectAsync(EndPoint endpoint)
    {
        var socket = endpoint is UnixDomainSocketEndPoint
            ? new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified)
            : new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        using var cancel = new CancellationTokenSource(Wait.Default);
        await socket.ConnectAsync(endpoint, cancel.Token);
        return socket;
    }

    private static async Task<string> ReadLineAsync(StreamReader reader)
    {
        using var cancel = new CancellationTokenSource(Wait.Default);
        return await reader.ReadLineAsync(cancel.Token) ?? throw new EndOfStreamException();
    }

    private static async Task<(WebSocketMessageType Type, byte[] Bytes)> ReceiveAsync(ClientWebSocket client)
    {
        using var cancel = new CancellationTokenSource(Wait.Default);
        var message = new MemoryStream();
        var buffer = new byte[4096];
        while (true)
        {
            var result = await client.ReceiveAsync(buffer, cancel.Token);
            message.Write(buffer, 0, result.Count);
            if (result.EndOfMessage)
                return (result.MessageType, message.ToArray());
        }
    }
}
