using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Net;
using System.Security.Cryptography;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Testing;

namespace NetCoreServer.Tests.Http2;

/// <summary>
/// An <see cref="HttpServer"/> whose sessions stream uploads as a NetCoreServer user does (StreamRequestBody from
/// OnReceivedRequestHeader, pieces in OnReceivedRequestBody), for the HTTP/2 streamed-body tests. Routes: PUT /upload
/// (answers "parts total sha256 bodyLength"), PUT /upload-detached (the same, its handle taken in the header hook so the
/// hooks go on to other streams while it arrives), PUT /buffered (not streamed: the body comes whole), GET /hello.
/// </summary>
internal sealed class Http2UploadServer : HttpServer
{
    private int _inHooks;

    public Http2UploadServer()
        : base(IPAddress.Loopback, 0)
    {
    }

    /// <summary>The limit the header hook gives StreamRequestBody.</summary>
    public long StreamLimit { get; set; } = long.MaxValue;

    /// <summary>Completed by the test to let the first body piece return (it waits in the hook until then).</summary>
    public TaskCompletionSource? HoldFirstPiece { get; set; }

    /// <summary>Completed when the first body piece reached its hook.</summary>
    public TaskCompletionSource FirstPiece { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

    /// <summary>Body bytes handed to OnReceivedRequestBody so far, over all requests.</summary>
    public long Delivered => Interlocked.Read(ref _delivered);

    private long _delivered;

    /// <summary>Hook calls in order: "header PUT /upload", "body", "request PUT /upload", "error ...".</summary>
    public ConcurrentQueue<string> Seen { get; } = new();

    /// <summary>Set when two hooks of one connection ran at once.</summary>
    public bool Overlapped { get; private set; }

    protected override TcpSession CreateSession() => new Session(this);

    private sealed class Upload : IDisposable
    {
        public IncrementalHash Hash { get; } = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);

        public int Parts { get; set; }

        public long Total { get; set; }

        public HttpRequestHandle? Handle { get; set; }

        public void Dispose() => Hash.Dispose();
    }

    private sealed class Session(Http2UploadServer server) : HttpSession(server)
    {
        // Per request: with a detached upload, another request's hooks may run between its pieces.
        private readonly Dictionary<HttpRequest, Upload> _uploads = new(ReferenceEqualityComparer.Instance);

        protected override void OnReceivedRequestHeader(HttpRequest request) => Hook(() =>
        {
            server.Seen.Enqueue("header " + request.Method + " " + request.Url);
            if (request.Url is "/upload" or "/upload-detached")
            {
                _uploads[request] = new Upload { Handle = request.Url == "/upload-detached" ? request.Handle : null };
                StreamRequestBody(server.StreamLimit);
            }
        });

        // Without a closure or a copy: the upload tests measure what the server allocates around this hook.
        protected override void OnReceivedRequestBody(HttpRequest request, ReadOnlySpan<byte> piece)
        {
            if (Interlocked.Increment(ref server._inHooks) > 1)
                server.Overlapped = true;
            try
            {
                server.Seen.Enqueue("body");
                var upload = _uploads[request];
                upload.Parts++;
                upload.Total += piece.Length;
                upload.Hash.AppendData(piece);
                Interlocked.Add(ref server._delivered, piece.Length);
                if (upload.Parts == 1)
                {
                    server.FirstPiece.TrySetResult();
                    server.HoldFirstPiece?.Task.Wait(Wait.Default);
                }
            }
            finally
            {
                Interlocked.Decrement(ref server._inHooks);
            }
        }

        protected override void OnReceivedRequest(HttpRequest request) => Hook(() =>
        {
            server.Seen.Enqueue("request " + request.Method + " " + request.Url);
            if (_uploads.Remove(request, out var upload))
            {
                using (upload)
                {
                    var text = $"{upload.Parts} {upload.Total} {Convert.ToHexString(upload.Hash.GetHashAndReset())} {request.BodySpan.Length}";
                    var response = new HttpResponse().MakeGetResponse(text);
                    if (upload.Handle != null)
                        upload.Handle.SendResponseAsync(response);
                    else
                        SendResponseAsync(response);
                }
            }
            else if (request.Url == "/buffered")
            {
                SendResponseAsync(Response.MakeGetResponse($"{request.BodySpan.Length} {Convert.ToHexString(SHA256.HashData(request.BodySpan))}"));
            }
            else
            {
                SendResponseAsync(Response.MakeGetResponse("Hello, World!"));
            }
        });

        protected override void OnReceivedRequestError(HttpRequest request, string error)
        {
            server.Seen.Enqueue("error " + error);
            if (_uploads.Remove(request, out var upload))
                upload.Dispose();
        }

        private void Hook(Action action)
        {
            if (Interlocked.Increment(ref server._inHooks) > 1)
                server.Overlapped = true;
            try
            {
                action();
            }
            finally
            {
                Interlocked.Decrement(ref server._inHooks);
            }
        }
    }
}
