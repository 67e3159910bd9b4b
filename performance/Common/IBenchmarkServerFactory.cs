namespace NetCoreServer.Performance.Common;

/// <summary>Creates one program's benchmark server for one protocol.</summary>
public interface IBenchmarkServerFactory<in TOptions>
    where TOptions : ServerOptions
{
    /// <summary>Creates a server for <paramref name="options"/>; it is not started yet.</summary>
    IBenchmarkServer Create(TOptions options);
}
