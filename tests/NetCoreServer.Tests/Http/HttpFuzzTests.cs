using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Text;
using NetCoreServer.Testing;
using NUnit.Framework;
using NetCoreServer.Protocols.Http;

namespace NetCoreServer.Tests.Http;

/// <summary>
/// Hostile input: a million seeded random and mutated requests (byte flips, insertions of HTTP's own delimiters and
/// keywords, deletions, truncations, duplications of a valid corpus, chunked bodies included) through the request
/// reader, and a smaller run of responses. Each input is read twice, whole and cut at random places (one byte at a
/// time now and then): no exception may escape, every read loop must end, the two readings must agree exactly (same
/// messages, same error status), and the message cache must stay within the limits. The seed is printed; set
/// HTTP_FUZZ_SEED to replay one.
/// </summary>
[TestFixture]
[NonParallelizable]
[Category(TestLeg.Isolated)] // its memory check reads the whole process's heap: other fixtures must not allocate meanwhile
public sealed class HttpFuzzTests
{
    private const int RequestInputs = 1_000_000;
    private const int ResponseInputs = 200_000;

    private static readonly byte[][] s_requests = Encode(
        "GET /index.html?q=1 HTTP/1.1\r\nHost: example.com\r\nUser-Agent: fuzz\r\nAccept: */*\r\nCookie: a=1; b=2\r\n\r\n",
        "POST /submit HTTP/1.1\r\nHost: a\r\nContent-Type: text/plain\r\nContent-Length: 11\r\n\r\nhello world",
        "POST /upload HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5;name=value\r\nhello\r\n6 ; x\r\n world\r\n0\r\nExpires: never\r\n\r\n",
        "PUT /x HTTP/1.1\r\nExpect: 100-continue\r\nTransfer-Encoding: chunked\r\n\r\n1a\r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\n\r\n",
        "GET /a HTTP/1.1\r\nHost: a\r\n\r\nPOST /b HTTP/1.1\r\nContent-Length: 3\r\n\r\nabcGET /c HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
        "GET / HTTP/1.0\r\n\r\n",
        "\r\nDELETE /item/7 HTTP/1.1\r\nHost: a\r\nConnection: close\r\nContent-Length: 0\r\n\r\n",
        "OPTIONS * HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n3\r\ndef\r\n0\r\nA: 1\r\nB: 2\r\n\r\n");

    private static readonly byte[][] s_responses = Encode(
        "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nhello",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nWiki\r\n5;e\r\npedia\r\n0\r\nX: t\r\n\r\n",
        "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\nHTTP/1.1 304 Not Modified\r\nContent-Length: 9\r\n\r\n",
        "HTTP/1.0 200 OK\r\nServer: x\r\n\r\nuntil the end of the stream");

    // What HTTP is built of: inserted at random places they make the near-misses a parser must get right.
    private static readonly byte[][] s_tokens = Encode(
        "\r\n", "\n", "\r", ":", " ", "\t", ",", ";", "=", "0", "5", "a", "\0", "\u007f", "\u00e9", "chunked", "gzip",
        "Content-Length: ", "Transfer-Encoding: chunked\r\n", "Transfer-Encoding: ", "Connection: close\r\n",
        "Expect: 100-continue\r\n", "\r\n\r\n", "0\r\n\r\n", "ffffffffffffffffff", "-1", "HTTP/1.1", "HTTP/2.0", " HTTP/1.1\r\n",
        "\r\n ", "GET / HTTP/1.1\r\n", "Host: x\r\n");

    private static readonly byte[] s_noise = "GET /HTP1.:\r\n 0ac;,"u8.ToArray();

    private static readonly HttpLimits s_small = new()
    {
        MaxRequestLineSize = 256,
        MaxHeadSize = 1024,
        MaxHeaderCount = 16,
        MaxBodySize = 4096,
        MaxChunkLineSize = 64,
    };

    [Test]
    public void RandomAndMutatedRequestsNeverThrowHangDisagreeOrGrowPastTheLimits()
    {
        var run = new FuzzRun(s_requests, request: true);
        run.Execute(RequestInputs);
    }

    [Test]
    public void RandomAndMutatedResponsesNeverThrowHangDisagreeOrGrowPastTheLimits()
    {
        var run = new FuzzRun(s_responses, request: false);
        run.Execute(ResponseInputs);
    }

    private static byte[][] Encode(params string[] texts) => texts.Select(Encoding.UTF8.GetBytes).ToArray();

    private sealed class FuzzRun
    {
        private const int MaxInput = 8192;

        private readonly byte[][] _corpus;
        private readonly bool _request;
        private readonly byte[] _input = new byte[MaxInput];
        private readonly byte[] _scratch = new byte[MaxInput];
        private readonly byte[] _pending = new byte[MaxInput];
        private readonly int[] _cuts = new int[MaxInput];
        // Whole and split readings under the defaults, then under the small limits: a message keeps its capacity.
        private readonly HttpRequest[] _requests = [new HttpRequest(), new HttpRequest(), new HttpRequest(), new HttpRequest()];
        private readonly HttpResponse[] _responses = [new HttpResponse(), new HttpResponse(), new HttpResponse(), new HttpResponse()];
        private readonly Dictionary<int, int> _outcomes = new();
        private Random _random = null!;
        private long _messages;

        public FuzzRun(byte[][] corpus, bool request)
        {
            _corpus = corpus;
            _request = request;
        }

        public void Execute(int inputs)
        {
            var seed = int.TryParse(Environment.GetEnvironmentVariable("HTTP_FUZZ_SEED"), out var fixedSeed) ? fixedSeed : Environment.TickCount;
            _random = new Random(seed);
            TestContext.Out.WriteLine($"{(_request ? "requests" : "responses")}: {inputs} inputs, seed {seed} (HTTP_FUZZ_SEED={seed} replays it)");
            GC.Collect();
            var memoryBefore = GC.GetTotalMemory(forceFullCollection: true);
            var clock = Stopwatch.StartNew();
            for (var i = 0; i < inputs; i++)
            {
                // Half under the defaults, half under small limits so that every limit is hit often.
                var limits = (i & 1) == 0 ? s_small : null;
                var length = Generate();
                var input = _input.AsSpan(0, length);
                try
                {
                    var slot = limits == null ? 0 : 2;
                    var whole = Read(input, 0, limits, slot);
                    var split = Read(input, Cut(length), limits, slot + 1);
                    if (whole != split)
                        Assert.Fail($"seed {seed}, input {i}: whole and split readings differ ({whole} vs {split}): {Show(input)}");
                    _outcomes[whole.Status] = _outcomes.GetValueOrDefault(whole.Status) + 1;
                }
                catch (Exception e) when (e is not AssertionException)
                {
                    Assert.Fail($"seed {seed}, input {i}: {e.GetType().Name} escaped: {e.Message}\n{Show(input)}\n{e.StackTrace}");
                }
            }
            clock.Stop();
            var memoryAfter = GC.GetTotalMemory(forceFullCollection: true);
            TestContext.Out.WriteLine($"{inputs} inputs in {clock.Elapsed.TotalSeconds:0.0} s; {_messages} messages read; outcomes (0 = no error): "
                + string.Join(", ", _outcomes.OrderBy(o => o.Key).Select(o => $"{o.Key}: {o.Value}")));
            TestContext.Out.WriteLine($"managed heap {memoryBefore / 1024} KiB before, {memoryAfter / 1024} KiB after");
            Assert.That(memoryAfter - memoryBefore, Is.LessThan(16L << 20), "memory stays bounded");
            Assert.That(clock.Elapsed, Is.LessThan(TimeSpan.FromSeconds(60)), "bounded time");
            Assert.That(_outcomes.Keys, Is.SupersetOf(_request ? new[] { 0, 400, 413, 414, 431 } : new[] { 0, 400 }), "valid inputs and every limit were reached");
            Assert.That(_messages, Is.GreaterThan(inputs / 20), "many inputs still parse");
        }

        /// <summary>Reads <paramref name="input"/> cut at the first <paramref name="cutCount"/> positions of <see cref="_cuts"/>; returns a digest of what was read.</summary>
        private (int Digest, int Messages, int Status) Read(ReadOnlySpan<byte> input, int cutCount, HttpLimits? limits, int slot)
        {
            HttpMessageReader reader = _request
                ? new HttpRequestReader(_requests[slot], limits)
                : new HttpResponseReader(_responses[slot], limits) { RequestMethod = "GET" };
            var cache = _request ? _requests[slot].Cache : _responses[slot].Cache;
            var effective = limits ?? new HttpLimits();
            var bound = effective.MaxHeadSize + effective.MaxBodySize;
            var digest = new HashCode();
            int start = 0, end = 0, previous = 0, messages = 0;
            for (var piece = 0; piece <= cutCount; piece++)
            {
                var next = piece < cutCount ? _cuts[piece] : input.Length;
                input[previous..next].CopyTo(_pending.AsSpan(end));
                end += next - previous;
                previous = next;
                var calls = 0;
                var callBound = 2 * (end - start) + 8;
                while (true)
                {
                    if (++calls > callBound)
                        throw new InvalidOperationException("the reader makes no progress (a hang)");
                    var result = reader.Read(_pending.AsSpan(start, end - start), out var consumed);
                    if (consumed < 0 || consumed > end - start)
                        throw new InvalidOperationException($"consumed {consumed} of {end - start}");
                    start += consumed;
                    if (cache.Size > bound || cache.Capacity > 2 * bound + 64)
                        throw new InvalidOperationException($"the message cache grew to {cache.Size} bytes ({cache.Capacity} capacity)");
                    if (result == HttpReadResult.MessageReady)
                    {
                        messages++;
                        Digest(ref digest, reader, cache);
                    }
                    else if (result == HttpReadResult.Error)
                    {
                        _messages += messages;
                        return (digest.ToHashCode(), messages, reader.ErrorStatus);
                    }
                    if (result == HttpReadResult.NeedMoreData)
                        break;
                }
            }
            var last = reader.Complete();
            if (last == HttpReadResult.MessageReady)
            {
                messages++;
                Digest(ref digest, reader, cache);
            }
            _messages += messages;
            return (digest.ToHashCode(), messages, last == HttpReadResult.Error ? reader.ErrorStatus : 0);
        }

        private static void Digest(ref HashCode digest, HttpMessageReader reader, Buffer cache)
        {
            digest.AddBytes(cache.Data.AsSpan(0, (int)cache.Size));
            digest.Add(reader.KeepAlive);
            digest.Add(reader.IsChunked);
            digest.Add(reader is HttpRequestReader request && request.ExpectContinue);
        }

        /// <summary>Random cut positions into <see cref="_cuts"/>; returns how many.</summary>
        private int Cut(int length)
        {
            if (length < 2)
                return 0;
            if (length <= 400 && _random.Next(20) == 0)
            {
                for (var i = 1; i < length; i++)
                    _cuts[i - 1] = i;
                return length - 1;
            }
            var count = 1 + _random.Next(Math.Min(4, length - 1));
            for (var i = 0; i < count; i++)
                _cuts[i] = 1 + _random.Next(length - 1);
            Array.Sort(_cuts, 0, count);
            return count;
        }

        /// <summary>Fills <see cref="_input"/>: mostly a mutated corpus entry, sometimes an intact one or random bytes.</summary>
        private int Generate()
        {
            var roll = _random.Next(100);
            if (roll < 3)
            {
                var noise = _random.Next(600);
                for (var i = 0; i < noise; i++)
                    _input[i] = _random.Next(4) == 0 ? (byte)_random.Next(256) : s_noise[_random.Next(s_noise.Length)];
                return noise;
            }
            var source = _corpus[_random.Next(_corpus.Length)];
            source.CopyTo(_input, 0);
            var length = source.Length;
            if (roll < 8)
                return length;
            var mutations = _random.Next(2) == 0 ? 1 : 2 + _random.Next(3);
            for (var m = 0; m < mutations; m++)
                length = Mutate(length);
            return length;
        }

        private int Mutate(int length)
        {
            var at = _random.Next(length + 1);
            switch (_random.Next(7))
            {
                case 0 when length > 0:
                    _input[Math.Min(at, length - 1)] = (byte)_random.Next(256);
                    return length;
                case 1 when length > 0:
                    _input[Math.Min(at, length - 1)] ^= (byte)(1 << _random.Next(8));
                    return length;
                case 2:
                {
                    var token = s_tokens[_random.Next(s_tokens.Length)];
                    return Insert(length, at, token);
                }
                case 3:
                {
                    var count = Math.Min(1 + _random.Next(8), length - at);
                    _input.AsSpan(at + count, length - at - count).CopyTo(_input.AsSpan(at));
                    return length - count;
                }
                case 4:
                    return _random.Next(length + 1);
                case 5:
                {
                    // Amplify: a slice repeated many times makes long lines, many fields, big chunks.
                    var from = _random.Next(length + 1);
                    var count = Math.Min(1 + _random.Next(32), length - from);
                    _input.AsSpan(from, count).CopyTo(_scratch);
                    for (var times = 2 + _random.Next(200); times > 0; times--)
                        length = Insert(length, at, _scratch.AsSpan(0, count));
                    return length;
                }
                default:
                {
                    var from = _random.Next(length + 1);
                    var count = Math.Min(_random.Next(64), length - from);
                    _input.AsSpan(from, count).CopyTo(_scratch);
                    return Insert(length, at, _scratch.AsSpan(0, count));
                }
            }
        }

        private int Insert(int length, int at, ReadOnlySpan<byte> bytes)
        {
            if (length + bytes.Length > MaxInput)
                return length;
            _input.AsSpan(at, length - at).CopyTo(_input.AsSpan(at + bytes.Length));
            bytes.CopyTo(_input.AsSpan(at));
            return length + bytes.Length;
        }

        private static string Show(ReadOnlySpan<byte> input) => Convert.ToHexString(input);
    }
}
