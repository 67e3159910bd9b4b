using System;
using System.Collections.Generic;
using System.Linq;
using System.Text;
using NUnit.Framework;
using NetCoreServer.Protocols.Http;
using NetCoreServer.Protocols.WebSockets;

namespace NetCoreServer.Tests.WebSockets;

/// <summary>
/// The opening handshake (RFC 6455 §4): the accept key vector, the server's checks with every refusal, the 101 it
/// writes, the client's request, and every way a server's answer can fail the client's checks. Requests and responses
/// are parsed from wire text by the HTTP readers, as a session would.
/// </summary>
[TestFixture]
public sealed class WsHandshakeTests
{
    private const string RfcKey = "dGhlIHNhbXBsZSBub25jZQ==";
    private const string RfcAccept = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=";

    // RFC 6455 §1.3's request.
    private const string RfcRequest =
        "GET /chat HTTP/1.1\r\nHost: server.example.com\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nOrigin: http://example.com\r\n"
        + "Sec-WebSocket-Protocol: chat, superchat\r\nSec-WebSocket-Version: 13\r\n\r\n";

    [Test]
    public void TheAcceptKeyIsTheRfcVector() => Assert.That(WsHandshake.ComputeAccept(RfcKey), Is.EqualTo(RfcAccept));

    [Test]
    public void TheRfcRequestIsAcceptedWithTheChosenSubprotocol()
    {
        var request = ParseRequest(RfcRequest);
        Assert.That(WsServerHandshake.Validate(request, out var upgrade, out _, out _), Is.EqualTo(WsUpgradeStatus.Valid));
        Assert.That(upgrade!.Key, Is.EqualTo(RfcKey));
        Assert.That(upgrade.Subprotocols, Is.EqualTo(new[] { "chat", "superchat" }));

        var response = new HttpResponse();
        var result = WsServerHandshake.Accept(upgrade, response, new WsHandshakeOptions { SelectSubprotocol = offered => offered[^1] });
        Assert.That(result.Subprotocol, Is.EqualTo("superchat"));
        Assert.That(result.Deflate, Is.Null);
        Assert.That(Encoding.ASCII.GetString(response.Cache.AsSpan()), Is.EqualTo(
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + $"Sec-WebSocket-Accept: {RfcAccept}\r\nSec-WebSocket-Protocol: superchat\r\n\r\n"));
    }

    [Test]
    public void ASubprotocolTheClientDidNotOfferIsNotAnswered()
    {
        Assert.That(WsServerHandshake.Validate(ParseRequest(RfcRequest), out var upgrade, out _, out _), Is.EqualTo(WsUpgradeStatus.Valid));
        var response = new HttpResponse();
        var result = WsServerHandshake.Accept(upgrade!, response, new WsHandshakeOptions { SelectSubprotocol = _ => "mqtt" });
        Assert.That(result.Subprotocol, Is.Null);
        Assert.That(Encoding.ASCII.GetString(response.Cache.AsSpan()), Does.Not.Contain("Sec-WebSocket-Protocol"));
    }

    [TestCase("Connection: keep-alive, Upgrade", "websocket", TestName = "Connection listing upgrade among other options")]
    [TestCase("Connection: keep-alive\r\nConnection: UPGRADE", "websocket", TestName = "Connection split over two fields, in capitals")]
    [TestCase("Connection: Upgrade", "WebSocket, h2c", TestName = "Upgrade listing websocket in another case among others")]
    public void ValidVariantsAreAccepted(string connection, string upgrade)
    {
        var request = ParseRequest(Request(connection: connection, upgrade: upgrade));
        Assert.That(WsServerHandshake.Validate(request, out _, out _, out var error), Is.EqualTo(WsUpgradeStatus.Valid), error);
    }

    [TestCase("GET / HTTP/1.1\r\nHost: a\r\n\r\n", TestName = "a plain GET is not WebSocket")]
    [TestCase("GET / HTTP/1.1\r\nHost: a\r\nUpgrade: h2c\r\nConnection: Upgrade, HTTP2-Settings\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\n\r\n", TestName = "an h2c upgrade is not WebSocket")]
    public void OrdinaryRequestsAreNotWebSocket(string wire)
        => Assert.That(WsServerHandshake.Validate(ParseRequest(wire), out _, out _, out _), Is.EqualTo(WsUpgradeStatus.NotWebSocket));

    private static IEnumerable<TestCaseData> Refusals()
    {
        yield return Refusal("a POST", 400, Request(method: "POST"));
        yield return Refusal("HTTP/1.0", 400, Request(version: "HTTP/1.0"));
        yield return Refusal("no Host", 400, Request(host: null));
        yield return Refusal("Upgrade without websocket", 400, Request(upgrade: "h2c"));
        yield return Refusal("no Upgrade field, but a key and version", 400, Request(upgrade: null));
        yield return Refusal("Connection without upgrade", 400, Request(connection: "Connection: keep-alive"));
        yield return Refusal("no Connection field", 400, Request(connection: null));
        yield return Refusal("no Sec-WebSocket-Version", 400, Request(version13: null));
        yield return Refusal("two Sec-WebSocket-Version fields", 400, Request(version13: "13\r\nSec-WebSocket-Version: 13"));
        yield return Refusal("version 8", 426, Request(version13: "8"));
        yield return Refusal("a version list", 426, Request(version13: "13, 8"));
        yield return Refusal("no Sec-WebSocket-Key", 400, Request(key: null));
        yield return Refusal("two Sec-WebSocket-Key fields", 400, Request(key: RfcKey + "\r\nSec-WebSocket-Key: " + RfcKey));
        yield return Refusal("a key that is not base64", 400, Request(key: "not base64 at all!!!!!!!"));
        yield return Refusal("a key of 15 bytes", 400, Request(key: Convert.ToBase64String(new byte[15])));
        yield return Refusal("a key of 17 bytes", 400, Request(key: Convert.ToBase64String(new byte[17])));
        yield return Refusal("a key with a space inside", 400, Request(key: "dGhlIHNhbXBsZSB ub25jZQ=="));
        yield return Refusal("an empty key", 400, Request(key: ""));
        yield return Refusal("a malformed extension list", 400, Request(extra: "Sec-WebSocket-Extensions: permessage-deflate; =x"));
        yield return Refusal("an unclosed quoted extension parameter", 400, Request(extra: "Sec-WebSocket-Extensions: permessage-deflate; a=\"10"));
        yield return Refusal("a subprotocol that is not a token", 400, Request(extra: "Sec-WebSocket-Protocol: chat, sup(er)"));
    }

    [TestCaseSource(nameof(Refusals))]
    public void InvalidUpgradesAreRefused(string wire, int status)
    {
        Assert.That(WsServerHandshake.Validate(ParseRequest(wire), out var upgrade, out var refused, out var error), Is.EqualTo(WsUpgradeStatus.Invalid));
        Assert.That(upgrade, Is.Null);
        Assert.That(refused, Is.EqualTo(status), error);
        Assert.That(error, Is.Not.Empty);
    }

    [Test]
    public void A426NamesTheSupportedVersion()
    {
        var response = new HttpResponse();
        WsServerHandshake.Reject(response, 426, "only WebSocket version 13 is supported");
        var text = Encoding.ASCII.GetString(response.Cache.AsSpan());
        Assert.That(text, Does.StartWith("HTTP/1.1 426 Upgrade Required\r\n"));
        Assert.That(text, Does.Contain("\r\nSec-WebSocket-Version: 13\r\n"));
        Assert.That(text, Does.Contain("\r\nUpgrade: websocket\r\n"));
        Assert.That(response.Body, Is.EqualTo("only WebSocket version 13 is supported"));
        WsServerHandshake.Reject(response, 400, "bad");
        Assert.That(Encoding.ASCII.GetString(response.Cache.AsSpan()), Does.Not.Contain("Sec-WebSocket-Version"));
    }

    [Test]
    public void TheClientRequestCarriesAFreshKeyAndItsOffers()
    {
        var nonce = WsHandshake.NewNonce();
        Assert.That(nonce, Has.Length.EqualTo(16));
        Assert.That(WsHandshake.NewNonce(), Is.Not.EqualTo(nonce));
        var request = new HttpRequest();
        var options = new WsHandshakeOptions { Subprotocols = ["chat", "superchat"], Deflate = new WsDeflateOptions { ClientNoContextTakeover = true } };
        WsClientHandshake.BuildRequest(request, "server.example.com", "/chat", nonce, options, origin: "http://example.com");
        Assert.That(Encoding.ASCII.GetString(request.Cache.AsSpan()), Is.EqualTo(
            "GET /chat HTTP/1.1\r\nHost: server.example.com\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + $"Sec-WebSocket-Key: {Convert.ToBase64String(nonce)}\r\nSec-WebSocket-Version: 13\r\nOrigin: http://example.com\r\n"
            + "Sec-WebSocket-Protocol: chat, superchat\r\nSec-WebSocket-Extensions: permessage-deflate; client_no_context_takeover\r\n\r\n"));
    }

    [Test]
    public void AClientAndAServerAgreeOnSubprotocolAndCompression()
    {
        var request = new HttpRequest();
        WsClientHandshake.BuildRequest(request, "a", "/", WsHandshake.NewNonce(),
            new WsHandshakeOptions { Subprotocols = ["v2", "v1"], Deflate = new WsDeflateOptions() });
        var received = ParseRequest(Encoding.ASCII.GetString(request.Cache.AsSpan()));
        Assert.That(WsServerHandshake.Validate(received, out var upgrade, out _, out _), Is.EqualTo(WsUpgradeStatus.Valid));
        var response = new HttpResponse();
        var server = WsServerHandshake.Accept(upgrade!, response, new WsHandshakeOptions
        {
            SelectSubprotocol = offered => offered.Contains("v1") ? "v1" : null,
            Deflate = new WsDeflateOptions { ServerNoContextTakeover = true },
        });
        var answer = ParseResponse(Encoding.ASCII.GetString(response.Cache.AsSpan()));
        Assert.That(WsClientHandshake.Validate(request, answer, out var client, out var error), Is.True, error);
        Assert.That(client, Is.EqualTo(server));
        Assert.That(client.Subprotocol, Is.EqualTo("v1"));
        Assert.That(client.Deflate, Is.EqualTo(new WsDeflateParameters(true, false, 0, 0)));
    }

    private static IEnumerable<TestCaseData> BadAnswers()
    {
        yield return BadAnswer("a 200 instead of 101", "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
        yield return BadAnswer("no Upgrade field", Answer(upgrade: null));
        yield return BadAnswer("Upgrade: h2c", Answer(upgrade: "h2c"));
        yield return BadAnswer("two Upgrade fields", Answer(upgrade: "websocket\r\nUpgrade: websocket"));
        yield return BadAnswer("no Connection field", Answer(connection: null));
        yield return BadAnswer("Connection without upgrade", Answer(connection: "keep-alive"));
        yield return BadAnswer("no Sec-WebSocket-Accept", Answer(accept: null));
        yield return BadAnswer("a wrong Sec-WebSocket-Accept", Answer(accept: WsHandshake.ComputeAccept("AAAAAAAAAAAAAAAAAAAAAA==")));
        yield return BadAnswer("two Sec-WebSocket-Accept fields", Answer(accept: RfcAccept + "\r\nSec-WebSocket-Accept: " + RfcAccept));
        yield return BadAnswer("a subprotocol not offered", Answer(extra: "Sec-WebSocket-Protocol: mqtt"));
        yield return BadAnswer("two subprotocol fields", Answer(extra: "Sec-WebSocket-Protocol: chat\r\nSec-WebSocket-Protocol: chat"));
        yield return BadAnswer("a subprotocol when none was offered", Answer(extra: "Sec-WebSocket-Protocol: chat"), offerProtocols: false);
        yield return BadAnswer("an extension not offered", Answer(extra: "Sec-WebSocket-Extensions: permessage-deflate"), offerDeflate: false);
        yield return BadAnswer("an unknown extension", Answer(extra: "Sec-WebSocket-Extensions: x-webkit-deflate-frame"));
        yield return BadAnswer("permessage-deflate twice", Answer(extra: "Sec-WebSocket-Extensions: permessage-deflate, permessage-deflate"));
        yield return BadAnswer("an unknown deflate parameter", Answer(extra: "Sec-WebSocket-Extensions: permessage-deflate; mem_level=9"));
        yield return BadAnswer("client_max_window_bits when not offered", Answer(extra: "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits=10"));
        yield return BadAnswer("server_max_window_bits without a value", Answer(extra: "Sec-WebSocket-Extensions: permessage-deflate; server_max_window_bits"));
        yield return BadAnswer("server_max_window_bits of 16", Answer(extra: "Sec-WebSocket-Extensions: permessage-deflate; server_max_window_bits=16"));
        yield return BadAnswer("a repeated deflate parameter", Answer(extra: "Sec-WebSocket-Extensions: permessage-deflate; server_no_context_takeover; server_no_context_takeover"));
        yield return BadAnswer("a malformed extension list", Answer(extra: "Sec-WebSocket-Extensions: permessage-deflate;"));
    }

    [TestCaseSource(nameof(BadAnswers))]
    public void TheClientFailsABadAnswer(string wire, bool offerProtocols, bool offerDeflate)
    {
        var request = ParseRequest(Request(extra: (offerProtocols ? "Sec-WebSocket-Protocol: chat, superchat\r\n" : "")
            + (offerDeflate ? "Sec-WebSocket-Extensions: permessage-deflate" : "X-None: 1")));
        Assert.That(WsClientHandshake.Validate(request, ParseResponse(wire), out _, out var error), Is.False);
        Assert.That(error, Is.Not.Empty);
    }

    [Test]
    public void TheClientAcceptsAGoodAnswerWithExtensionsAndProtocol()
    {
        var request = ParseRequest(Request(extra: "Sec-WebSocket-Protocol: chat, superchat\r\nSec-WebSocket-Extensions: permessage-deflate; client_max_window_bits, x-other"));
        var answer = ParseResponse(Answer(extra: "Sec-WebSocket-Protocol: chat\r\nSec-WebSocket-Extensions: permessage-deflate; client_max_window_bits=10; server_max_window_bits=12; client_no_context_takeover"));
        Assert.That(WsClientHandshake.Validate(request, answer, out var result, out var error), Is.True, error);
        Assert.That(result.Subprotocol, Is.EqualTo("chat"));
        Assert.That(result.Deflate, Is.EqualTo(new WsDeflateParameters(false, true, 12, 10)));
        Assert.That(result.Deflate!.Value.CompressesOutgoing(WsRole.Client), Is.False, "a client window under 15 bits is honoured by not compressing");
        Assert.That(result.Deflate.Value.CompressesOutgoing(WsRole.Server), Is.False, "so is the server's, at 12 bits");
    }

    private static string Request(string method = "GET", string version = "HTTP/1.1", string? host = "a", string? upgrade = "websocket",
        string? connection = "Connection: Upgrade", string? version13 = "13", string? key = RfcKey, string? extra = null)
    {
        var text = new StringBuilder($"{method} /chat {version}\r\n");
        if (host != null)
            text.Append($"Host: {host}\r\n");
        if (upgrade != null)
            text.Append($"Upgrade: {upgrade}\r\n");
        if (connection != null)
            text.Append(connection).Append("\r\n");
        if (version13 != null)
            text.Append($"Sec-WebSocket-Version: {version13}\r\n");
        if (key != null)
            text.Append($"Sec-WebSocket-Key: {key}\r\n");
        if (extra != null)
            text.Append(extra).Append("\r\n");
        return text.Append("\r\n").ToString();
    }

    private static string Answer(string? upgrade = "websocket", string? connection = "Upgrade", string? accept = RfcAccept, string? extra = null)
    {
        var text = new StringBuilder("HTTP/1.1 101 Switching Protocols\r\n");
        if (upgrade != null)
            text.Append($"Upgrade: {upgrade}\r\n");
        if (connection != null)
            text.Append($"Connection: {connection}\r\n");
        if (accept != null)
            text.Append($"Sec-WebSocket-Accept: {accept}\r\n");
        if (extra != null)
            text.Append(extra).Append("\r\n");
        return text.Append("\r\n").ToString();
    }

    private static TestCaseData Refusal(string name, int status, string wire) => new TestCaseData(wire, status).SetName($"{name} is refused with {status}");

    private static TestCaseData BadAnswer(string name, string wire, bool offerProtocols = true, bool offerDeflate = true)
        => new TestCaseData(wire, offerProtocols, offerDeflate).SetName($"the client fails {name}");

    private static HttpRequest ParseRequest(string wire)
    {
        var request = new HttpRequest();
        var reader = new HttpRequestReader(request);
        var bytes = Encoding.UTF8.GetBytes(wire);
        Assert.That(reader.Read(bytes, out var consumed), Is.EqualTo(HttpReadResult.HeaderReady), reader.ErrorReason);
        Assert.That(reader.Read(bytes.AsSpan(consumed), out _), Is.EqualTo(HttpReadResult.MessageReady));
        return request;
    }

    private static HttpResponse ParseResponse(string wire)
    {
        var response = new HttpResponse();
        var reader = new HttpResponseReader(response);
        var bytes = Encoding.UTF8.GetBytes(wire);
        Assert.That(reader.Read(bytes, out var consumed), Is.EqualTo(HttpReadResult.HeaderReady), reader.ErrorReason);
        Assert.That(reader.Read(bytes.AsSpan(consumed), out _), Is.EqualTo(HttpReadResult.MessageReady));
        return response;
    }
}
