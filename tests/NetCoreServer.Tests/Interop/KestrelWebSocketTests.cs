using System.Linq;
using System.Text;
using System.Threading.Tasks;
using NetCoreServer.Tests.Http;
using NetCoreServer.Tests.Interop.WebSocketPeers;
using NetCoreServer.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Tests.Interop;

/// <summary>
/// Our WsClient against a WebSocket server nobody here wrote: ASP.NET Core's (performance/KestrelServer with
/// <c>ws</c>, the echo the benchmarks compare our ws server with), which sends each message back through an 8 KiB
/// buffer, a large one as several frames.
/// </summary>
[TestFixture]
public sealed class KestrelWebSocketTests
{
    [Test]
    public async Task OurWsClientGetsTextBinaryAndFragmentedMessagesBackFromKestrelAndItsCloseStatus()
    {
        var assembly = await KestrelServerProcess.Build();
        using var server = await KestrelServerProcess.Start(assembly, "ws");
        var probe = new WsClientProbe();
        using var client = new InteropWsClient(server.Port, probe);
        Assert.That(client.ConnectAsync(), Is.True, "our WsClient starts connecting");
        Assert.That(await Wait.For(probe.Upgraded.Task, "Kestrel's 101"), Is.Empty, "no extension was offered, none is agreed");

        var text = "hello Kestrel, from our client: h\u00e9llo \u2713 \U0001F600";
        Assert.That(client.SendText(text), Is.GreaterThan(0));
        Assert.That(Encoding.UTF8.GetString(await probe.NextMessage("the text echoed")), Is.EqualTo(text));

        var binary = Enumerable.Range(0, 1000).Select(i => (byte)(i * 7)).ToArray();
        Assert.That(client.SendBinary(binary), Is.GreaterThan(0));
        Assert.That(await probe.NextMessage("the binary message echoed"), Is.EqualTo(binary));

        // Twelve times Kestrel's buffer: it comes back as a message of several frames, which our client joins.
        var large = Enumerable.Range(0, 12 * 8192).Select(i => (byte)(i % 251)).ToArray();
        Assert.That(client.SendBinary(large), Is.GreaterThan(0));
        Assert.That(await probe.NextMessage("the large message echoed whole"), Is.EqualTo(large));

        client.Close(4000, "our client is done");
        var (status, reason) = await Wait.For(probe.Closed.Task, "Kestrel's close frame");
        Assert.That(status, Is.EqualTo(4000), "Kestrel answers our close with our status");
        Assert.That(reason, Is.EqualTo("our client is done"));
        await Wait.For(probe.WsDisconnected.Task, "OnWsDisconnected after the closing handshake");
        Assert.That(probe.Errors, Is.Empty, "no WebSocket error on the way");
    }
}
