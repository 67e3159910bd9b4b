using System.Threading;
using NetCoreServer.Engine;

namespace NetCoreServer.Connections;

/// <summary>
/// A connection's options: its server's shared <see cref="EngineOptions"/> until one is written, then a copy of its own.
/// A struct held in a (non-readonly) field of the connection, so it costs no object per connection. Lock-free: the copy
/// replaces the shared instance with one compare-exchange, and the engine reads the options at each use.
/// </summary>
internal struct CopyOnWriteOptions
{
    private EngineOptions _current;

    /// <param name="shared">Options shared with other connections, or null for options of its own (a client).</param>
    public CopyOnWriteOptions(EngineOptions? shared) => _current = shared ?? new();

    /// <summary>The options in force, for reading only (possibly shared).</summary>
    public EngineOptions Read => Volatile.Read(ref _current);

    /// <summary>The connection's own options, for writing: copied on the first write when they are shared.</summary>
    public EngineOptions Writable()
    {
        while (true)
        {
            var current = Volatile.Read(ref _current);
            if (!current.Shared)
                return current;
            var copy = current.Copy();
            if (Interlocked.CompareExchange(ref _current, copy, current) == current)
                return copy;
        }
    }
}
