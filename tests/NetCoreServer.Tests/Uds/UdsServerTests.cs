using System.Diagnostics;
using System.IO;
using System.Threading;
using System.Net.Sockets;
using NetCoreServer.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Tests.Uds;

/// <summary>What only Unix domain sockets have: the socket file.</summary>
[TestFixture]
public sealed class UdsServerTests
{
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
}
