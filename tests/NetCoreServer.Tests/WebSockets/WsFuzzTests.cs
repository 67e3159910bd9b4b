using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Text;
using NetCoreServer.Testing;
using NUnit.Framework;
using NetCoreServer.Protocols.WebSockets;

namespace NetCoreServer.Tests.WebSockets;

/// <summary>
/// Hostile input: 250,000 seeded random frame streams (valid messages, fragments, control frames, compressed messages,
/// every length encoding, both roles), most of them mutated (bit flips, byte changes, insertions, deletions,
/// truncations, duplicated ranges, header bits flipped). Each stream is decoded twice, whole and cut at random places
/// (one byte at a time now and then): no exception may escape, every loop must end, and the two decodings must agree
/// exactly (same events, same payloads, same close status). The seed is printed; set WS_FUZZ_SEED to replay one.
/// </summary>
[TestFixture]
[NonParallelizable]
[Category(TestLeg.Isolated)] // GC.GetTotalMemory is process-wide: other fixtures' live sockets would count against the bound.
public sealed class WsFuzzTests
{
    private const int Inputs = 250_000;
    private const int SmallLimit = 300;

    [Test]
    public void RandomAndMutatedFramesNeverThrowHangOrDisagree()
    {
        var seed = int.TryParse(Environment.GetEnvironmentVariable("WS_FUZZ_SEED"), out var fixedSeed) ? fixedSeed : Environment.TickCount;
        TestContext.Out.WriteLine($"{Inputs} inputs, seed {seed} (WS_FUZZ_SEED={seed} replays it)");
        var run = new FuzzRun(new Random(seed));
        GC.Collect();
        var memoryBefore = GC.GetTotalMemory(forceFullCollection: true);
        var clock = Stopwatch.StartNew();
        var outcomes = new Dictionary<int, int>();
        long events = 0, frames = 0;
        for (var i = 0; i < Inputs; i++)
        {
            var input = run.Generate(out var role, out var deflate, out var limit, out var frameCount);
            frames += frameCount;
            try
            {
                // With deflate: a decompressor kept across messages, or released after each (as for a peer without context takeover).
                var release = deflate && (i & 2) == 0;
                var whole = run.Decode(input, role, deflate, release, limit, split: false);
                var split = run.Decode(input, role, deflate, release, limit, split: true);
                if (whole != split)
                    Assert.Fail($"seed {seed}, input {i}: whole and split decodings differ ({whole} vs {split}), {role}, deflate {deflate}, limit {limit}: {Convert.ToHexString(input)}");
                outcomes[whole.Status] = outcomes.GetValueOrDefault(whole.Status) + 1;
                events += whole.Events;
            }
            catch (Exception e) when (e is not AssertionException)
            {
                Assert.Fail($"seed {seed}, input {i}: {e.GetType().Name} escaped: {e.Message}\n{Convert.ToHexString(input)}\n{e.StackTrace}");
            }
        }
        clock.Stop();
        var memoryAfter = GC.GetTotalMemory(forceFullCollection: true);
        TestContext.Out.WriteLine($"{Inputs} inputs ({frames} frames before mutation) in {clock.Elapsed.TotalSeconds:0.0} s; {events} events; outcomes (0 = no error): "
            + string.Join(", ", outcomes.OrderBy(o => o.Key).Select(o => $"{o.Key}: {o.Value}")));
        TestContext.Out.WriteLine($"managed heap {memoryBefore / 1024} KiB before, {memoryAfter / 1024} KiB after");
        Assert.That(memoryAfter - memoryBefore, Is.LessThan(16L << 20), "memory stays bounded");
        Assert.That(clock.Elapsed, Is.LessThan(TimeSpan.FromSeconds(120)), "bounded time");
        Assert.That(frames, Is.GreaterThanOrEqualTo(1_000_000), "at least a million frames went through the decoder");
        Assert.That(outcomes.Keys, Is.SupersetOf(new[] { 0, 1002, 1007, 1009 }), "clean streams and every failure status were reached");
        Assert.That(outcomes[0], Is.GreaterThan(Inputs / 10), "many streams still decode cleanly");
    }

    private sealed class FuzzRun
    {
        private const int MaxInput = 1 << 17;

        private readonly Random _random;
        private readonly byte[][] _compressed;
        private readonly List<byte> _stream = new(MaxInput);
        private byte[] _pending = new byte[MaxInput];
        private readonly byte[] _payload = new byte[70_000];

        public FuzzRun(Random random)
        {
            _random = random;
            // Compressed payloads made once: some independent, some referring back to the message before.
            using var independent = new WsDeflater(noContextTakeover: true);
            using var shared = new WsDeflater(noContextTakeover: false);
            var texts = new[] { "Hello", "Hello Hello", "", "κόσμε", new string('a', 500), "{\"op\":1,\"d\":[1,2,3]}", "\u20ac\ud834\udd1e" };
            _compressed = texts.Select(t => independent.Compress(Encoding.UTF8.GetBytes(t)).ToArray())
                .Concat(texts.Select(t => shared.Compress(Encoding.UTF8.GetBytes(t)).ToArray()))
                .Append([0x00])
                .Append([0xF3, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00, 0x00])
                .ToArray();
        }

        public byte[] Generate(out WsRole role, out bool deflate, out int limit, out int frames)
        {
            role = _random.Next(2) == 0 ? WsRole.Server : WsRole.Client;
            deflate = _random.Next(3) == 0;
            limit = _random.Next(4) == 0 ? SmallLimit : WsFrameDecoder.DefaultMaxMessageSize;
            var masked = role == WsRole.Server;
            _stream.Clear();
            frames = 0;
            var messages = _random.Next(1, 5);
            for (var m = 0; m < messages; m++)
                frames += AddMessage(masked, deflate);
            var mutations = _random.Next(10) < 7 ? _random.Next(1, 4) : 0;
            for (var k = 0; k < mutations; k++)
                Mutate();
            return _stream.ToArray();
        }

        /// <summary>Decodes <paramref name="input"/>; returns a digest of every event and the final status (0 when none failed).</summary>
        public (int Digest, int Events, int Status) Decode(byte[] input, WsRole role, bool deflate, bool release, int limit, bool split)
        {
            using var decoder = new WsFrameDecoder(role, deflate ? new WsInflater(release) : null, limit);
            if (_pending.Length < input.Length + WsFrameEncoder.MaxHeaderSize)
                _pending = new byte[input.Length + WsFrameEncoder.MaxHeaderSize];
            var digest = new HashCode();
            int start = 0, end = 0, previous = 0, events = 0;
            var byteByByte = split && _random.Next(20) == 0;
            do
            {
                var next = !split ? input.Length : byteByByte ? previous + 1 : Math.Min(input.Length, previous + _random.Next(1, 300));
                next = Math.Min(next, input.Length);
                input.AsSpan(previous, next - previous).CopyTo(_pending.AsSpan(end));
                end += next - previous;
                previous = next;
                // Every call consumes at least a whole header, or ends the loop: the calls are bounded by the bytes.
                var calls = 0;
                var bound = end - start + 2;
                while (true)
                {
                    if (++calls > bound)
                        throw new InvalidOperationException("the decoder makes no progress (a hang)");
                    var result = decoder.Read(_pending.AsSpan(start, end - start), out var consumed);
                    if (consumed < 0 || consumed > end - start)
                        throw new InvalidOperationException($"consumed {consumed} of {end - start}");
                    start += consumed;
                    if (result == WsDecodeResult.NeedMoreData)
                        break;
                    if (result == WsDecodeResult.Error)
                        return (digest.ToHashCode(), events, decoder.ErrorStatus);
                    events++;
                    digest.Add(result);
                    digest.Add(decoder.Opcode);
                    digest.Add(decoder.CloseStatus);
                    digest.AddBytes(decoder.Payload);
                    if (decoder.Payload.Count > limit)
                        throw new InvalidOperationException($"a message of {decoder.Payload.Count} bytes passed the limit of {limit}");
                }
                // The pending buffer keeps only what is unconsumed: a partial header at most, never a whole payload.
                if (end - start > WsFrameEncoder.MaxHeaderSize)
                    throw new InvalidOperationException($"{end - start} bytes left unconsumed");
                Array.Copy(_pending, start, _pending, 0, end - start);
                end -= start;
                start = 0;
            }
            while (previous < input.Length);
            return (digest.ToHashCode(), events, 0);
        }

        /// <summary>Appends one message (maybe fragmented, maybe with control frames inside) or one control frame; returns the frame count.</summary>
        private int AddMessage(bool masked, bool deflate)
        {
            var kind = _random.Next(10);
            if (kind < 2)
            {
                AddControl(masked);
                return 1;
            }
            if (deflate && kind < 5)
            {
                var compressed = _compressed[_random.Next(_compressed.Length)];
                if (compressed.Length > 2 && _random.Next(2) == 0)
                {
                    var cut = _random.Next(1, compressed.Length);
                    AddFrame(0x40 | 0x01, compressed.AsSpan(0, cut), masked);
                    AddFrame(0x80, compressed.AsSpan(cut), masked);
                    return 2;
                }
                AddFrame(0xC0 | 0x01, compressed, masked);
                return 1;
            }
            var text = _random.Next(2) == 0;
            var length = _random.Next(100) switch
            {
                0 => _random.Next(65_536, 70_000),
                < 10 => _random.Next(126, 400),
                _ => _random.Next(0, 126),
            };
            var payload = _payload.AsSpan(0, length);
            if (text)
                FillText(payload);
            else
                _random.NextBytes(payload);
            var fragments = _random.Next(3) == 0 ? _random.Next(2, 5) : 1;
            var frames = 0;
            var offset = 0;
            for (var f = 0; f < fragments; f++)
            {
                var size = f == fragments - 1 ? length - offset : _random.Next(0, length - offset + 1);
                var first = (f == fragments - 1 ? 0x80 : 0) | (f == 0 ? (text ? 0x01 : 0x02) : 0x00);
                AddFrame(first, payload.Slice(offset, size), masked);
                offset += size;
                frames++;
                if (f < fragments - 1 && _random.Next(3) == 0)
                {
                    AddControl(masked, allowClose: false);
                    frames++;
                }
            }
            return frames;
        }

        private void AddControl(bool masked, bool allowClose = true)
        {
            var which = _random.Next(allowClose ? 3 : 2);
            Span<byte> payload = stackalloc byte[_random.Next(0, 40)];
            _random.NextBytes(payload);
            if (which == 2)
            {
                // Empty, or a status (usually 1000, sometimes anything) and a short reason.
                var length = 0;
                if (_random.Next(5) != 0 && payload.Length >= 5)
                {
                    var status = _random.Next(4) == 0 ? _random.Next(0, 5000) : 1000;
                    payload[0] = (byte)(status >> 8);
                    payload[1] = (byte)status;
                    "bye"u8.CopyTo(payload[2..]);
                    length = 5;
                }
                AddFrame(0x88, payload[..length], masked);
                return;
            }
            FillText(payload);
            AddFrame(which == 0 ? 0x89 : 0x8A, payload, masked);
        }

        private void AddFrame(int first, ReadOnlySpan<byte> payload, bool masked)
        {
            Span<byte> header = stackalloc byte[WsFrameEncoder.MaxHeaderSize];
            var key = masked ? WsMask.NewKey() : 0;
            var opcode = (WsOpcode)(first & 0x0F);
            // Write the header by hand when the first byte is one the encoder would refuse.
            var size = WsFrameEncoder.WriteHeader(header, opcode, payload.Length, (first & 0x80) != 0, (first & 0x40) != 0 && !WsFrameEncoder.IsControl(opcode), masked, key);
            header[0] = (byte)first;
            foreach (var b in header[..size])
                _stream.Add(b);
            var start = _stream.Count;
            foreach (var b in payload)
                _stream.Add(b);
            if (masked)
            {
                var span = System.Runtime.InteropServices.CollectionsMarshal.AsSpan(_stream)[start..];
                WsMask.Apply(span, span, key);
            }
        }

        /// <summary>Random text: mostly ASCII, some 2-, 3- and 4-byte characters, valid UTF-8 except for a cut at the end.</summary>
        private void FillText(Span<byte> payload)
        {
            var i = 0;
            while (i < payload.Length)
            {
                var kind = _random.Next(10);
                ReadOnlySpan<byte> character = kind switch
                {
                    0 => "é"u8,
                    1 => "€"u8,
                    2 => "𝄞"u8,
                    _ => [(byte)_random.Next(0x20, 0x7F)],
                };
                var n = Math.Min(character.Length, payload.Length - i);
                character[..n].CopyTo(payload[i..]);
                i += n;
            }
        }

        private void Mutate()
        {
            if (_stream.Count == 0)
                return;
            var at = _random.Next(_stream.Count);
            switch (_random.Next(7))
            {
                case 0:
                    _stream[at] ^= (byte)(1 << _random.Next(8));
                    break;
                case 1:
                    _stream[at] = (byte)_random.Next(256);
                    break;
                case 2:
                    for (var k = _random.Next(1, 8); k > 0; k--)
                        _stream.Insert(at, (byte)_random.Next(256));
                    break;
                case 3:
                    _stream.RemoveRange(at, Math.Min(_random.Next(1, 16), _stream.Count - at));
                    break;
                case 4:
                    _stream.RemoveRange(at, _stream.Count - at);
                    break;
                case 5:
                    var length = Math.Min(_random.Next(1, 64), _stream.Count - at);
                    if (_stream.Count + length < MaxInput)
                        _stream.InsertRange(_random.Next(_stream.Count), _stream.GetRange(at, length));
                    break;
                default:
                    // A header bit: FIN, RSV1-3, an opcode bit, or the mask bit of a frame start (likely the first byte).
                    var header = _random.Next(2) == 0 ? 0 : Math.Min(at, _stream.Count - 1);
                    _stream[header] ^= (byte)(1 << _random.Next(8));
                    if (_stream.Count > header + 1 && _random.Next(2) == 0)
                        _stream[header + 1] ^= 0x80;
                    break;
            }
        }
    }
}
