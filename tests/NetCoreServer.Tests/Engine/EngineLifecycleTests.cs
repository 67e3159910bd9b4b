using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Core;
using NetCoreServer.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Tests.Engine;

/// <summary>Teardown races in the engine, made deterministic with transports that block where the race used to be.</summary>
[TestFixture]
public sealed class EngineLifecycleTests
{
    private static StreamSessionEngine Start(IStreamTransport transport, RecordingHost host) => StreamSessionEngineTests.Start(transport, host);

    [Test]
    public async Task ABlockingSendThatSucceedsWhileTheConnectionIsClosedStillEndsWithOnDisconnected()
    {
        var transport = new GatedSendTransport();
        var host = new RecordingHost();
        var engine = Start(transport, host);

        var send = Task.Run(() => engine.SendBlocking(new byte[10]));
        await Wait.For(transport.SendEntered, "the blocking send reached the transport");
        engine.Abort(DisconnectReason.Local);
        transport.CompleteSend();

        Assert.That(await Wait.For(send, "Send returned"), Is.EqualTo(10), "the bytes were handed over before the close landed");
        await Wait.For(engine.Completion, "OnDisconnected after the blocking send returned");
        Assert.That(host.Log.Snapshot(), Is.EqualTo(new[] { "disconnecting", "disconnected" }));
        Assert.That(engine.State, Is.EqualTo(SessionState.Disconnected));
        Assert.That(host.Released, Is.True);
    }

    [Test]
    public async Task EveryGoodbyeAcceptedInOnDisconnectingGoesOutBeforeTheEndOfStream()
    {
        for (var round = 0; round < 200; round++)
        {
            var transport = new YieldingTransport();
            var host = new RecordingHost();
            var engine = Start(transport, host);
            long accepted = 0;
            host.OnDisconnecting = () =>
            {
                // Each accepted goodbye starts or feeds a send loop that completes on another thread, racing the shutdown.
                for (var i = 0; i < 50; i++)
                {
                    if (engine.Enqueue(new byte[7]) == SendStatus.Accepted)
                        accepted += 7;
                }
            };

            engine.Disconnect(DisconnectReason.Local);
            await Wait.For(engine.Completion, $"round {round}: engine finished");

            Assert.That(accepted, Is.EqualTo(350), $"round {round}: every goodbye from OnDisconnecting is accepted");
            Assert.That(transport.SentBeforeShutdown, Is.EqualTo(accepted), $"round {round}: all of it was sent before the end of stream");
            Assert.That(transport.SentAfterShutdown, Is.EqualTo(0), $"round {round}: nothing was written after the end of stream");
        }
    }

    [Test]
    public async Task DisconnectAndAbortRacingFromTwoThreadsNeverThrowAndFinishOnce()
    {
        for (var round = 0; round < 2000; round++)
        {
            var host = new RecordingHost();
            var engine = Start(new BlockingSendTransport(), host);
            engine.Enqueue(new byte[100]);
            using var go = new Barrier(2);
            var disconnect = Task.Run(() =>
            {
                go.SignalAndWait();
                engine.Disconnect(DisconnectReason.Local);
            });
            var abort = Task.Run(() =>
            {
                go.SignalAndWait();
                engine.Abort(DisconnectReason.Error);
            });
            await Wait.For(Task.WhenAll(disconnect, abort), $"round {round}: both calls returned without throwing");
            await Wait.For(engine.Completion, $"round {round}: engine finished");
            Assert.That(host.Log.Snapshot().Count(e => e == "disconnected"), Is.EqualTo(1), $"round {round}: OnDisconnected once");
        }
    }

    /// <summary>A blocking Send that waits for the test; asynchronous operations never complete until closed.</summary>
    private sealed class GatedSendTransport : IStreamTransport
    {
        private readonly TaskCompletionSource _entered = new(TaskCreationOptions.RunContinuationsAsynchronously);
        private readonly ManualResetEventSlim _complete = new();
        private readonly TaskCompletionSource<IoResult> _closed = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public Task SendEntered => _entered.Task;

        public ITlsInfo? Tls => null;

        public void CompleteSend() => _complete.Set();

        public ValueTask<SocketError> HandshakeAsync() => new(SocketError.Success);

        public ValueTask<IoResult> ReceiveAsync(Memory<byte> buffer) => new(_closed.Task);

        public ValueTask<IoResult> SendAsync(IReadOnlyList<ArraySegment<byte>> batch) => new(_closed.Task);

        public IoResult Send(ReadOnlySpan<byte> data)
        {
            _entered.TrySetResult();
            _complete.Wait(Wait.Default);
            return new IoResult(data.Length, SocketError.Success);
        }

        public IoResult Receive(Span<byte> buffer) => IoResult.Failed(SocketError.WouldBlock);

        public ValueTask ShutdownSendAsync() => ValueTask.CompletedTask;

        public void Close() => _closed.TrySetResult(IoResult.Failed(SocketError.OperationAborted));

        public void Dispose() => _complete.Dispose();
    }

    /// <summary>Sends complete on a thread-pool thread; records what was written before and after the end of stream.</summary>
    private sealed class YieldingTransport : IStreamTransport
    {
        private readonly TaskCompletionSource<IoResult> _closed = new(TaskCreationOptions.RunContinuationsAsynchronously);
        private long _beforeShutdown;
        private long _afterShutdown;
        private int _shutdown;

        public long SentBeforeShutdown => Interlocked.Read(ref _beforeShutdown);

        public long SentAfterShutdown => Interlocked.Read(ref _afterShutdown);

        public ITlsInfo? Tls => null;

        public ValueTask<SocketError> HandshakeAsync() => new(SocketError.Success);

        public ValueTask<IoResult> ReceiveAsync(Memory<byte> buffer) => new(_closed.Task);

        public async ValueTask<IoResult> SendAsync(IReadOnlyList<ArraySegment<byte>> batch)
        {
            await Task.Yield();
            var total = batch.Sum(segment => segment.Count);
            Interlocked.Add(ref Volatile.Read(ref _shutdown) == 0 ? ref _beforeShutdown : ref _afterShutdown, total);
            return new IoResult(total, SocketError.Success);
        }

        public IoResult Send(ReadOnlySpan<byte> data) => new(data.Length, SocketError.Success);

        public IoResult Receive(Span<byte> buffer) => IoResult.Failed(SocketError.WouldBlock);

        public ValueTask ShutdownSendAsync()
        {
            Volatile.Write(ref _shutdown, 1);
            return ValueTask.CompletedTask;
        }

        public void Close() => _closed.TrySetResult(IoResult.Failed(SocketError.OperationAborted));

        public void Dispose()
        {
        }
    }
}
