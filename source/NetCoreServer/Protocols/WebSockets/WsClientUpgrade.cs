using System;
using NetCoreServer.Protocols.Http;

namespace NetCoreServer.Protocols.WebSockets;

/// <summary>What a WebSocket client does with the server's answer to its upgrade request.</summary>
internal interface IWsUpgradeClient
{
    /// <summary>A whole response arrived (a 101 or anything else: the client checks it).</summary>
    void UpgradeAnswered(HttpResponse response);

    /// <summary>The answer could not be read as HTTP.</summary>
    void UpgradeFailed(string error);
}

/// <summary>
/// The client's protocol between sending the upgrade request and the answer: it reads one HTTP response and hands it
/// over. Unlike <see cref="HttpClientProtocol"/>, which passes over 1xx responses as interim, it takes the 101 as the
/// final answer; the client then puts the framer in the slot, so bytes right after the 101 are read as frames.
/// </summary>
internal sealed class WsClientUpgrade : IStreamProtocol
{
    private readonly IWsUpgradeClient _client;
    private readonly HttpResponseReader _reader;
    private bool _done;

    public WsClientUpgrade(IWsUpgradeClient client, HttpResponse response)
    {
        _client = client;
        response.Clear();
        _reader = new HttpResponseReader(response) { RequestMethod = "GET" };
    }

    public int Received(ReadOnlySpan<byte> data)
    {
        if (_done)
            return data.Length;
        var result = _reader.Read(data, out var consumed);
        if (result == HttpReadResult.HeaderReady)
        {
            // A 101 has no body: the message is complete at once. Another status may bring a body, read on from here.
            result = _reader.Read(data[consumed..], out var body);
            consumed += body;
        }
        if (result == HttpReadResult.NeedMoreData)
            return consumed;
        _done = true;
        if (result == HttpReadResult.MessageReady)
            _client.UpgradeAnswered(_reader.Response);
        else
            _client.UpgradeFailed(_reader.ErrorReason);
        return result == HttpReadResult.MessageReady ? consumed : data.Length;
    }
}
