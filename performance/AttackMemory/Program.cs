using System;
using System.Threading.Tasks;

namespace NetCoreServer.Performance.AttackMemory;

/// <summary>
/// Issue 35's memory attacks at full scale, against a server in a child process whose RSS is read from /proc: before,
/// at the peak, and 5 s and 30 s after every client has left. Usage:
/// <c>AttackMemory &lt;http|ws|stream&gt; &lt;threads|loops&gt; [clients]</c>. Figures: docs/design/engine-buffers.md.
/// </summary>
internal static class Program
{
    private const string Usage = """
        usage: AttackMemory <http|ws|stream> <threads|loops> [clients]
          http    clients pipelining GET /index.html (4 KiB) without reading (default 3000)
          stream  clients of a 300 MiB file streamed from disk, not reading (default 300)
          ws      clients sending a 16 MiB WebSocket fragment that never ends (default 50)
          threads the default engine; loops: OptionEventLoops = 2
        Prints the server's RSS before, at the peak, 5 s and 30 s after the clients left (--help: this text).
        """;

    public static async Task<int> Main(string[] args)
    {
        if (args.Length >= 3 && args[0] == "--serve")
            return AttackServer.Run(args[1], args[2] == "loops");
        if (args is ["-h" or "-?" or "--help", ..])
        {
            Console.WriteLine(Usage);
            return 0;
        }
        if (args.Length < 2 || args[0] is not ("http" or "ws" or "stream") || args[1] is not ("threads" or "loops"))
        {
            Console.Error.WriteLine(Usage);
            return 2;
        }
        var clients = args.Length > 2 ? int.Parse(args[2]) : Attacks.DefaultClients(args[0]);
        var result = await Measurement.RunAsync(args[0], args[1], clients);
        Console.WriteLine(result);
        return 0;
    }
}
