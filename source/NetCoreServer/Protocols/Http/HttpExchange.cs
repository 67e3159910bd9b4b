using System;
using System.IO;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Protocols.Http;

/// <summary>
/// Requests as tasks for <see cref="HttpClientEx"/> and <see cref="HttpsClientEx"/>: one request at a time on the
/// client's connection (connecting first when needed, reusing it while the server keeps it alive), each completing
/// with its response or failing with a clear exception: <see cref="TimeoutException"/> when no response came in time
/// (the connection is then closed, its state being unknown), <see cref="IOException"/> when the connection could not
/// be made or closed before the response, <see cref="InvalidDataException"/> when the response could not be read.
/// </summary>
internal sealed class HttpExchange
{
    /// <summary>NetCoreServer's default: a minute.</summary>
    public static readonly TimeSpan DefaultTimeout = TimeSpan.FromMinutes(1);

    private readonly SemaphoreSlim _gate = new(1, 1);
    private TaskCompletionSource<HttpResponse>? _pending;

    public async Task<HttpResponse> Send(IProtocolClient client, Func<bool> send, TimeSpan? timeout)
    {
        var limit = timeout ?? DefaultTimeout;
        using var expiry = new CancellationTokenSource(limit, client.OptionTimeProvider);
        try
        {
            await _gate.WaitAsync(expiry.Token).ConfigureAwait(false);
        }
        catch (OperationCanceledException)
        {
            throw new TimeoutException($"The HTTP request was not sent within {limit.TotalSeconds:0.###} s: earlier requests on this client still wait.");
        }
        try
        {
            if (!client.IsConnected && !await client.ConnectAndWaitAsync(expiry.Token).ConfigureAwait(false))
            {
                if (expiry.IsCancellationRequested)
                    throw new TimeoutException($"Connecting to {client.Endpoint} took more than {limit.TotalSeconds:0.###} s.");
                throw new IOException($"Could not connect to {client.Endpoint}.");
            }
            var pending = new TaskCompletionSource<HttpResponse>(TaskCreationOptions.RunContinuationsAsynchronously);
            Volatile.Write(ref _pending, pending);
            if (!send())
                throw new IOException($"The HTTP request could not be sent to {client.Endpoint}: the connection is closed.");
            try
            {
                return await pending.Task.WaitAsync(expiry.Token).ConfigureAwait(false);
            }
            catch (OperationCanceledException) when (expiry.IsCancellationRequested)
            {
                // Closed at once: a graceful close would wait for a server that is not answering.
                client.Abort(DisconnectReason.Timeout);
                throw new TimeoutException($"No HTTP response from {client.Endpoint} within {limit.TotalSeconds:0.###} s.");
            }
        }
        finally
        {
            Volatile.Write(ref _pending, null);
            _gate.Release();
        }
    }

    public void Answered(HttpResponse response) => Volatile.Read(ref _pending)?.TrySetResult(response);

    public void Refused(string error) => Volatile.Read(ref _pending)?.TrySetException(new InvalidDataException("The HTTP response could not be read: " + error));

    public void Closed() => Volatile.Read(ref _pending)?.TrySetException(new IOException("The connection closed before the HTTP response was complete."));
}
