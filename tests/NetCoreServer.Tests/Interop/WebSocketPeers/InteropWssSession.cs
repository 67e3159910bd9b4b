namespace NetCoreServer.Tests.Interop.WebSocketPeers;

/// <summary>An echo session of <see cref="InteropWssServer"/>.</summary>
internal sealed class InteropWssSession(WssServer server, WsEchoRecorder recorder) : WssSession(server)
{
    public override bool OnWsConnecting(HttpRequest request, HttpResponse response) => recorder.Upgrading(response);

    public override void OnWsReceived(byte[] buffer, long offset, long size) => recorder.Echo(buffer, offset, size, SendTextAsync, SendBinaryAsync);

    public override void OnWsClose(byte[] buffer, long offset, long size, int status = 1000) => recorder.Close(buffer, offset, size, status);
}
