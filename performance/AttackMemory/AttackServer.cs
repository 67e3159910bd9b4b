using System;
using System.IO;
using System.Linq;
using System.Net;
using System.Runtime;

namespace NetCoreServer.Performance.AttackMemory;

/// <summary>The child process: an HTTP server with a small page and a file too large to cache, or a WebSocket server.</summary>
internal static class AttackServer
{
    /// <summary>Size of the streamed file: above the file cache's 256 MiB, so it is streamed from disk (a sparse file).</summary>
    public const long BigFileSize = 300L * 1024 * 1024;

    public static int Run(string scenario, bool loops)
    {
        var root = Path.Combine(Path.GetTempPath(), "ncs-attack-" + Environment.ProcessId);
        Directory.CreateDirectory(root);
        try
        {
            File.WriteAllBytes(Path.Combine(root, "index.html"), Enumerable.Range(0, 4096).Select(i => (byte)('a' + i % 26)).ToArray());
            using (var big = File.Create(Path.Combine(root, "big.bin")))
                big.SetLength(BigFileSize);
            HttpServer server = scenario == "ws" ? new WsServer(IPAddress.Loopback, 0) : new HttpServer(IPAddress.Loopback, 0);
            using (server)
            {
                server.OptionEventLoops = loops ? 2 : 0;
                if (scenario != "ws")
                    server.AddStaticContent(root, "/");
                server.Start();
                Console.WriteLine(((IPEndPoint)server.Endpoint).Port);
                Console.WriteLine(GCSettings.IsServerGC ? "server" : "workstation");
                // Until the parent closes our standard input.
                Console.In.ReadToEnd();
                server.Stop();
            }
            return 0;
        }
        finally
        {
            Directory.Delete(root, recursive: true);
        }
    }
}
