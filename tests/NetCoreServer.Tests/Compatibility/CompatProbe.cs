using System.Collections.Concurrent;
using System.Collections.Generic;
using System.IO;
using System.Net.Sockets;
using System.Text;
using System.Threading.Tasks;
using NetCoreServer.Tests.Support;

namespace NetCoreServer.Tests.Compatibility;

/// <summary>
/// What the compat-shaped classes report to the tests: the hooks in the order they ran, a count per hook name that
/// tests await, the bytes (or datagrams) received and the errors. A server and its sessions share one probe, with
/// entries "server.X" and "session.X".
/// </summary>
internal sealed class CompatProbe
{
    private readonly HookLog _log = new();
    private readonly Dictionary<string, Counter> _counts = new();
    private readonly MemoryStream _received = new();

    public Counter ReceivedBytes { get; } = new();

    public ConcurrentQueue<string> Datagrams { get; } = new();

    public ConcurrentQueue<SocketError> Errors { get; } = new();

    public void Hook(string name)
    {
        _log.Add(name);
        Count(name).Add(1);
    }

    /// <summary>Completes once the hook <paramref name="name"/> has run <paramref name="times"/> times (at once if it already has).</summary>
    public Task Logged(string name, int times = 1) => Count(name).Reaches(times);

    /// <summary>Appends stream data (TCP, TLS, Unix sockets).</summary>
    public void Received(byte[] buffer, long offset, long size)
    {
        lock (_received)
            _received.Write(buffer, (int)offset, (int)size);
        ReceivedBytes.Add(size);
    }

    /// <summary>Records one datagram as UTF-8 text (UDP).</summary>
    public void Datagram(byte[] buffer, long offset, long size)
    {
        Datagrams.Enqueue(Encoding.UTF8.GetString(buffer, (int)offset, (int)size));
        Hook("datagram");
    }

    public void Error(string name, SocketError error)
    {
        Errors.Enqueue(error);
        Hook(name);
    }

    public string ReceivedText()
    {
        lock (_received)
            return Encoding.UTF8.GetString(_received.GetBuffer(), 0, (int)_received.Length);
    }

    public string[] Snapshot() => _log.Snapshot();

    public string[] Skeleton(params string[] drop) => _log.Skeleton(drop);

    private Counter Count(string name)
    {
        lock (_counts)
        {
            if (!_counts.TryGetValue(name, out var counter))
                _counts[name] = counter = new Counter();
            return counter;
        }
    }
}
