using System;
using System.Collections.Generic;
using System.Linq;
using System.Net.Security;
using System.Threading.Tasks;
using NetCoreServer.Protocols.Http2;
using NetCoreServer.Tests.Http;
using NUnit.Framework;

namespace NetCoreServer.Tests.Http2;

/// <summary>
/// RFC 9113 §9.2 end to end: openssl s_client negotiates h2 by ALPN over TLS 1.2 with a cipher suite and sends the
/// client preface; the server answers with its SETTINGS, then GOAWAY INADEQUATE_SECURITY when the suite is on the block
/// list, and serves it otherwise.
/// </summary>
[TestFixture]
[NonParallelizable] // an external process, like the other TLS interop tests
public sealed class Http2TlsSecurityTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(60);

    // What the server sent once the handshake was done: the frames s_client printed (-quiet prints the application data only).
    // s_client never acknowledges the server's SETTINGS: a connection that is served ends by SETTINGS_TIMEOUT after 1 s.
    private static async Task<(List<Http2ReceivedFrame> Frames, ToolResult Result)> OpenSslH2(string cipher)
    {
        var openssl = ExternalTool.Require("openssl");
        using var server = HttpTestTransport.Https.Start(new CacheApi(), out var port, options => options.Http2SettingsTimeout = TimeSpan.FromSeconds(1));
        ((SslServer)server).Context.ApplicationProtocols = new List<SslApplicationProtocol> { SslApplicationProtocol.Http2, SslApplicationProtocol.Http11 };
        byte[] preface = [.. Http2Preface.Client.ToArray(), .. Http2RawClient.Frame(b => Http2FrameWriter.WriteSettings(b, []))];
        var result = await ExternalTool.Run(openssl, ["s_client", "-connect", $"127.0.0.1:{port}", "-tls1_2", "-cipher", cipher, "-alpn", "h2", "-quiet", "-ign_eof"], s_timeout, preface);
        var frames = new List<Http2ReceivedFrame>();
        var reader = new Http2FrameReader(expectPreface: false) { MaxFrameSize = Http2Settings.MaxMaxFrameSize };
        var bytes = result.OutputBytes;
        var at = 0;
        while (reader.Read(bytes.AsSpan(at), out var frame, out var consumed) == Http2ReadStatus.Frame)
        {
            frames.Add(new(frame.Type, frame.Flags, frame.StreamId, frame.Payload.ToArray(), frame.ErrorCode, frame.WindowIncrement, frame.LastStreamId));
            at += consumed;
        }
        return (frames, result);
    }

    [Test]
    public async Task H2OverTls12WithAnEphemeralCbcSuiteGetsGoAwayInadequateSecurity()
    {
        // The one kind of block-listed suite this server's TLS stack (.NET over OpenSSL 3, default policy) still agrees to.
        var (frames, result) = await OpenSslH2("ECDHE-RSA-AES128-SHA256");
        Assert.That(frames.Select(f => f.Type), Does.Contain(Http2FrameType.Settings), "the server's preface first: " + result);
        var goAway = frames.SingleOrDefault(f => f.Type == Http2FrameType.GoAway);
        Assert.That(goAway?.ErrorCode, Is.EqualTo(Http2ErrorCode.InadequateSecurity), "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256 is on RFC 9113's block list: " + result);
        Assert.That(frames.Any(f => f.Type is Http2FrameType.Headers or Http2FrameType.Data), Is.False);
    }

    // Static RSA key exchange, CBC with SHA-1: refused in the handshake already (alert 40), or by the GOAWAY.
    [TestCase("AES128-SHA256")]
    [TestCase("AES128-GCM-SHA256")]
    [TestCase("ECDHE-RSA-AES128-SHA")]
    public async Task OtherBlockListedSuitesNeverGetHttp2(string cipher)
    {
        var (frames, result) = await OpenSslH2(cipher);
        var refusedInHandshake = frames.Count == 0 && result.ExitCode != 0;
        var goAway = frames.Any(f => f.Type == Http2FrameType.GoAway && f.ErrorCode == Http2ErrorCode.InadequateSecurity);
        Assert.That(refusedInHandshake || goAway, Is.True, result.ToString());
    }

    [Test]
    public async Task H2OverTls12WithAnEphemeralAeadSuiteIsServed()
    {
        var (frames, result) = await OpenSslH2("ECDHE-RSA-AES128-GCM-SHA256");
        Assert.That(frames.Select(f => f.Type), Does.Contain(Http2FrameType.Settings), result.ToString());
        var goAway = frames.SingleOrDefault(f => f.Type == Http2FrameType.GoAway);
        Assert.That(goAway?.ErrorCode, Is.EqualTo(Http2ErrorCode.SettingsTimeout), "served, until the unacknowledged SETTINGS timed out: " + result);
    }
}
