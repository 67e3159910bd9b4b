using System;
using System.Text;
using System.Threading;

namespace NetCoreServer.WebSockets;

internal sealed partial class WsConnection
{
    // A blocking ReceiveText/ReceiveBinary waits for one message: decoding stops after it, the rest stays unconsumed.
    private bool _capturing;
    private byte[]? _captured;

    /// <summary>
    /// Decodes what arrived into the host's hooks, on the receive thread (calls never overlap); returns how many bytes
    /// were consumed (all of them once a close frame was read or the peer broke the protocol).
    /// </summary>
    public int Received(ReadOnlySpan<byte> data)
    {
        Volatile.Write(ref _lastReceived, Environment.TickCount64);
        BeginHolding();
        try
        {
            return Decode(data);
        }
        finally
        {
            EndHolding();
        }
    }

    private int Decode(ReadOnlySpan<byte> data)
    {
        var total = 0;
        while (true)
        {
            var result = _decoder.Read(data[total..], out var consumed);
            total += consumed;
            var payload = _decoder.Payload;
            var array = payload.Array ?? Array.Empty<byte>();
            switch (result)
            {
                case WsDecodeResult.NeedMoreData:
                    return total;
                case WsDecodeResult.Message:
                    if (_capturing)
                    {
                        _capturing = false;
                        _captured = payload.AsSpan().ToArray();
                        _host.RaiseReceived(array, payload.Offset, payload.Count);
                        return total;
                    }
                    _host.RaiseReceived(array, payload.Offset, payload.Count);
                    break;
                case WsDecodeResult.Ping:
                    _host.RaisePing(array, payload.Offset, payload.Count);
                    break;
                case WsDecodeResult.Pong:
                    Volatile.Write(ref _pinged, false);
                    _host.RaisePong(array, payload.Offset, payload.Count);
                    break;
                case WsDecodeResult.Close:
                    CloseReceived(_decoder.CloseStatus, payload);
                    return data.Length;
                default:
                    _host.RaiseError(_decoder.ErrorReason);
                    CloseAndDisconnect(_decoder.ErrorStatus, Encoding.ASCII.GetBytes(_decoder.ErrorReason), DisconnectReason.ProtocolError);
                    return data.Length;
            }
        }
    }

    /// <summary>Asks the next <see cref="Received"/> calls to stop after one whole message, kept for <see cref="TakeCaptured"/>.</summary>
    public void CaptureNext()
    {
        _captured = null;
        _capturing = true;
    }

    /// <summary>True once a message has been captured since <see cref="CaptureNext"/>.</summary>
    public bool HasCaptured => _captured != null;

    /// <summary>The message captured since <see cref="CaptureNext"/>, or null while none has arrived.</summary>
    public byte[]? TakeCaptured()
    {
        var captured = _captured;
        if (captured != null)
            _captured = null;
        return captured;
    }

    /// <summary>Stops waiting for a message to capture (the blocking receive gave up).</summary>
    public void StopCapturing()
    {
        _capturing = false;
        _captured = null;
    }

    /// <summary>
    /// The peer's close frame: the hook sees its reason and status (1005 when it had none); then, unless a close frame
    /// went out already (ours first, or one sent from the hook), the same status and reason are sent back (§5.5.1);
    /// then the TCP connection closes.
    /// </summary>
    private void CloseReceived(int status, ArraySegment<byte> reason)
    {
        var initiatedHere = Volatile.Read(ref _state) != Open;
        _host.RaiseClose(reason.Array ?? Array.Empty<byte>(), reason.Offset, reason.Count, status);
        CloseAndDisconnect(status, reason, initiatedHere ? DisconnectReason.Local : DisconnectReason.PeerClosed);
    }

    /// <summary>Fails the connection from this side (keep-alive): the close status goes out, then the TCP connection closes.</summary>
    private void Fail(int status, string reason) => CloseAndDisconnect(status, Encoding.ASCII.GetBytes(reason), DisconnectReason.Timeout);
}
