using System;
using System.Diagnostics;
using System.Linq;
using System.Net;
using System.Net.Sockets;
using System.Security.Authentication;
using System.Security.Cryptography.X509Certificates;
using System.Text;
using System.Threading.Tasks;
using NetCoreServer.Certificates;
using NetCoreServer.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Tests.Interop;

/// <summary>OpenSSL's s_client and s_server, a TLS stack nobody here wrote, against our server and client.</summary>
[TestFixture]
public sealed class OpenSslTests
{
    private static readonly X509Certificate2 s_authority = SslTestTransport.Authority;

    private static TestServer StartEchoServerThatClosesAfter(SslTestTransport transport, int expected)
    {
        var server = new TestServer(transport, IPAddress.Loopback);
        // s_client keeps reading after its input ends; the session closes once it has echoed everything, which ends s_client.
        server.OnData = (session, _, _, _) =>
        {
            if (session.Session.BytesReceived >= expected)
                session.Disconnect();
        };
        Assert.That(server.Start(), Is.True);
        return server;
    }

    [Test]
    public async Task OurServerEchoesEveryByteToOpensslSClient()
    {
        var openssl = ExternalTool.Require("openssl");
        using var pem = new PemFiles();
        var ca = pem.Write("ca", s_authority);
        var payload = Encoding.ASCII.GetBytes(string.Concat(Enumerable.Range(0, 2000).Select(i => $"line {i}\n")));
        using var server = StartEchoServerThatClosesAfter(new SslTestTransport(), payload.Length);

        var result = await ExternalTool.Run(openssl,
            ["s_client", "-connect", $"127.0.0.1:{server.BoundPort}", "-CAfile", ca, "-verify_return_error", "-verify_hostname", "localhost", "-quiet"],
            TimeSpan.FromSeconds(30), payload);

        Assert.That(result.ExitCode, Is.EqualTo(0), "s_client verified our certificate and exited cleanly");
        Assert.That(Encoding.ASCII.GetString(result.OutputBytes), Is.EqualTo(Encoding.ASCII.GetString(payload)));
    }

    [Test]
    public async Task OpensslSClientWithATrustedClientCertificateIsAcceptedAndAForeignOneRefused()
    {
        var openssl = ExternalTool.Require("openssl");
        using var pem = new PemFiles();
        var ca = pem.Write("ca", s_authority);
        pem.Write("good", DevelopmentCertificates.CreateClient(s_authority));
        pem.Write("bad", DevelopmentCertificates.CreateClient(DevelopmentCertificates.CreateAuthority("Foreign CA")));
        var transport = new SslTestTransport(
            () => new SslContext(SslProtocols.Tls12 | SslProtocols.Tls13, SslTestTransport.ServerCertificate, TrustedBy.Authority(s_authority)) { ClientCertificateRequired = true },
            SslTestTransport.DefaultClientContext);
        var payload = "mutual\n"u8.ToArray();

        using (var server = StartEchoServerThatClosesAfter(transport, payload.Length))
        {
            var result = await ExternalTool.Run(openssl,
                ["s_client", "-connect", $"127.0.0.1:{server.BoundPort}", "-CAfile", ca, "-cert", $"{pem.Directory}/good.crt", "-key", pem.Key("good"), "-quiet"],
                TimeSpan.FromSeconds(30), payload);
            Assert.That(result.ExitCode, Is.EqualTo(0));
            Assert.That(result.OutputBytes, Is.EqualTo(payload), "echo over mutual TLS");
        }

        using (var server = StartEchoServerThatClosesAfter(transport, payload.Length))
        {
            var result = await ExternalTool.Run(openssl,
                ["s_client", "-connect", $"127.0.0.1:{server.BoundPort}", "-CAfile", ca, "-cert", $"{pem.Directory}/bad.crt", "-key", pem.Key("bad"), "-quiet"],
                TimeSpan.FromSeconds(30), payload);
            Assert.That(result.OutputBytes, Is.Empty, "nothing echoed to a refused client");
            await Wait.For(server.Disconnected.Reaches(1), "refused session closed");
            Assert.That(server.LastSession!.DisconnectReason, Is.EqualTo(DisconnectReason.HandshakeFailed));
            Assert.That(server.Received.Value, Is.EqualTo(0));
        }
    }

    [Test]
    public async Task OurClientTalksToOpensslSServer()
    {
        var openssl = ExternalTool.Require("openssl");
        using var pem = new PemFiles();
        var crt = pem.Write("server", SslTestTransport.ServerCertificate);
        int port;
        using (var probe = new System.Net.Sockets.TcpListener(IPAddress.Loopback, 0))
        {
            probe.Start();
            port = ((IPEndPoint)probe.LocalEndpoint).Port;
        }
        // -rev answers every line reversed: an echo we can check, from a TLS server nobody here wrote.
        using var process = Process.Start(new ProcessStartInfo(openssl, $"s_server -accept 127.0.0.1:{port} -cert {crt} -key {pem.Key("server")} -rev -naccept 1 -quiet")
        {
            UseShellExecute = false,
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        })!;
        try
        {
            var transport = new SslTestTransport(SslTestTransport.DefaultServerContext, SslTestTransport.DefaultClientContext, c => c.TargetHost = "localhost");
            using var unused = new TestServer(transport, IPAddress.Loopback);
            using var client = new TestClient(transport, unused, new IPEndPoint(IPAddress.Loopback, port));
            var connected = false;
            // s_server needs a moment to listen; retry for at most 5 s.
            for (var attempt = 0; attempt < 50 && !connected; attempt++)
            {
                connected = await client.ConnectAndWaitAsync();
                if (!connected)
                    await Task.Delay(100);
            }
            Assert.That(connected, Is.True, "TLS handshake with s_server, certificate validated against our CA");
            client.SendAsync("hello openssl\n");
            await Wait.For(client.Received.Reaches(14), "s_server's reversed line");
            Assert.That(Encoding.ASCII.GetString(client.Data()).Trim(), Is.EqualTo("lssnepo olleh"));
            client.Disconnect();
        }
        finally
        {
            if (!process.HasExited)
                process.Kill();
        }
    }
}
