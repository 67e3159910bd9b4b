using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Net;
using System.Net.NetworkInformation;
using System.Net.Sockets;
using System.Reflection;
using NetCoreServer;
using NetCoreServer.NetworkIsolation;

namespace NetCoreServer.Examples;

/// <summary>
/// How the multicast examples react to <see cref="PrivateNetwork.WhyUnsafe"/> (the check, shared with the tests and
/// benchmarks): they refuse with advice on stderr and exit code 3, and once allowed they send and join on <c>lo</c> only.
/// </summary>
/// <remarks>Compiled into both UdpMulticastServer and UdpMulticastClient (the client links this file).</remarks>
internal static class PrivateNetworkNamespace
{
    /// <summary>The exit code of an example that refused to run outside a private network namespace.</summary>
    public const int RefusedExitCode = 3;

    private const string WrapperPath = "examples/run-in-private-netns.sh";

    /// <summary>
    /// Sends and joins on <c>lo</c> explicitly (by address for IPv4, by index for IPv6). The check already allows
    /// only <c>lo</c>; pinning means a routing table set up differently cannot pick another interface either.
    /// </summary>
    /// <param name="peer">The server or client, before it starts.</param>
    /// <param name="group">The multicast group it will use.</param>
    public static void PinToLoopback(DatagramPeer peer, IPAddress group)
    {
        if (group.AddressFamily == AddressFamily.InterNetworkV6)
            peer.OptionMulticastInterfaceIndex = PrivateNetwork.LoopbackIndex();
        else
            peer.OptionMulticastInterface = IPAddress.Loopback;
    }

    /// <summary>Prints why the example refuses to run and how to run it safely, to stderr.</summary>
    /// <param name="reason">What <see cref="PrivateNetwork.WhyUnsafe"/> returned.</param>
    /// <param name="args">The example's arguments, repeated in the suggested commands.</param>
    /// <returns><see cref="RefusedExitCode"/>.</returns>
    public static int Refuse(string reason, IReadOnlyList<string> args)
    {
        var command = Command(args);
        var error = Console.Error;
        error.WriteLine($"Refusing to send or join multicast outside a private network namespace: {reason}.");
        error.WriteLine("The host's loopback has no multicast route here, so the datagrams would go out on the real network.");
        error.WriteLine("Run the example in a new network namespace whose only interface is lo, set up for multicast:");
        error.WriteLine($"  {Wrapper()} {string.Join(' ', command.Select(QuoteForShell))}");
        error.WriteLine("or by hand" + (Environment.IsPrivilegedProcess ? ":" : " (not root: --map-root-user maps you to root in a user namespace):"));
        var unshare = Environment.IsPrivilegedProcess ? "unshare --net" : "unshare --net --map-root-user";
        error.WriteLine($"  {unshare} sh -c '{PrivateNetwork.LoopbackSetup} && exec {string.Join(' ', command.Select(QuoteInsideSingleQuotes))}'");
        return RefusedExitCode;
    }

    // How this process was started: "dotnet path/X.dll ARGS" or "path/X ARGS" (the apphost).
    private static List<string> Command(IReadOnlyList<string> args)
    {
        var command = new List<string>();
        var process = Environment.ProcessPath;
        if (process is null || Path.GetFileNameWithoutExtension(process) == "dotnet")
        {
            command.Add("dotnet");
            command.Add(Assembly.GetEntryAssembly()?.Location is { Length: > 0 } dll ? dll : AppDomain.CurrentDomain.FriendlyName + ".dll");
        }
        else
        {
            command.Add(process);
        }
        command.AddRange(args);
        return command;
    }

    private static string Wrapper()
    {
        // The program's directory first, then the current one: builds may live outside the repository.
        foreach (var start in new[] { AppContext.BaseDirectory, Environment.CurrentDirectory })
        {
            for (var directory = new DirectoryInfo(start); directory is not null; directory = directory.Parent)
            {
                var wrapper = Path.Combine(directory.FullName, WrapperPath);
                if (File.Exists(wrapper) && File.Exists(Path.Combine(directory.FullName, "NetCoreServer.sln")))
                    return QuoteForShell(wrapper);
            }
        }
        return WrapperPath;
    }

    private static bool IsPlain(string word)
        => word.Length > 0 && word.All(c => char.IsAsciiLetterOrDigit(c) || "_-./:=@%+,".Contains(c));

    private static string QuoteForShell(string word) => IsPlain(word) ? word : "'" + word.Replace("'", "'\\''") + "'";

    // A word inside sh -c '...': double-quoted for the inner shell, and a single quote closes, escapes and reopens
    // the outer quoting.
    private static string QuoteInsideSingleQuotes(string word)
        => IsPlain(word)
            ? word
            : ("\"" + word.Replace("\\", "\\\\").Replace("\"", "\\\"").Replace("$", "\\$").Replace("`", "\\`") + "\"").Replace("'", "'\\''");
}
