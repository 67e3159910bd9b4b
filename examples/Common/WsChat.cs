using System;
using System.IO;
using System.Text;

namespace NetCoreServer.Examples;

/// <summary>
/// What the WebSocket chat examples (WS and WSS, servers and clients) share: the chat page on disk and where it is
/// served, the welcome, and how a received message is decoded. Each message of the chat is one WebSocket text
/// message, so nothing here splits or joins lines: the framing already keeps messages apart.
/// </summary>
public static class WsChat
{
    /// <summary>The URL prefix the chat page is served under: <c>/chat/index.html</c>.</summary>
    public const string PagePrefix = "/chat";

    /// <summary>The chat page's path on the server.</summary>
    public const string PagePath = PagePrefix + "/index.html";

    /// <summary>The path clients ask to upgrade on; the page connects to the same one.</summary>
    public const string UpgradePath = "/";

    /// <summary>The page's files (index.html, chat.js): <c>www</c> next to the program, where its project copies them.</summary>
    public static string PageDirectory => Path.Combine(AppContext.BaseDirectory, "www");

    /// <summary>The first message a new chat session gets; the example scripts wait for its first words.</summary>
    /// <param name="protocol">WS or WSS.</param>
    /// <returns>The welcome text.</returns>
    public static string Welcome(string protocol) => $"Welcome to the {protocol} chat! Every message you send is delivered to everyone connected.";

    /// <summary>
    /// Says on stderr when the page's files are missing (the server then still chats, but serves no page), and adds
    /// them to the server's static content otherwise.
    /// </summary>
    /// <param name="addStaticContent">The server's AddStaticContent.</param>
    public static void AddPage(Action<string, string> addStaticContent)
    {
        if (Directory.Exists(PageDirectory))
            addStaticContent(PageDirectory, PagePrefix);
        else
            Console.Error.WriteLine($"No chat page: {PageDirectory} is missing");
    }

    /// <summary>Prints where a browser finds the chat page of a server listening on <paramref name="endpoint"/>.</summary>
    /// <param name="scheme">http or https.</param>
    /// <param name="endpoint">The server's endpoint, such as <c>127.0.0.1:8080</c>.</param>
    public static void PrintPage(string scheme, object? endpoint)
        => Console.WriteLine(endpoint is System.Net.Sockets.UnixDomainSocketEndPoint
            ? $"Chat page: {scheme}://localhost{PagePath} through the socket file {endpoint} (curl --unix-socket {endpoint})"
            : $"Chat page: {scheme}://{endpoint}{PagePath}");

    /// <summary>Call from a chat session's OnWsReceived: prints the message as incoming and returns it, for the server to multicast.</summary>
    /// <param name="buffer">The message's buffer, valid only during the hook.</param>
    /// <param name="offset">Where the message starts.</param>
    /// <param name="size">Its length.</param>
    /// <returns>The text.</returns>
    public static string Incoming(byte[] buffer, long offset, long size)
    {
        var text = Decode(buffer, offset, size);
        Console.WriteLine($"Incoming: {text}");
        return text;
    }

    /// <summary>A received message as text. Text messages are valid UTF-8 (the library checks that); a binary
    /// message from a browser is decoded the same way, any invalid byte shown as U+FFFD.</summary>
    /// <param name="buffer">The message's buffer, valid only during the hook.</param>
    /// <param name="offset">Where the message starts.</param>
    /// <param name="size">Its length.</param>
    /// <returns>The text.</returns>
    public static string Decode(byte[] buffer, long offset, long size)
        => Encoding.UTF8.GetString(buffer, checked((int)offset), checked((int)size));
}
