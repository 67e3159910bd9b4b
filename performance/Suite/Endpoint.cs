using System;
using System.IO;
using System.Net;
using System.Net.Sockets;
using System.Threading;

namespace NetCoreServer.Performance.Suite;

/// <summary>Where one run's server listens: a free loopback port, or for uds a socket file of its own.</summary>
internal sealed record Endpoint(int Port, string? Path)
{
    public const string Address = "127.0.0.1";

    private static int s_files;

    /// <summary>A port the system has just handed out (it is free again once this returns), or a fresh socket file path.</summary>
    public static Endpoint For(ProtocolEntry protocol)
    {
        if (protocol.UsesSocketFile)
        {
            var name = $"netcoreserver-suite-{Environment.ProcessId}-{Interlocked.Increment(ref s_files)}.sock";
            return new Endpoint(0, System.IO.Path.Combine(System.IO.Path.GetTempPath(), name));
        }
        using var socket = protocol.IsDatagram
            ? new Socket(AddressFamily.InterNetwork, SocketType.Dgram, ProtocolType.Udp)
            : new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        socket.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        return new Endpoint(((IPEndPoint)socket.LocalEndPoint!).Port, null);
    }

    /// <summary>The options naming it for our benchmark programs.</summary>
    public string[] DotnetArguments => Path is null ? ["-a", Address, "-p", Port.ToString()] : ["--path", Path];

    /// <summary>The options naming it for the C load clients.</summary>
    public string[] CClientArguments => Path is null ? ["-h", Address, "-p", Port.ToString()] : ["-u", Path];

    /// <summary>The options naming it for the C servers, which listen on 127.0.0.1.</summary>
    public string[] CServerArguments => Path is null ? ["-p", Port.ToString()] : ["-u", Path];

    /// <summary>Removes the socket file, if any is left.</summary>
    public void Clean()
    {
        if (Path is not null)
            File.Delete(Path);
    }
}
