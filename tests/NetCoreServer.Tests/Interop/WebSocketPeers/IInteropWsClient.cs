using System;

namespace NetCoreServer.Tests.Interop.WebSocketPeers;

/// <summary>What a test does with <see cref="InteropWsClient"/> or <see cref="InteropWssClient"/>: the library's own
/// methods of WsClient and WssClient, which share no base class that has them.</summary>
internal interface IInteropWsClient : IDisposable
{
    bool ConnectAsync();

    long SendText(string text);

    long SendBinary(byte[] buffer);

    long SendPing(string text);

    bool Close(int status, string text);
}
