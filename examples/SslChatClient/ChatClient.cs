using System;
using System.Net.Security;
using System.Net.Sockets;
using System.Security.Cryptography.X509Certificates;
using System.Threading.Tasks;
using NetCoreServer;
using NetCoreServer.Examples;

namespace SslChatClient;

/// <summary>
/// A TLS chat connection that trusts only the given authority, prints everything it receives and, until
/// <see cref="DisconnectAndStopAsync"/> is called, connects again one second after every disconnect or failed
/// attempt (refused, or a certificate rejected), so it outlives server restarts. Problems are printed once per
/// outage, not once per attempt.
/// </summary>
internal sealed class ChatClient : SslClient, IChatClient
{
    // OnReceived calls never overlap, so one decoder needs no lock.
    private readonly Utf8ChunkDecoder _decoder = new();
    private readonly AutoReconnect _reconnect;
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
        _reconnect = new AutoReconnect(ConnectAsync);
        // Set here rather than by the caller: the check reports through this client's outage state.
        context.CertificateValidationCallback = ValidateServerCertificate;
    }

    public Task DisconnectAndStopAsync()
    {
        _reconnect.Stop();
        return DisconnectAndWaitAsync();
    }

    protected override void OnConnected()
    {
        _decoder.Reset();
        if (!_reconnect.IsRecovering)
            Console.WriteLine($"Chat SSL client connected a new session with Id {Id}");
    }

    protected override void OnHandshaked()
    {
        // Only now is the connection usable: a rejected certificate fails after OnConnected, within the outage.
        _reconnect.Recovered();
        Console.WriteLine($"Chat SSL client handshaked a new session with Id {Id} (server certificate {RemoteCertificate?.Subject})");
    }

    protected override void OnDisconnected()
    {
        if (_reconnect.IsStopped)
            Console.WriteLine($"Chat SSL client disconnected a session with Id {Id}");
        else if (_reconnect.Disconnected())
            Console.WriteLine($"Chat SSL client disconnected a session with Id {Id} ({DisconnectReason}); reconnecting every {_reconnect.Delay.TotalSeconds:0} s");
    }

    protected override void OnReceived(byte[] buffer, long offset, long size)
    {
        Console.Out.Write(_decoder.Decode(buffer.AsSpan(checked((int)offset), checked((int)size))));
        Console.Out.Flush();
    }

    protected override void OnError(SocketError error)
    {
        if (!_reconnect.IsRecovering)
            Console.WriteLine($"Chat SSL client caught an error with code {error}");
    }

    // Runs on the handshake's thread-pool thread, before OnHandshaked or OnError.
    private bool ValidateServerCertificate(object sender, X509Certificate? certificate, X509Chain? chain, SslPolicyErrors errors)
    {
        var problem = _authority.CheckServerCertificate(certificate, chain, errors);
        if (problem is not null && !_reconnect.IsRecovering)
            Console.WriteLine($"Chat SSL client rejected the server certificate: {problem}");
        return problem is null;
    }
}
