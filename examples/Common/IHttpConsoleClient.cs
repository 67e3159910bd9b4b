using System;
using System.Threading.Tasks;

namespace NetCoreServer.Examples;

/// <summary>
/// What <see cref="HttpClientConsole"/> needs of an HTTP client. <see cref="HttpClientEx"/> and
/// <see cref="HttpsClientEx"/> already have the first three; a client adds <see cref="Events"/>, fed from its
/// <c>OnConnected</c> and <c>OnError</c> hooks, so a failed request can say why (refused, a rejected certificate).
/// </summary>
public interface IHttpConsoleClient
{
    /// <summary>Sends a request, connecting first when needed, and completes with its response.</summary>
    /// <param name="request">The request.</param>
    /// <param name="timeout">How long to wait for connecting and the response.</param>
    /// <returns>The response, valid until the next request; the task fails with <see cref="TimeoutException"/>,
    /// <see cref="System.IO.IOException"/> or <see cref="System.IO.InvalidDataException"/>.</returns>
    Task<HttpResponse> SendRequest(HttpRequest request, TimeSpan? timeout = null);

    /// <summary>True while connected: the next request reuses the connection.</summary>
    bool IsConnected { get; }

    /// <summary>Closes the connection, if any.</summary>
    /// <returns>A task that completes once it is closed.</returns>
    Task DisconnectAndWaitAsync();

    /// <summary>What the client's hooks reported; the console clears it before each request.</summary>
    ConnectionEvents Events { get; }
}
