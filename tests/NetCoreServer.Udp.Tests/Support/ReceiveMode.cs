using System;

namespace NetCoreServer.Udp.Tests.Support;

/// <summary>
/// Which receive mode the test servers and clients use: the runtime's socket engine (the default) or a receive thread
/// of their own (<see cref="DatagramPeer.OptionReceiveThread"/>), when <c>NETCORESERVER_TEST_UDP_RECEIVE_THREAD=1</c>.
/// build/test.sh runs this whole project once in each mode, so every UDP test covers both.
/// </summary>
internal static class ReceiveMode
{
    /// <summary>The variable build/test.sh sets for the second run.</summary>
    public const string Variable = "NETCORESERVER_TEST_UDP_RECEIVE_THREAD";

    /// <summary>True in the receive-thread run.</summary>
    public static bool Threaded { get; } = Environment.GetEnvironmentVariable(Variable) == "1";
}
