using System;
using System.Collections.Generic;
using System.Text;
using NUnit.Framework;

namespace NetCoreServer.Tests.WebSockets;

/// <summary>NetCoreServer's public <see cref="WebSocket"/> utility driven by hand, as code written against NetCoreServer does.</summary>
[TestFixture]
public sealed class WebSocketUtilityTests
{
    /// <summary>Records what the utility raises.</summary>
    private sealed class Recorder : IWebSocket
    {
        public List<string> Events { get; } = new();

        public HttpResponse? Sent { get; private set; }

        public void OnWsReceived(byte[] buffer, long offset, long size) => Events.Add("message " + Encoding.UTF8.GetString(buffer, (int)offset, (int)size));

        public void OnWsPing(byte[] buffer, long offset, long size) => Events.Add("ping " + Encoding.UTF8.GetString(buffer, (int)offset, (int)size));

        public void OnWsClose(byte[] buffer, long offset, long size, int status) => Events.Add($"close {status} " + Encoding.UTF8.GetString(buffer, (int)offset, (int)size));

        public void OnWsError(string error) => Events.Add("error");

        public void OnWsConnected(HttpRequest request) => Events.Add("connected");

        public void SendUpgrade(HttpResponse response) => Sent = response;
    }

    private static HttpRequest Upgrade(string version = "13")
    {
        var request = new HttpRequest("GET", "/");
        request.SetHeader("Host", "localhost").SetHeader("Upgrade", "websocket").SetHeader("Connection", "Upgrade")
            .SetHeader("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==").SetHeader("Sec-WebSocket-Version", version).SetBody();
        return request;
    }

    [Test]
    public void PerformServerUpgradeSendsTheRfcAcceptKeyAndRaisesOnWsConnected()
    {
        var recorder = new Recorder();
        var socket = new WebSocket(recorder);
        var response = new HttpResponse();

        Assert.That(socket.PerformServerUpgrade(Upgrade(), response), Is.True);

        Assert.That(recorder.Sent, Is.SameAs(response));
        Assert.That(response.Status, Is.EqualTo(101));
        Assert.That(response.ToString(), Does.Contain("s3pPLMBiTxaQ9kYGzzhZRbK+xOo="), "RFC 6455 §1.3's example key and accept value");
        Assert.That(recorder.Events, Is.EqualTo(new[] { "connected" }));
        Assert.That(socket.IsHandshaked, Is.True);
    }

    [Test]
    public void PerformServerUpgradeRefusesAnotherVersionWith426AndIgnoresPlainRequests()
    {
        var recorder = new Recorder();
        var socket = new WebSocket(recorder);

        Assert.That(socket.PerformServerUpgrade(new HttpRequest("GET", "/index.html"), new HttpResponse()), Is.False);
        Assert.That(recorder.Sent, Is.Null, "a plain request is not answered here");
        Assert.That(socket.PerformServerUpgrade(Upgrade("8"), new HttpResponse()), Is.False);
        Assert.That(recorder.Sent!.Status, Is.EqualTo(426));
    }

    [Test]
    public void AFramePreparedForSendingIsDecodedBackSplitAnywhere()
    {
        var sender = new WebSocket(new Recorder());
        var recorder = new Recorder();
        var receiver = new WebSocket(recorder);
        var wire = new List<byte>();
        sender.PrepareSendFrame(WebSocket.WS_FIN | WebSocket.WS_TEXT, true, "hello"u8);
        wire.AddRange(sender.SendFrame.ToArray());
        sender.PrepareSendFrame(WebSocket.WS_FIN | WebSocket.WS_PING, true, "p"u8);
        wire.AddRange(sender.SendFrame.ToArray());
        sender.PrepareSendFrame(WebSocket.WS_FIN | WebSocket.WS_CLOSE, true, "bye"u8, 1000);
        wire.AddRange(sender.SendFrame.ToArray());

        Assert.That(receiver.RequiredReceiveFrameSize(), Is.EqualTo(2), "a frame header starts with two bytes");
        foreach (var b in wire)
            receiver.PrepareReceiveFrame([b], 0, 1);

        Assert.That(recorder.Events, Is.EqualTo(new[] { "message hello", "ping p", "close 1000 bye" }));
    }

    [Test]
    public void AnUnmaskedFrameToAServerIsAnError()
    {
        var sender = new WebSocket(new Recorder());
        var recorder = new Recorder();
        var receiver = new WebSocket(recorder);
        sender.PrepareSendFrame(WebSocket.WS_FIN | WebSocket.WS_TEXT, false, "x"u8);

        var frame = sender.SendFrame.ToArray();
        receiver.PrepareReceiveFrame(frame, 0, frame.Length);

        Assert.That(recorder.Events, Is.EqualTo(new[] { "error" }));
    }
}
