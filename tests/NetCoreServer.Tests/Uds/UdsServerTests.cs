using System;
using System.Diagnostics;
using System.IO;
using System.Threading;
using System.Threading.Tasks;
using System.Net.Sockets;
using NetCoreServer.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Tests.Uds;

/// <summary>What only Unix domain sockets have: the socket file.</summary>
[TestFixture]
public sealed class UdsServerTests
{
    private const string LinuxOnly = "the file type and identity are read on Linux; elsewhere UdsServer keeps NetCoreServer's behaviour";

    [Test]
    public void StopRemovesTheSocketFile()
    {
        var path = UdsTestTransport.NewPath();
        using var server = new UdsServer(path);
        Assert.That(server.Start(), Is.True);
        Assert.That(File.Exists(path), Is.True, "socket file created by Start");
        Assert.That(server.Stop(), Is.True);
        Assert.That(File.Exists(path), Is.False, "socket file removed by Stop");
    }

    [Test]
    public void AStaleSocketFileFromADeadServerIsReplaced()
    {
        var socat = ExternalTool.Require("socat");
        var path = UdsTestTransport.NewPath();
        // A listener killed with SIGKILL leaves exactly what a crashed server leaves: the file, and nobody behind it.
        // (.NET unlinks the file when its own socket is disposed, so another process plays the crashed server.)
        using (var dead = Process.Start(new ProcessStartInfo(socat, $"UNIX-LISTEN:{path} -") { UseShellExecute = false, RedirectStandardInput = true })!)
        {
            for (var i = 0; i < 100 && !File.Exists(path); i++)
                Thread.Sleep(20);
            dead.Kill();
            dead.WaitForExit(5000);
        }
        Assert.That(File.Exists(path), Is.True, "stale file present");

        using var server = new UdsServer(path);
        Assert.That(server.Start(), Is.True, "Start succeeds over a stale file");
        using var client = new UdsClient(path);
        Assert.That(client.Connect(), Is.True, "the new server answers on the path");
        client.Disconnect();
        server.Stop();
    }

    [Test]
    public void StartingOnAPathALiveServerUsesFailsWithAddressAlreadyInUse()
    {
        var path = UdsTestTransport.NewPath();
        using var live = new UdsServer(path);
        Assert.That(live.Start(), Is.True);
        using var second = new UdsServer(path);

        var error = Assert.Throws<SocketException>(() => second.Start());
        Assert.That(error!.SocketErrorCode, Is.EqualTo(SocketError.AddressAlreadyInUse));
        Assert.That(File.Exists(path), Is.True, "the live server's file is left alone");
        using var client = new UdsClient(path);
        Assert.That(client.Connect(), Is.True, "the live server still answers");
        client.Disconnect();
        live.Stop();
    }

    [Test]
    [Platform("Linux", Reason = LinuxOnly)]
    public void StartingOnAPathHoldingARegularFileFailsAndLeavesTheFile()
    {
        var path = UdsTestTransport.NewPath();
        File.WriteAllText(path, "not a socket");
        try
        {
            using var server = new UdsServer(path);
            var error = Assert.Throws<SocketException>(() => server.Start());
            Assert.That(error!.SocketErrorCode, Is.EqualTo(SocketError.AddressAlreadyInUse));
            Assert.That(File.ReadAllText(path), Is.EqualTo("not a socket"), "the regular file is left untouched");
            Assert.That(server.IsStarted, Is.False);
        }
        finally
        {
            File.Delete(path);
        }
    }

    [Test]
    public void StartingOnAPathHoldingADirectoryFailsAndLeavesTheDirectory()
    {
        var path = UdsTestTransport.NewPath();
        Directory.CreateDirectory(path);
        try
        {
            using var server = new UdsServer(path);
            var error = Assert.Throws<SocketException>(() => server.Start());
            Assert.That(error!.SocketErrorCode, Is.EqualTo(SocketError.AddressAlreadyInUse));
            Assert.That(Directory.Exists(path), Is.True, "the directory is left untouched");
        }
        finally
        {
            Directory.Delete(path);
        }
    }

    [Platform("Linux", Reason = LinuxOnly)]
    [TestCase(true, TestName = "StartingOnASymlinkToARegularFileFailsAndLeavesTheLink")]
    [TestCase(false, TestName = "StartingOnADanglingSymlinkFailsAndLeavesTheLink")]
    public void StartingOnASymlinkFailsAndLeavesTheLink(bool targetExists)
    {
        var path = UdsTestTransport.NewPath();
        var target = path + ".target";
        if (targetExists)
            File.WriteAllText(target, "the link's target");
        File.CreateSymbolicLink(path, target);
        try
        {
            using var server = new UdsServer(path);
            var error = Assert.Throws<SocketException>(() => server.Start());
            Assert.That(error!.SocketErrorCode, Is.EqualTo(SocketError.AddressAlreadyInUse));
            Assert.That(new FileInfo(path).LinkTarget, Is.EqualTo(target), "the link is left untouched");
            if (targetExists)
                Assert.That(File.ReadAllText(target), Is.EqualTo("the link's target"), "the target is left untouched");
        }
        finally
        {
            File.Delete(path);
            File.Delete(target);
        }
    }

    [Test]
    [Platform("Linux", Reason = LinuxOnly)]
    public void StopLeavesTheSocketFileOfANewerServerOnThePath()
    {
        var path = UdsTestTransport.NewPath();
        using var older = new UdsServer(path);
        Assert.That(older.Start(), Is.True);
        // The older server's file disappears (removed by hand, or by a cleanup job) and a newer server takes the path.
        File.Delete(path);
        using var newer = new UdsServer(path);
        Assert.That(newer.Start(), Is.True);

        Assert.That(older.Stop(), Is.True);

        Assert.That(File.Exists(path), Is.True, "the newer server's socket file survives the older server's Stop");
        using (var client = new UdsClient(path))
        {
            Assert.That(client.Connect(), Is.True, "the newer server still answers on the path");
            client.Disconnect();
        }
        Assert.That(newer.Stop(), Is.True);
        Assert.That(File.Exists(path), Is.False, "the newer server removes its own file on Stop");
    }

    [Test]
    [Platform("Linux", Reason = LinuxOnly)]
    public void StopLeavesAFileThatReplacedTheSocketFile()
    {
        var path = UdsTestTransport.NewPath();
        using var server = new UdsServer(path);
        Assert.That(server.Start(), Is.True);
        File.Delete(path);
        File.WriteAllText(path, "someone else's");
        try
        {
            Assert.That(server.Stop(), Is.True);
            Assert.That(File.Exists(path) && File.ReadAllText(path) == "someone else's", Is.True, "the file that took the path is left alone");
        }
        finally
        {
            File.Delete(path);
        }
    }

    [Test]
    public async Task ClosingASessionLeavesTheServersSocketFile()
    {
        var path = UdsTestTransport.NewPath();
        using var server = new ObservedServer(path);
        Assert.That(server.Start(), Is.True);
        using (var client = new UdsClient(path))
        {
            Assert.That(client.Connect(), Is.True);
            client.Disconnect();
        }
        await Wait.For(server.SessionClosed.Task, "the server session's OnDisconnected");

        Assert.That(File.Exists(path), Is.True, "the socket file outlives a closed session");
        using (var client = new UdsClient(path))
            Assert.That(client.Connect(), Is.True, "the server still answers after a session closed");
        Assert.That(server.Stop(), Is.True);
        Assert.That(File.Exists(path), Is.False);
    }

    [Test]
    public void AStartThatFailsAfterBindRemovesTheFileItBound()
    {
        var path = UdsTestTransport.NewPath();
        using var server = new FailingServer(path);

        Assert.Throws<InvalidOperationException>(() => server.Start());

        Assert.That(File.Exists(path), Is.False, "the file bound by the failed Start is removed");
        Assert.That(server.IsStarted, Is.False);
    }

    private sealed class FailingServer(string path) : UdsServer(path)
    {
        protected override void OnStarting() => throw new InvalidOperationException("OnStarting failed");
    }

    private sealed class ObservedServer(string path) : UdsServer(path)
    {
        public TaskCompletionSource SessionClosed { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        protected override void OnDisconnected(UdsSession session) => SessionClosed.TrySetResult();
    }
}
