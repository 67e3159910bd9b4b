using System;

namespace NetCoreServer.Performance.Common;

/// <summary>
/// Prepares, from the options of the run, what one program's connections of one protocol share (a TLS context, the
/// message buffer) and returns how to create each connection: given its <see cref="ConnectionMeter"/>, one connection
/// that reports to it and is not connected yet.
/// </summary>
public delegate Func<ConnectionMeter, IBenchmarkClient> ClientFactory<in TOptions>(TOptions options)
    where TOptions : ClientOptions;
