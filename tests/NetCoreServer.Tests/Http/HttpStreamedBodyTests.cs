using System;
using System.Diagnostics;
using System.IO;
using System.Net;
using System.Net.Sockets;
using System.Security.Cryptography;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Testing;
using NUnit.Framework;
using NetCoreServer.Tests.Support;

namespace NetCoreServer.Tests.Http;

/// <summary>
/// Bodies larger than memory should hold: a static file over the cache's budget goes out from the disk in pieces
/// (whole, in ranges, with its validators), and a request body the session chooses to stream reaches
/// OnReceivedRequestBody piece by piece, past MaxBodySize. Driven by curl, a client nobody here wrote.
/// </summary>
[TestFixture]
public sealed class HttpStreamedBodyTests
{
    private const int MiB = 1024 * 1024;

    /// <summary>Streams the body of PUT /upload (up to StreamLimit) and answers with its length and SHA-256.</summary>
    private sealed class UploadServer() : HttpServer(IPAddress.Loopback, 0)
    {
        public int BoundPort => ((IPEndPoint)Endpoint).Port;

        public long StreamLimit { get; set; } = long.MaxValue;

        public volatile string? HookError;

        protected override TcpSession CreateSession() => new UploadSession(this);
    }

    /// <summary>What an upload session keeps of a streamed body: its length, its hash, how many pieces it came in.</summary>
    private sealed class UploadDigest
    {
        private IncrementalHash? _hash;
        private long _length;
        private int _pieces;

        public bool Streaming => _hash != null;

        public void Start()
        {
            _hash = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
            _length = 0;
            _pieces = 0;
        }

        public void Add(ReadOnlySpan<byte> piece)
        {
            _hash!.AppendData(piece);
            _length += piece.Length;
            _pieces++;
        }

        public string Finish(HttpRequest request)
        {
            var hash = Convert.ToHexStringLower(_hash!.GetHashAndReset());
            _hash.Dispose();
            _hash = null;
            return $"{_length} {hash} body={request.Body.Length} pieces>1={_pieces > 1}";
        }
    }

    private sealed class UploadSession(UploadServer server) : HttpSession(server)
    {
        private readonly UploadDigest _digest = new();

        protected override void OnReceivedRequestHeader(HttpRequest request)
        {
            if (request.Url != "/upload")
                return;
            _digest.Start();
            StreamRequestBody(server.StreamLimit);
        }

        protected override void OnReceivedRequestBody(HttpRequest request, ReadOnlySpan<byte> piece) => _digest.Add(piece);

        protected override void OnReceivedRequest(HttpRequest request)
            => SendResponseAsync(Response.Clear().SetBegin(200).SetBody(_digest.Streaming ? _digest.Finish(request) : $"kept {request.Body.Length}"));

        protected override void OnReceived(byte[] buffer, long offset, long size)
        {
            base.OnReceived(buffer, offset, size);
            try
            {
                StreamRequestBody();
                server.HookError = "StreamRequestBody outside OnReceivedRequestHeader did not throw";
            }
            catch (InvalidOperationException)
            {
            }
        }
    }

    private sealed class SecureUploadServer() : HttpsServer(SslTestTransport.DefaultServerContext(), IPAddress.Loopback, 0)
    {
        public int BoundPort => ((IPEndPoint)Endpoint).Port;

        protected override SslSession CreateSession() => new SecureUploadSession(this);
    }

    private sealed class SecureUploadSession(HttpsServer server) : HttpsSession(server)
    {
        private readonly UploadDigest _digest = new();

        protected override void OnReceivedRequestHeader(HttpRequest request)
        {
            _digest.Start();
            StreamRequestBody();
        }

        protected override void OnReceivedRequestBody(HttpRequest request, ReadOnlySpan<byte> piece) => _digest.Add(piece);

        protected override void OnReceivedRequest(HttpRequest request) => SendResponseAsync(Response.Clear().SetBegin(200).SetBody(_digest.Finish(request)));
    }

    private static UploadServer StartUpload(Action<UploadServer>? configure = null)
    {
        var server = new UploadServer();
        server.Http.MaxBodySize = MiB;
        configure?.Invoke(server);
        server.Start();
        return server;
    }

    private static string WritePattern(string directory, string name, long length)
    {
        var path = Path.Combine(directory, name);
        using var file = File.Create(path);
        var block = new byte[64 * 1024];
        for (long written = 0; written < length; written += block.Length)
        {
            for (var i = 0; i < block.Length; i++)
                block[i] = (byte)((written + i) * 31 >> 3);
            file.Write(block, 0, (int)Math.Min(block.Length, length - written));
        }
        return path;
    }

    private static string Sha256Of(string path)
    {
        using var file = File.OpenRead(path);
        return Convert.ToHexStringLower(SHA256.HashData(file));
    }

    private static async Task<(string Status, string Body)> Curl(params string[] options)
    {
        var run = await ExternalTool.Run(ExternalTool.Require("curl"), ["-sS", "--max-time", "60", "-w", "\n%{http_code}", .. options], TimeSpan.FromSeconds(90));
        var split = run.Output.LastIndexOf('\n');
        return (run.Output[(split + 1)..], run.Output[..Math.Max(split, 0)]);
    }

    [Test]
    public async Task AnUploadPastMaxBodySizeReachesTheBodyHookPieceByPiece()
    {
        using var tree = new TempTree();
        var upload = WritePattern(tree.Root, "upload.bin", 20 * MiB + 123);
        var expected = $"{20 * MiB + 123} {Sha256Of(upload)} body=0 pieces>1=True";
        using var server = StartUpload();
        var url = $"http://127.0.0.1:{server.BoundPort}/upload";

        var (status, body) = await Curl("-X", "PUT", "--data-binary", "@" + upload, url);
        Assert.That((status, body), Is.EqualTo(("200", expected)), "a Content-Length body, 20 times MaxBodySize, streamed whole");

        (status, body) = await Curl("-X", "PUT", "-H", "Transfer-Encoding: chunked", "--data-binary", "@" + upload, url);
        Assert.That((status, body), Is.EqualTo(("200", expected)), "the same body chunked: chunk coding removed");

        (status, body) = await Curl("-X", "PUT", "--data-binary", "@" + upload, $"http://127.0.0.1:{server.BoundPort}/kept");
        Assert.That(status, Is.EqualTo("413"), "a request the session does not stream keeps MaxBodySize");

        (status, body) = await Curl("-X", "PUT", "--data-binary", "small", $"http://127.0.0.1:{server.BoundPort}/kept");
        Assert.That((status, body), Is.EqualTo(("200", "kept 5")), "and a body under it is kept in the request as before");
        Assert.That(server.HookError, Is.Null);
    }

    [Test]
    public async Task AnUploadOverTlsStreamsTheSameWay()
    {
        using var tree = new TempTree();
        var upload = WritePattern(tree.Root, "upload.bin", 8 * MiB + 5);
        using var server = new SecureUploadServer();
        server.Http.MaxBodySize = MiB;
        server.Start();

        var (status, body) = await Curl("-k", "-X", "PUT", "-H", "Transfer-Encoding: chunked", "--data-binary", "@" + upload, $"https://127.0.0.1:{server.BoundPort}/upload");
        Assert.That((status, body), Is.EqualTo(("200", $"{8 * MiB + 5} {Sha256Of(upload)} body=0 pieces>1=True")));
    }

    [Test]
    public async Task AStreamedBodyOverItsOwnLimitIsAnswered413()
    {
        using var tree = new TempTree();
        var upload = WritePattern(tree.Root, "upload.bin", 3 * MiB);
        using var server = StartUpload(s => s.StreamLimit = 2 * MiB);
        var url = $"http://127.0.0.1:{server.BoundPort}/upload";

        var (status, _) = await Curl("-X", "PUT", "--data-binary", "@" + upload, url);
        Assert.That(status, Is.EqualTo("413"), "a declared length over the session's limit");

        (status, _) = await Curl("-X", "PUT", "-H", "Transfer-Encoding: chunked", "--data-binary", "@" + upload, url);
        Assert.That(status, Is.EqualTo("413"), "a chunked body once it passes the limit");
    }

    [Test]
    public async Task AFileOverTheCacheBudgetIsServedFromTheDiskWholeInRangesAndWithValidators()
    {
        using var tree = new TempTree();
        var path = WritePattern(tree.Www, "big.bin", 5 * MiB + 7);
        tree.Write("small.txt", "small");
        var content = await File.ReadAllBytesAsync(path);
        using var server = StartUpload(s =>
        {
            s.Cache.MaxTotalSize = MiB;
            s.AddStaticContent(tree.Www, "/static");
        });
        var url = $"http://127.0.0.1:{server.BoundPort}/static/big.bin";
        using var output = new TempTree();
        var saved = Path.Combine(output.Root, "got.bin");
        var headers = saved + ".h";

        var (status, _) = await Curl("-o", saved, "-D", headers, url);
        Assert.That(status, Is.EqualTo("200"));
        Assert.That(Sha256Of(saved), Is.EqualTo(Sha256Of(path)), "the whole file");
        var head = await File.ReadAllTextAsync(headers);
        Assert.That(head, Does.Contain($"Content-Length: {content.Length}").And.Contain("Content-Type: application/octet-stream"));
        var etag = head.Split("\r\n")[Array.FindIndex(head.Split("\r\n"), l => l.StartsWith("ETag: "))]["ETag: ".Length..];

        (status, _) = await Curl("-o", saved, "-D", headers, "-r", "1000000-1000099", url);
        Assert.That(status, Is.EqualTo("206"));
        Assert.That(await File.ReadAllBytesAsync(saved), Is.EqualTo(content[1000000..1000100]));
        Assert.That(await File.ReadAllTextAsync(headers), Does.Contain($"Content-Range: bytes 1000000-1000099/{content.Length}"));

        (status, _) = await Curl("-o", saved, "-r", "-10", url);
        Assert.That((status, await File.ReadAllBytesAsync(saved)), Is.EqualTo(("206", content[^10..])), "the last ten bytes");

        (status, _) = await Curl("-o", saved, "-r", $"{content.Length}-", url);
        Assert.That(status, Is.EqualTo("416"));

        (status, _) = await Curl("-o", saved, "-H", "If-None-Match: " + etag, url);
        Assert.That(status, Is.EqualTo("304"), "the validators work as for a cached file");

        (status, var sizes) = await Curl("-o", "/dev/null", "-D", headers, "-I", "-w", "%{size_download}\n%{http_code}", url);
        Assert.That((status, sizes), Is.EqualTo(("200", "0")), "HEAD: the head only");
        Assert.That(await File.ReadAllTextAsync(headers), Does.Contain($"Content-Length: {content.Length}"));

        (status, var small) = await Curl($"http://127.0.0.1:{server.BoundPort}/static/small.txt");
        Assert.That((status, small), Is.EqualTo(("200", "small")), "a file that fits is cached as before");
        Assert.That(server.Cache.TotalSize, Is.LessThan(MiB), "the large file was never read into the cache");
    }

    // It reads the process's working set: alone (isolated lane), not beside other tests' servers.
    [Test]
    [NonParallelizable]
    [Category(TestLeg.Isolated)]
    [CancelAfter(240_000)]
    public async Task ATwoGiBFileIsStreamedWithTheProcessMemoryFlat()
    {
        const long length = 2L * 1024 * MiB;
        using var tree = new TempTree();
        var path = Path.Combine(tree.Www, "huge.bin");
        // Sparse: no disk is used; marks at the start, the middle and the end show the right bytes arrive there.
        using (var file = new FileStream(path, FileMode.CreateNew))
        {
            file.SetLength(length);
            foreach (var at in new[] { 0L, length / 2, length - 4 })
            {
                file.Position = at;
                file.Write("MARK"u8);
            }
        }
        using var server = StartUpload(s => s.AddStaticContent(tree.Www, "/static"));
        var url = $"http://127.0.0.1:{server.BoundPort}/static/huge.bin";

        GC.Collect();
        GC.WaitForPendingFinalizers();
        var allocatedBefore = GC.GetTotalAllocatedBytes(precise: true);
        using var self = Process.GetCurrentProcess();
        self.Refresh();
        var baseline = self.WorkingSet64;
        long peak = baseline;
        using var sampling = new CancellationTokenSource();
        var sampler = Task.Run(async () =>
        {
            while (!sampling.IsCancellationRequested)
            {
                self.Refresh();
                peak = Math.Max(peak, self.WorkingSet64);
                await Task.Delay(50);
            }
        });

        var (status, size) = await Curl("-o", "/dev/null", "-w", "%{size_download}\n%{http_code}", url);
        var (_, middle) = await Curl("-r", $"{length / 2}-{length / 2 + 3}", url);
        var (_, end) = await Curl("-r", "-4", url);
        sampling.Cancel();
        await sampler;

        Assert.That(status, Is.EqualTo("200"));
        Assert.That(size, Is.EqualTo(length.ToString()), "every byte of the 2 GiB arrived");
        Assert.That((middle, end), Is.EqualTo(("MARK", "MARK")));
        var grown = (peak - baseline) / MiB;
        var allocated = (GC.GetTotalAllocatedBytes(precise: true) - allocatedBefore) / MiB;
        TestContext.Out.WriteLine($"RSS before {baseline / MiB} MiB, peak while streaming {peak / MiB} MiB (+{grown} MiB); {allocated} MiB allocated");
        // Alone this grows by about 10 MiB and allocates about 3 MiB; beside other tests' servers (before it moved to the
        // isolated lane) +47 to +572 MiB. The bound is a quarter of the file: what a copy of the file, or of any large
        // part of it, could not stay under.
        Assert.That(grown, Is.LessThan(512), "the process grew far less than the file: it was never whole in memory");
    }
}
