using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading.Tasks;
using NetCoreServer.Testing;
using NUnit.Framework;

namespace NetCoreServer.Tests.WebSockets.Live;

/// <summary>
/// The case table (<see cref="WsCaseTable"/>) run against the library's server over WS and WSS, driven by a raw client
/// that sends exactly the frames of each case: every case is its own test.
/// </summary>
[TestFixture(WsTransport.Ws)]
[TestFixture(WsTransport.Wss)]
[TestFixture(WsTransport.WsPool)]
[TestFixture(WsTransport.WssPool)]
[Parallelizable(ParallelScope.Children)]
public sealed class WsCaseTableTests(WsTransport transport)
{
    public static IEnumerable<WsCase> Cases() => WsCaseTable.All();

    [TestCaseSource(nameof(Cases))]
    public async Task TheServerAnswersAsRfc6455Requires(WsCase @case)
    {
        using var server = new WsTestServer(transport, options =>
        {
            options.MaxMessageSize = @case.MaxMessageSize;
            options.Deflate = @case.Deflate;
            options.DeflateMinSize = 0;
        });
        var offer = @case.Deflate ? "Sec-WebSocket-Extensions: permessage-deflate\r\n" : "";
        using var client = await RawWsClient.UpgradeAsync(transport, server.Port, offer);
        if (@case.OneWrite)
            await client.SendAsync(WsTestFrames.Concat(@case.Send));
        else
        {
            foreach (var frame in @case.Send)
                await client.SendAsync(frame);
        }

        foreach (var expected in @case.Expect)
        {
            var frame = await client.ReadFrameAsync();
            Assert.That(frame, Is.Not.Null, $"expected {expected}, but the server closed the connection");
            var got = frame!.Value;
            Assert.That(got.Masked, Is.False, "server frames are never masked");
            Assert.That(got.Fin, Is.True, "the server sends whole messages");
            Assert.That(got.Opcode, Is.EqualTo(expected.Opcode), $"expected {expected}");
            if (expected.Opcode == 0x8)
            {
                Assert.That(got.CloseStatus, Is.EqualTo(expected.CloseStatus), "close status");
                if (expected.CloseStatus == 1005)
                    Assert.That(got.Payload, Is.Empty, "an empty close is answered with an empty close (1005 is never sent)");
                if (expected.Payload != null)
                    Assert.That(got.Payload, Is.EqualTo(expected.Payload), "status and reason echoed");
                Assert.That(await client.ServerClosedAsync(), Is.True, "the server closes TCP after the close frame");
                if (expected.Failure)
                    await Wait.For(server.Probe.Error.Task, "OnWsError for the protocol failure");
                continue;
            }
            Assert.That(got.Rsv1, Is.EqualTo(expected.Compressed), "RSV1 marks a compressed message");
            var payload = expected.Compressed ? WsCase.Inflate(got.Payload) : got.Payload;
            Assert.That(payload, Is.EqualTo(expected.Payload), $"payload of {expected}");
        }
    }

    [Test]
    public void TheTableCoversEveryAreaOfTheAutobahnSuite()
    {
        var areas = Cases().Select(c => c.Name.Split('.')[0]).Distinct().ToArray();

        Assert.That(areas, Is.EquivalentTo(new[] { "1", "2", "3", "4", "5", "6", "7", "9", "12" }));
        Assert.That(Cases().Select(c => c.Name).Distinct().Count(), Is.EqualTo(Cases().Count()), "case names are unique");
    }
}
