namespace NetCoreServer.Performance.Common;

/// <summary>Creates one program's benchmark server for one protocol from the options of the run; it is not started yet.</summary>
public delegate IBenchmarkServer ServerFactory<in TOptions>(TOptions options)
    where TOptions : ServerOptions;
