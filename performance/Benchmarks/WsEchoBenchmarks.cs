using System;
using System.Linq;
using System.Net.Sockets;
using System.Threading.Tasks;
using BenchmarkDotNet.Attributes;
using NetCoreServer.Engine;
using NetCoreServer.Performance.Benchmarks.InMemory;
using NetCoreServer.Protocols.WebSockets;

namespace NetCoreServer.Performance.Benchmarks;

/// <summary>
/// One read of <see cref="Messages"/> WebSocket frames of 32 bytes echoed frame by frame from OnWsReceived, over an
/// in-memory transport: the framer's receive and send paths and the engine's batching of a read's answers, without a
/// socket. <see cref="Masked"/> echoes as a client (frames masked on their way into the send queue), otherwise as a
/// server. Steady state allocates nothing.
/// </summary>
[MemoryDiagnoser]
public class WsEchoBenchmarks
{
    private const int Size = 32;

    private byte[] _wire = [];
    private long _echoBytes;
    private EchoPair _pair = null!;

    /// <summary>Frames in one read.</summary>
    [Params(1, 100)]
    public int Messages { get; set; }

    /// <summary>The echoing side is a client (true: it masks what it sends) or a server.</summary>
    [Params(false, true)]
    public bool Masked { get; set; }

    /// <summary>
    /// Completions inline on the sender's thread (the default: the engines' CPU cost alone), or on the thread pool as
    /// a socket's are (the send loop then runs beside the receive thread); not a parameter of the BenchmarkDotNet run.
    /// </summary>
    public bool Inline { get; set; } = true;

    /// <summary>Connects a peer engine to an echoing WebSocket engine and checks one round.</summary>
    [GlobalSetup]
    public void Setup()
    {
        var payload = Enumerable.Range(0, Size).Select(i => (byte)i).ToArray();
        // What the echoing side reads: client frames (masked) for a server, server frames for a client.
        var inbound = new WsFrameWriter(Masked ? WsRole.Server : WsRole.Client);
        var frame = inbound.Prepare(WsOpcode.Binary, payload);
        var one = new byte[frame.Length];
        frame.CopyTo(one);
        _wire = Enumerable.Repeat(one, Messages).SelectMany(bytes => bytes).ToArray();
        _echoBytes = (long)Messages * WsFrameEncoder.FrameSize(Size, masked: Masked);

        _pair = new EchoPair(new WsEchoHost(Masked ? WsRole.Client : WsRole.Server), Size, Inline);
        _pair.RoundOrFail(_wire, _echoBytes);
        if (_pair.Peer.Received != _echoBytes)
            throw new InvalidOperationException("the echo did not come back whole");
    }

    /// <summary>Disconnects both engines.</summary>
    [GlobalCleanup]
    public void Cleanup() => _pair.Close();

    /// <summary>Sends the frames as one write and waits until every echo has arrived.</summary>
    [Benchmark]
    public ValueTask Round() => _pair.Round(_wire, _echoBytes);

    /// <summary>An upgraded connection's engine host whose OnWsReceived sends each message back.</summary>
    private sealed class WsEchoHost : BenchmarkHost, IWsConnectionHost
    {
        private readonly WsConnection _ws;

        public WsEchoHost(WsRole role) => _ws = new WsConnection(this, role, new WsHandshakeResult(null, null), new WsOptions());

        public override int EngineReceived(byte[] buffer, int offset, int size) => _ws.Received(buffer.AsSpan(offset, size));

        public void RaiseReceived(byte[] buffer, long offset, long size) => _ws.Send(WsOpcode.Binary, buffer.AsSpan((int)offset, (int)size), blocking: false);

        public void RaisePing(byte[] buffer, long offset, long size)
        {
        }

        public void RaisePong(byte[] buffer, long offset, long size)
        {
        }

        public void RaiseClose(byte[] buffer, long offset, long size, int status)
        {
        }

        public void RaiseError(string error) => Console.Error.WriteLine(error);

        public bool SendFrame(ref WsQueuedFrame frame) => Engine.EnqueueWritten(ref frame) == SendStatus.Accepted;

        public bool WaitSent() => true;

        public void Disconnect(DisconnectReason reason) => Engine.Disconnect(reason);

        public void Abort(DisconnectReason reason) => Engine.Abort(reason);
    }
}
