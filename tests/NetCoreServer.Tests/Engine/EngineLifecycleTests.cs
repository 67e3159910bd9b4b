using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Engine;
using NetCoreServer.Protocols.Http;
using NetCoreServer.Protocols.WebSockets;
using NetCoreServer.Tests.Support;
using NUnit.Framework;
using NetCoreServer.Transports;

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

    [Test]
    public async Task AConnectionClosedWhileItsReceiveWaitsEndsWithoutWaitingForThatReceiveToReturn()
    {
        var transport = new LateAbortTransport(tls: false);
        var host = new RecordingHost();
        var engine = Start(transport, host);
        engine.StartReceiving();

        engine.Abort(DisconnectReason.Local);

        // The runtime reports the abort of the pending receive through the thread pool, which may have no free thread.
        Assert.That(engine.Completion.IsCompleted, Is.True, "OnDisconnected ran before Abort returned, with the aborted receive not returned yet");
        Assert.That(host.Log.Snapshot(), Is.EqualTo(new[] { "disconnecting", "disconnected" }));
        Assert.That(host.Released, Is.True, "the host was released");
        Assert.That(transport.Disposed.IsCompleted, Is.False, "the transport is not disposed while a receive is inside it");

        transport.CompleteReceive(IoResult.Failed(SocketError.OperationAborted));
        await Wait.For(transport.Disposed, "the transport disposed once the receive returned");
        Assert.That(host.Log.Snapshot(), Is.EqualTo(new[] { "disconnecting", "disconnected" }), "no hook after OnDisconnected");
    }

    [Test]
    public async Task OnDisconnectedWaitsForAnOnEmptyThatIsStillRunning()
    {
        var transport = new InMemoryTransport();
        var host = new RecordingHost();
        var engine = Start(transport, host);
        var entered = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        using var release = new ManualResetEventSlim();
        host.OnEmpty = () =>
        {
            entered.TrySetResult();
            release.Wait(Wait.Default);
        };

        // The send completes at once; the sender then gives up its role and raises OnEmpty, which blocks.
        var sending = Task.Run(() => engine.Enqueue(new byte[10]));
        await Wait.For(entered.Task, "OnEmpty entered after the send");
        engine.Abort(DisconnectReason.Local);

        Assert.That(engine.Completion.IsCompleted, Is.False, $"OnDisconnected waits while OnEmpty runs; hooks: [{string.Join(", ", host.Log.Snapshot())}]");
        release.Set();
        await Wait.For(sending, "Enqueue returned once OnEmpty did");
        await Wait.For(engine.Completion, "OnDisconnected once OnEmpty returned");
        Assert.That(host.Log.Snapshot()[^1], Is.EqualTo("disconnected"), $"nothing after OnDisconnected: [{string.Join(", ", host.Log.Snapshot())}]");
    }

    [Test]
    public async Task ATlsConnectionStoppedBeforeItsHooksBeganClosesAtOnce()
    {
        var transport = new LateAbortTransport(tls: true);
        var host = new RecordingHost();
        var timeout = TimeSpan.FromSeconds(30);
        host.EngineOptions = new EngineOptions { DisconnectTimeout = timeout };
        var engine = new StreamSessionEngine(transport, host);

        // A server that stops between accepting the connection and starting it.
        Assert.That(engine.Disconnect(DisconnectReason.ServerStopped), Is.True);
        _ = engine.StartAccepted();

        await Wait.For(engine.Completion, $"the connection closed without waiting out its {timeout.TotalSeconds} s disconnect timeout (nothing can be sent before a TLS handshake, and none starts now)", timeout / 3);
        Assert.That(transport.Closed, Is.True, "the transport was closed");
        Assert.That(host.Log.Snapshot(), Is.Empty, "no hook for a connection stopped before its hooks began");
    }

    /// <summary>A blocking Send that waits for the test; asynchronous operations never complete until closed.</summary>
    private sealed class GatedSendTransport : IStreamTransport
    {
        private readonly TaskCompletionSource _entered = new(TaskCreationOptions.RunContinuationsAsynchronously);
        private readonly ManualResetEventSlim _complete = new();
        private readonly TaskCompletionSource<IoResult> _closed = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public Task SendEntered => _entered.Task;

        public ITlsInfo? Tls => null;

        public System.Net.EndPoint? AdmittedEndPoint { get; set; }

        public void CompleteSend() => _complete.Set();

        public ValueTask<SocketError> HandshakeAsync() => new(SocketError.Success);

        private ReceiveRelay? _relay;

        public bool TryReceive(Memory<byte> buffer, IReceiveCompletion completion, out IoResult result)
            => ReceiveRelay.Relay(ref _relay, ReceiveAsync(buffer), completion, out result);

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

        public System.Net.EndPoint? AdmittedEndPoint { get; set; }

        public ValueTask<SocketError> HandshakeAsync() => new(SocketError.Success);

        private ReceiveRelay? _relay;

        public bool TryReceive(Memory<byte> buffer, IReceiveCompletion completion, out IoResult result)
            => ReceiveRelay.Relay(ref _relay, ReceiveAsync(buffer), completion, out result);

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

    /// <summary>
    /// Receives wait until the test completes them, and Close does not complete them: the runtime's abort arrives late
    /// when the thread pool it is delivered through has no free thread. Optionally stands for TLS, whose handshake never
    /// starts in these tests.
    /// </summary>
    private sealed class LateAbortTransport(bool tls) : IStreamTransport, ITlsInfo
    {
        private readonly TaskCompletionSource<IoResult> _receive = new(TaskCreationOptions.RunContinuationsAsynchronously);
        private readonly TaskCompletionSource _disposed = new(TaskCreationOptions.RunContinuationsAsynchronously);
        private volatile bool _closed;

        public bool Closed => _closed;

        public Task Disposed => _disposed.Task;

        public ITlsInfo? Tls => tls ? this : null;

        public System.Net.EndPoint? AdmittedEndPoint { get; set; }

        public bool IsHandshaked => false;

        public Exception? HandshakeException => null;

        public System.Security.Authentication.SslProtocols Protocol => System.Security.Authentication.SslProtocols.None;

        public System.Net.Security.SslApplicationProtocol ApplicationProtocol => default;

        public System.Net.Security.TlsCipherSuite CipherSuite => default;

        public System.Security.Cryptography.X509Certificates.X509Certificate? RemoteCertificate => null;

        public void CompleteReceive(IoResult result) => _receive.TrySetResult(result);

        public ValueTask<SocketError> HandshakeAsync() => new(new TaskCompletionSource<SocketError>().Task);

        private ReceiveRelay? _relay;

        public bool TryReceive(Memory<byte> buffer, IReceiveCompletion completion, out IoResult result)
            => ReceiveRelay.Relay(ref _relay, ReceiveAsync(buffer), completion, out result);

        public ValueTask<IoResult> ReceiveAsync(Memory<byte> buffer) => new(_receive.Task);

        public ValueTask<IoResult> SendAsync(IReadOnlyList<ArraySegment<byte>> batch) => new(new TaskCompletionSource<IoResult>().Task);

        public IoResult Send(ReadOnlySpan<byte> data) => IoResult.Failed(SocketError.WouldBlock);

        public IoResult Receive(Span<byte> buffer) => IoResult.Failed(SocketError.WouldBlock);

        public ValueTask ShutdownSendAsync() => ValueTask.CompletedTask;

        public void Close() => _closed = true;

        public void Dispose() => _disposed.TrySetResult();
    }
}
