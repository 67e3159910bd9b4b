using System;
using System.Net;
using System.Threading;
using NetCoreServer.Engine;

namespace NetCoreServer.Protocols.WebSockets;

/// <summary>What a <see cref="WsClientPeer"/> needs from its client (<see cref="WsClient"/>, <see cref="WssClient"/>) beyond <see cref="IWsPeerHost"/>.</summary>
internal interface IWsClientHost : IWsPeerHost
{
    /// <summary>The client's request, which carries the upgrade request.</summary>
    HttpRequest Request { get; }

    /// <summary>The client's response, which receives the answer to the upgrade.</summary>
    HttpResponse Response { get; }

    string Address { get; }

    /// <summary>The server endpoint; a socket file's server is asked for Host: localhost.</summary>
    EndPoint Endpoint { get; }

    int Port { get; }

    int OptionReceiveBufferLimit { get; }

    TimeSpan OptionDisconnectTimeout { get; }

    /// <summary>True while the calling thread runs one of the client's own hooks.</summary>
    bool IsInsideOwnHook { get; }

    /// <summary>Blocks until the connection has finished, OnDisconnected included, closing it past <paramref name="closeWait"/> (see StreamClient).</summary>
    void WaitDisconnected(StreamSessionEngine engine, TimeSpan closeWait);

    /// <summary>Queues a message of one or two pieces as one unit; false when refused.</summary>
    bool SendMessage(ReadOnlySpan<byte> head, ReadOnlySpan<byte> body, bool blocking);
}
