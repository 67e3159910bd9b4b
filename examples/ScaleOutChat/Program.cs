using System;
using System.Net;
using System.Threading.Tasks;
using NetCoreServer.Examples;
using NetCoreServer.Redis;

namespace ScaleOutChat;

/// <summary>
/// A WebSocket chat server that is one node of many: run it twice on two ports against one Redis, and a line sent by
/// a user of either node reaches the users of both (examples/test-scaleoutchat.sh does exactly that).
/// </summary>
internal static class Program
{
    private const int DefaultPort = 8080;
    private const string DefaultRedis = "127.0.0.1:6379";

    private static readonly ExampleUsage s_usage = new("ScaleOutChat",
        "A WebSocket chat node: run several against one Redis and every node's users share one chat.",
        "[port] [redis host:port]",
        $"   (defaults: {DefaultPort} {DefaultRedis}; port 0 picks a free port)");

    private static async Task<int> Main(string[] args)
    {
        if (ExampleUsage.AsksForHelp(args))
            return s_usage.Help();
        if (args.Length > 2 || !ChatArguments.TryParseServer(args.Length > 0 ? args[..1] : args, DefaultPort, out var address, out var port))
            return s_usage.Error();
        var redis = args.Length > 1 ? args[1] : DefaultRedis;

        using var node = new ChatNode(address, port);
        RedisBackplane backplane;
        try
        {
            backplane = await RedisBackplane.AttachAsync(node, redis).ConfigureAwait(false);
        }
        catch (RedisBackplaneException e)
        {
            Console.Error.WriteLine(e.Message);
            return 1;
        }
        await using (backplane)
        {
            Console.WriteLine($"Backplane: node {backplane.NodeId} on Redis {redis}");
            var code = await ChatServerConsole.RunAsync(node, "WS", text => node.MulticastText(text),
                () => WsChat.PrintPage("http", node.Endpoint)).ConfigureAwait(false);
            Console.WriteLine($"Backplane: published {backplane.Published}, received {backplane.Received}, dropped {backplane.Dropped}, "
                + $"lost {backplane.Lost}, reconnects {backplane.Reconnects}, refused {backplane.Refused}");
            return code;
        }
    }
}
