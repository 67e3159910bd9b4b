using System;
using System.Net;
using System.Net.Security;
using System.Net.Sockets;
using System.Threading.Tasks;

namespace NetCoreServer.Certificates.Tests.Support;

/// <summary>Two SslStreams over a real loopback TCP connection, not yet authenticated.</summary>
internal sealed class TlsPair : IDisposable
{
    private TlsPair(SslStream server, SslStream client)
    {
        Server = server;
        Client = client;
    }

    public SslStream Server { get; }

    public SslStream Client { get; }

    public static async Task<TlsPair> Connect()
    {
        using Socket listener = new(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        listener.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        listener.Listen(1);
        Socket client = new(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        Task connecting = client.ConnectAsync(listener.LocalEndPoint!);
        Socket server = await Wait.For(listener.AcceptAsync(), "the loopback connection to be accepted");
        await Wait.For(connecting, "the loopback connection to be established");
        return new TlsPair(
            new SslStream(new NetworkStream(server, ownsSocket: true)),
            new SslStream(new NetworkStream(client, ownsSocket: true)));
    }

    /// <summary>
    /// Runs both handshakes and returns each side's failure (null for success). When one side fails first the
    /// connection is closed, so the other fails at once instead of waiting for a message that never comes.
    /// </summary>
    public async Task<(Exception? Server, Exception? Client)> Handshake(SslServerAuthenticationOptions server, SslClientAuthenticationOptions client)
    {
        Task serverSide = Server.AuthenticateAsServerAsync(server);
        Task clientSide = Client.AuthenticateAsClientAsync(client);
        Task first = await Wait.For(Task.WhenAny(serverSide, clientSide), "either TLS handshake to finish");
        if (first.IsFaulted)
        {
            Dispose();
        }

        try
        {
            await Wait.For(Task.WhenAll(serverSide, clientSide), "both TLS handshakes to finish");
        }
        catch (Exception) when (serverSide.IsCompleted && clientSide.IsCompleted)
        {
            // Reported per side below.
        }

        return (serverSide.Exception?.InnerException, clientSide.Exception?.InnerException);
    }

    public void Dispose()
    {
        Server.Dispose();
        Client.Dispose();
    }
}
