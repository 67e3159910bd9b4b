using System;
using System.Net;
using System.Net.Sockets;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.EchoServer;

/// <summary>A UDP server that sends every datagram straight back to its sender, receiving continuously.</summary>
internal sealed class EchoUdpServer : UdpServer, IBenchmarkServer
{
    // Every client's window can arrive at once; the kernel drops what does not fit (Linux caps it at net.core.rmem_max).
    private const int KernelBufferSize = 4 * 1024 * 1024;

    public EchoUdpServer(string address, int port)
        : base(address, port)
    {
        OptionContinuousReceive = true;
        OptionReceiveBufferSize = KernelBufferSize;
        OptionSendBufferSize = KernelBufferSize;
    }

    string IBenchmarkServer.ListeningOn => Endpoint.ToString() ?? $"{Address}:{Port}";

    // The send queue copies the datagram, so the pooled receive buffer can be reused as soon as this returns.
    protected override void OnReceived(EndPoint endpoint, byte[] buffer, long offset, long size) => SendAsync(endpoint, buffer, offset, size);

    protected override void OnError(SocketError error) => Console.Error.WriteLine($"Echo server caught an error: {error}");
}
