using System;
using System.Net;
using System.Net.Sockets;

namespace NetCoreServer.Udp;

/// <summary>The user-facing object (<see cref="UdpServer"/> or <see cref="UdpClient"/>) whose hooks the engine raises.</summary>
internal interface IDatagramHost
{
    void Received(EndPoint endpoint, byte[] buffer, long offset, long size);

    void Sent(EndPoint endpoint, long sent);

    void Error(SocketError error);

    void HandlerException(Exception exception);
}
