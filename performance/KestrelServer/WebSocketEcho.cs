using System;
using System.Net.WebSockets;
using System.Threading.Tasks;
using Microsoft.AspNetCore.Http;

namespace NetCoreServer.Performance.KestrelServer;

/// <summary>
/// The WebSocket echo of <c>ws|wss</c> (the second argument), what our EchoServer's ws and wss sessions do: the upgrade is
/// accepted on any path (our EchoClient asks for <c>/</c>), then every message goes back as it came, of the same type,
/// fragment by fragment through one 8 KiB buffer per connection, until the client closes.
/// </summary>
internal static class WebSocketEcho
{
    private const int BufferSize = 8192;

    /// <summary>Echoes on an upgrade request; hands anything else to <paramref name="next"/>.</summary>
    public static Task Answer(HttpContext context, RequestDelegate next)
        => context.WebSockets.IsWebSocketRequest ? EchoAsync(context) : next(context);

    private static async Task EchoAsync(HttpContext context)
    {
        using var socket = await context.WebSockets.AcceptWebSocketAsync();
        var buffer = new byte[BufferSize];
        var aborted = context.RequestAborted;
        try
        {
            while (true)
            {
                var received = await socket.ReceiveAsync(buffer.AsMemory(), aborted);
                if (received.MessageType == WebSocketMessageType.Close)
                {
                    await socket.CloseOutputAsync(socket.CloseStatus ?? WebSocketCloseStatus.NormalClosure, socket.CloseStatusDescription, aborted);
                    return;
                }
                await socket.SendAsync(buffer.AsMemory(0, received.Count), received.MessageType, received.EndOfMessage, aborted);
            }
        }
        catch (Exception exception) when (exception is WebSocketException or OperationCanceledException)
        {
            // The client went away without a close, or the server is stopping: either way this connection is over.
        }
    }
}
