using System;

namespace NetCoreServer.Performance.Common;

/// <summary>
/// Thrown by a factory that refuses to run where its traffic could leave the machine (see <see cref="NetworkIsolation"/>);
/// the hosts print the message and exit with <see cref="ExitCodes.Usage"/>.
/// </summary>
public sealed class UnsafeNetworkException(string message) : Exception(message);
