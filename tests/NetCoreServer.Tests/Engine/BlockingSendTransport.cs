using System;
using System.Collections.Generic;
using System.Net.Sockets;
using System.Threading.Tasks;
using NetCoreServer.Engine;
using NetCoreServer.Transports;

namespace NetCoreServer.Tests.Engine;

/// <summary>A transport whose sends never complete until it is closed (a peer that stopped reading).</summary>
internal sealed class BlockingSendTransport : IStreamTransport
{
    private readonly TaskCompletionSource<IoResult> _closed = new(TaskCreationOptions.RunContinuationsAsynchronously);

    public ITlsInfo? Tls => null;

    public System.Net.EndPoint? AdmittedEndPoint { get; set; }

    public ValueTask<SocketError> HandshakeAsync() => new(SocketError.Success);

    private ReceiveRelay? _relay;

    public bool TryReceive(Memory<byte> buffer, IReceiveCompletion completion, out IoResult result)
        => ReceiveRelay.Relay(ref _relay, ReceiveAsync(buffer), completion, out result);

    public ValueTask<IoResult> ReceiveAsync(Memory<byte> buffer) => new(_closed.Task);

    public ValueTask<IoResult> SendAsync(IReadOnlyList<ArraySegment<byte>> batch) => new(_closed.Task);

    public IoResult Send(ReadOnlySpan<byte> data) => IoResult.Failed(SocketError.WouldBlock);

    public IoResult Receive(Span<byte> buffer) => IoResult.Failed(SocketError.WouldBlock);

    public ValueTask ShutdownSendAsync() => ValueTask.CompletedTask;

    public void Close() => _closed.TrySetResult(IoResult.Failed(SocketError.OperationAborted));

    public void Dispose()
    {
    }
}
