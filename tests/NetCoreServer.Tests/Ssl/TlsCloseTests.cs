using System;
using System.IO;
using System.Net.Security;
using System.Net.Sockets;
using System.Threading.Tasks;
using NetCoreServer.Testing;
using NetCoreServer.Tests.Engine;
using NetCoreServer.Transports.Tls;
using NUnit.Framework;

namespace NetCoreServer.Tests.Ssl;

/// <summary>
/// A connection closed while its TLS handshake runs: the stream is not disposed under the handshake (which crashed the
/// process inside OpenSSL once), and it is disposed when the handshake ends.
/// </summary>
[TestFixture]
public sealed class TlsCloseTests
{
    // A disposed SslStream refuses a write with ObjectDisposedException; an open one not yet authenticated, otherwise.
    private static async Task<bool> IsDisposed(SslStream ssl)
    {
        try
        {
            await ssl.WriteAsync(new byte[1]);
            return false;
        }
        catch (ObjectDisposedException)
        {
            return true;
        }
        catch (Exception)
        {
            return false;
        }
    }

    [Test]
    public async Task ACloseDuringTheHandshakeLeavesTheStreamToTheHandshakeWhichDisposesItAsItEnds()
    {
        var started = new TaskCompletionSource<SslStream>(TaskCreationOptions.RunContinuationsAsynchronously);
        var release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var disposedUnderHandshake = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
        var transport = new TlsTransport(new InMemoryTransport { BlockWhenEmpty = true }, async (ssl, _, _) =>
        {
            started.TrySetResult(ssl);
            await release.Task;
            disposedUnderHandshake.TrySetResult(await IsDisposed(ssl));
            throw new IOException("the connection closed under the handshake");
        }, TimeSpan.FromSeconds(30));

        var handshake = transport.HandshakeAsync().AsTask();
        var stream = await Wait.For(started.Task, "the handshake to start");
        transport.Close();
        release.SetResult();

        Assert.That(await Wait.For(disposedUnderHandshake.Task, "the handshake to look at its stream"), Is.False, "the close left the running handshake's stream alone");
        Assert.That(await Wait.For(handshake, "the handshake to end"), Is.EqualTo(SocketError.OperationAborted));
        Assert.That(await IsDisposed(stream), Is.True, "disposed once the handshake ended");
    }

    [Test]
    public async Task ACloseBeforeTheHandshakeDisposesTheStreamAndTheHandshakeDoesNotStart()
    {
        var ran = false;
        var transport = new TlsTransport(new InMemoryTransport { BlockWhenEmpty = true }, (_, _, _) =>
        {
            ran = true;
            return Task.CompletedTask;
        }, TimeSpan.FromSeconds(30));

        transport.Close();

        Assert.That(await Wait.For(transport.HandshakeAsync().AsTask(), "the handshake"), Is.EqualTo(SocketError.OperationAborted));
        Assert.That(ran, Is.False);
    }
}
