namespace NetCoreServer.Performance.Common;

/// <summary>Creates one program's benchmark connections for one protocol.</summary>
public interface IBenchmarkClientFactory<in TOptions>
    where TOptions : ClientOptions
{
    /// <summary>Creates one connection for <paramref name="options"/> that reports to <paramref name="meter"/>; it is not connected yet.</summary>
    IBenchmarkClient Create(TOptions options, ConnectionMeter meter);
}
