namespace NetCoreServer.Tests.Interop.WebSocketPeers;

/// <summary>An echo session of <see cref="InteropWsServer"/>.</summary>
internal sealed class InteropWsSession(WsServer server, WsEchoRecorder recorder) : WsSession(server)
{
    public override bool OnWsConnecting(HttpRequest request, HttpResponse response) => recorder.Upgrading(response);

    public override void OnWsReceived(byte[] buffer, long offset, long size) => recorder.Echo(buffer, offset, size, SendTextAsync, SendBinaryAsync);

    public override void OnWsClose(byte[] buffer, long offset, long size, int status = 1000) => recorder.Close(buffer, offset, size, status);
}
