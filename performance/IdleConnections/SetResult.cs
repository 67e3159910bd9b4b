namespace NetCoreServer.Performance.IdleConnections;

/// <summary>What one set of idle connections costs, per connection (both of its ends together).</summary>
/// <param name="Set">The set's name (see <see cref="ConnectionSets"/>).</param>
/// <param name="Description">Which objects hold each end.</param>
/// <param name="ManagedBytesPerConnection">Growth of the live managed heap, divided by the connection count.</param>
/// <param name="WorkingSetBytesPerConnection">Growth of the working set, divided by the connection count.</param>
internal sealed record SetResult(string Set, string Description, double ManagedBytesPerConnection, double WorkingSetBytesPerConnection);
