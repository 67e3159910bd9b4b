using System;
using NetCoreServer.Transports;

namespace NetCoreServer;

/// <summary>
/// Diagnostics of the library's own epoll event loops (<c>OptionEventLoops</c> of stream servers and clients). The loops
/// are process-wide threads; a failure inside one that no connection can be told of is reported here.
/// </summary>
public static class EventLoops
{
    /// <summary>
    /// Raised on the loop's thread for what an event loop caught instead of dying. Handlers must be quick; what they throw
    /// is dropped. A hook's own exception never comes here: it goes to the connection's <c>OnHandlerException</c>.
    /// </summary>
    /// <remarks>
    /// Two kinds arrive: an exception from the library's own code while serving a connection (its socket is then closed:
    /// a read or send it had waiting ends with <c>OnError(SocketError.SocketError)</c> and the disconnect), or an
    /// unexpected <c>epoll_wait</c> error (a <see cref="System.Net.Sockets.SocketException"/>, raised once per streak;
    /// the loop retries, backing off to one second). See docs/design/event-loops.md.
    /// </remarks>
    public static event Action<Exception>? Error
    {
        add => LoopFaults.Raised += value;
        remove => LoopFaults.Raised -= value;
    }
}
