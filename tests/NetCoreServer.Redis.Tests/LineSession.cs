using System;
using System.Text;

namespace NetCoreServer.Redis.Tests;

/// <summary>A session of a <see cref="LineServer"/>: answers "join ROOM", "leave ROOM" and "id" with one line.</summary>
internal sealed class LineSession(LineServer server) : TcpSession(server)
{
    protected override void OnReceivedMessage(ReadOnlySpan<byte> message)
    {
        var text = Encoding.UTF8.GetString(message);
        var backplane = server.Backplane!;
        if (text.StartsWith("join ", StringComparison.Ordinal))
            SendAsync($"joined {backplane.JoinGroup(this, text[5..])}\n");
        else if (text.StartsWith("leave ", StringComparison.Ordinal))
            SendAsync($"left {backplane.LeaveGroup(this, text[6..])}\n");
        else if (text == "id")
            SendAsync($"id {Id}\n");
    }
}
