using System.Net;
using System.Net.Sockets;
using NetCoreServer;

namespace WsChat;

/// <summary>
/// The WebSocket chat server: serves the chat page (www next to the program) under <see cref="PagePrefix"/> as
/// plain HTTP, and every connection that asks to upgrade becomes a <see cref="ChatSession"/>.
/// </summary>
internal sealed class ChatServer : WsServer
{
    public const string PagePrefix = "/chat";
    public const string PagePath = PagePrefix + "/index.html";

    public ChatServer(IPAddress address, int port)
        : base(address, port)
    {
        var page = Path.Combine(AppContext.BaseDirectory, "www");
        if (Directory.Exists(page))
            AddStaticContent(page, PagePrefix);
        else
            Console.Error.WriteLine($"No chat page: {page} is missing");
    }

    protected override TcpSession CreateSession() => new ChatSession(this);

    protected override void OnError(SocketError error) => Console.Error.WriteLine($"Server error: {error}");
}
