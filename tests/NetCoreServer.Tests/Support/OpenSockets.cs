using System;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Net;
using System.Net.Sockets;

namespace NetCoreServer.Tests.Support;

/// <summary>
/// Counts the kernel's live connections on one server endpoint, from /proc/net. Unlike the process's descriptor
/// count it is not disturbed by other tests running in parallel.
/// </summary>
internal static class OpenSockets
{
    // States in which a socket is still held open by some process: ESTABLISHED (01) and CLOSE_WAIT (08).
    // Orphaned states after close (FIN_WAIT, TIME_WAIT, LAST_ACK) belong to the kernel, not to a leaked handle.
    private static readonly string[] s_heldStates = { "01", "08" };

    public static int On(EndPoint endpoint)
    {
        switch (endpoint)
        {
            case IPEndPoint ip:
                return new[] { "/proc/net/tcp", "/proc/net/tcp6" }.Where(File.Exists).SelectMany(File.ReadLines).Skip(0)
                    .Select(line => line.Split(' ', StringSplitOptions.RemoveEmptyEntries))
                    .Where(f => f.Length > 3 && f[0].EndsWith(':') && s_heldStates.Contains(f[3]))
                    .Count(f => Port(f[1]) == ip.Port || Port(f[2]) == ip.Port);
            case UnixDomainSocketEndPoint unix:
                // Accepted sockets carry the listener's path; the listener itself is in state 01 (unconnected).
                var path = unix.ToString();
                return File.ReadLines("/proc/net/unix").Skip(1)
                    .Select(line => line.Split(' ', StringSplitOptions.RemoveEmptyEntries))
                    .Count(f => f.Length >= 8 && f[^1] == path && f[5] == "03");
            default:
                throw new ArgumentException("unsupported endpoint " + endpoint);
        }
    }

    private static int Port(string address) => int.Parse(address[(address.IndexOf(':') + 1)..], NumberStyles.HexNumber, CultureInfo.InvariantCulture);
}
