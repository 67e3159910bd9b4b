using System;
using System.Net.Security;
using System.Net.Sockets;
using System.Security.Cryptography.X509Certificates;
using System.Threading.Tasks;
using NetCoreServer;
using NetCoreServer.Examples;

namespace WssChatClient;

/// <summary>
/// A secure WebSocket chat connection that trusts only the given authority, prints every message it receives on a
/// line of its own and, until <see cref="DisconnectAndStopAsync"/> is called, connects again one second after every
/// disconnect or failed attempt (refused, or a certificate rejected); see <see cref="WsChatClientEvents"/>.
/// </summary>
internal sealed class ChatClient : WssClient, IChatClient
{
    private readonly WsChatClientEvents _events;
    private readonly CertificateAuthority _authority;

    /// <summary>Creates a client of <paramref name="address"/>:<paramref name="port"/>; call ConnectAsync to start.</summary>
    /// <param name="context">Protocols and the client certificate; its validation callback is set here.</param>
    /// <param name="authority">The only authority the server's certificate may come from.</param>
    /// <param name="address">The server's address or host name, which its certificate must name.</param>
    /// <param name="port">The server's port.</param>
    public ChatClient(SslContext context, CertificateAuthority authority, string address, int port)
        : base(context, address, port)
    {
        _authority = authority;
        _events = new WsChatClientEvents("WSS", ConnectAsync);
        // Set here rather than by the caller: the check reports through this client's outage state.
        context.CertificateValidationCallback = ValidateServerCertificate;
    }

    public async Task DisconnectAndStopAsync()
    {
        _events.Reconnect.Stop();
        CloseAsync(1000);
        await DisconnectAndWaitAsync().ConfigureAwait(false);
    }

    // One console line is one WebSocket text message, without the line ending the console adds.
    bool IChatClient.SendAsync(string text) => SendTextAsync(text.TrimEnd('\n'));

    // Only now is the connection usable: TLS handshaked and the upgrade accepted.
    public override void OnWsConnected(HttpResponse response) => _events.Upgraded(Id, $" (server certificate {RemoteCertificate?.Subject})");

    public override void OnWsReceived(byte[] buffer, long offset, long size) => WsChatClientEvents.Received(buffer, offset, size);

    protected override void OnDisconnected()
    {
        base.OnDisconnected();
        _events.Disconnected(Id, DisconnectReason);
    }

    protected override void OnError(SocketError error) => _events.Error(error);

    // Runs on the handshake's thread-pool thread, before the upgrade request is sent.
    private bool ValidateServerCertificate(object sender, X509Certificate? certificate, X509Chain? chain, SslPolicyErrors errors)
    {
        var problem = _authority.CheckServerCertificate(certificate, chain, errors);
        if (problem is not null && !_events.Reconnect.IsRecovering)
            Console.WriteLine($"Chat WSS client rejected the server certificate: {problem}");
        return problem is null;
    }
}
