using System;
using NetCoreServer.NetworkIsolation;

namespace NetCoreServer.Performance.Common;

/// <summary>
/// Thrown by a factory that refuses to run where its traffic could leave the machine (see <see cref="ThrowIfNotPrivate"/>);
/// the hosts print the message and exit with <see cref="ExitCodes.Usage"/>.
/// </summary>
public sealed class UnsafeNetworkException(string message) : Exception(message)
{
    /// <summary>How to get a private network namespace, for the refusal message.</summary>
    public const string Advice =
        "run it inside a private network namespace whose only interface is lo, e.g. as root: " +
        "unshare --net sh -c '" + PrivateNetwork.LoopbackSetup + " && <command>' " +
        "(add --map-root-user when not root; build/bench.sh does this)";

    /// <summary>
    /// Guards the udp multicast benchmarks. On a normal host the loopback interface has no multicast route, so a
    /// datagram sent to a multicast group goes out of the default interface onto the real network; the benchmarks
    /// therefore run only where <see cref="PrivateNetwork.WhyUnsafe"/> (the check shared with the multicast tests and
    /// examples) finds <c>lo</c> the only interface, as in a private network namespace.
    /// </summary>
    /// <param name="what">What is refused, e.g. "udp multicast", for the message.</param>
    /// <exception cref="UnsafeNetworkException">Multicast could leave this machine.</exception>
    public static void ThrowIfNotPrivate(string what)
    {
        if (PrivateNetwork.WhyUnsafe() is { } reason)
            throw new UnsafeNetworkException($"{what} refused: {reason}; {Advice}");
    }
}
