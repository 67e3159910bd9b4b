using System;
using System.Net.Sockets;

namespace NetCoreServer.Transports;

/// <summary>
/// The blocking send and receive of NetCoreServer's synchronous API on a plain socket, blocking or not: a non-blocking
/// one (on an event loop) waits in <see cref="Socket.Poll(int, SelectMode)"/>, bounded by the socket's send or receive
/// timeout as a blocking one is. On an event loop's thread the loop is handed on before the wait.
/// </summary>
internal static class BlockingCalls
{
    /// <summary>Sends every byte (or stops at the first error, with the count sent before it).</summary>
    public static IoResult Send(Socket socket, ReadOnlySpan<byte> data)
    {
        try
        {
            var sent = 0;
            while (sent < data.Length)
            {
                var n = socket.Send(data.Slice(sent), SocketFlags.None, out var error);
                if (error == SocketError.WouldBlock)
                {
                    ThreadRole.HandOffLoop();
                    if (!socket.Poll(Microseconds(socket.SendTimeout), SelectMode.SelectWrite))
                        return new IoResult(sent, SocketError.TimedOut);
                    continue;
                }
                if (error != SocketError.Success)
                    return new IoResult(sent, error);
                sent += n;
            }
            return new IoResult(sent, SocketError.Success);
        }
        catch (ObjectDisposedException)
        {
            return IoResult.Failed(SocketError.OperationAborted);
        }
    }

    /// <summary>Receives what is there, waiting for something first; zero bytes is the end of stream.</summary>
    public static IoResult Receive(Socket socket, Span<byte> buffer)
    {
        try
        {
            while (true)
            {
                var n = socket.Receive(buffer, SocketFlags.None, out var error);
                if (error != SocketError.WouldBlock)
                    return new IoResult(n, error);
                ThreadRole.HandOffLoop();
                if (!socket.Poll(Microseconds(socket.ReceiveTimeout), SelectMode.SelectRead))
                    return IoResult.Failed(SocketError.TimedOut);
            }
        }
        catch (ObjectDisposedException)
        {
            return IoResult.Failed(SocketError.OperationAborted);
        }
    }

    // The socket's timeouts (milliseconds, 0 for none) as Poll takes them.
    private static int Microseconds(int milliseconds) => milliseconds > 0 ? (int)Math.Min(int.MaxValue, milliseconds * 1000L) : -1;
}
