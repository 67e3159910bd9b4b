using System;
using System.Collections.Concurrent;
using System.Linq;
using System.Text.Json;

namespace NetCoreServer.Examples;

/// <summary>
/// The REST API of the HTTP and HTTPS server examples: a key-value cache at <c>/api/cache?key=K</c> whose values are
/// request bodies (GET reads, POST and PUT store, DELETE removes; GET without a key lists the keys as JSON), OPTIONS
/// and TRACE for any path, and <c>/</c> redirected to the static page. One instance serves every session of a server
/// and survives its restarts.
/// </summary>
/// <remarks>Thread-safe: sessions call <see cref="Answer"/> concurrently, each on its own receive thread.</remarks>
public sealed class HttpCacheApi
{
    /// <summary>The path of the API.</summary>
    public const string Path = "/api/cache";

    /// <summary>The page <c>/</c> redirects to, served from <see cref="StaticDirectory"/>.</summary>
    public const string HomePage = "/index.html";

    /// <summary>The most keys the cache holds: 10,000. A new key past it gets 507, so clients cannot grow the
    /// process without a limit (each value is bounded by <see cref="MaxValueSize"/>).</summary>
    public const int MaxKeys = 10_000;

    /// <summary>The largest value (request body): 64 KiB. Servers set it as their body limit, so a larger request
    /// is answered 413 by the library before it is read whole.</summary>
    public const int MaxValueSize = 64 * 1024;

    private const string Allowed = "HEAD,GET,POST,PUT,DELETE,OPTIONS,TRACE";
    private const string PlainText = "text/plain; charset=UTF-8";

    private readonly ConcurrentDictionary<string, string> _values = new(StringComparer.Ordinal);
    private readonly string _protocol;

    /// <summary>Creates an empty cache.</summary>
    /// <param name="protocol">The name printed before each request line: <c>HTTP</c> or <c>HTTPS</c>.</param>
    public HttpCacheApi(string protocol)
    {
        ArgumentNullException.ThrowIfNull(protocol);
        _protocol = protocol;
    }

    /// <summary>The directory of the static page: <c>www</c> next to the program, where the build copies it.</summary>
    public static string StaticDirectory => System.IO.Path.Combine(AppContext.BaseDirectory, "www");

    /// <summary>Fills <paramref name="response"/> with the answer to <paramref name="request"/> and prints one line
    /// for it. GET and HEAD of static files never get here: the session answers them from its cache first.</summary>
    /// <param name="request">The received request (valid during the call).</param>
    /// <param name="response">The response to fill; the caller sends it (a HEAD request gets the head only).</param>
    public void Answer(HttpRequest request, HttpResponse response)
    {
        ArgumentNullException.ThrowIfNull(request);
        ArgumentNullException.ThrowIfNull(response);
        var method = request.Method;
        var url = request.Url;
        var query = url.IndexOf('?');
        var path = query < 0 ? url : url[..query];

        if (method == "OPTIONS")
            response.MakeOptionsResponse(Allowed);
        else if (method == "TRACE")
            response.MakeTraceResponse(request);
        else if (path == Path)
            AnswerCache(method, query < 0 ? "" : url[(query + 1)..], request, response);
        else if (path == "/" && (method is "GET" or "HEAD"))
            response.SetBegin(302).SetHeader("Location", HomePage).SetHeader("Content-Type", PlainText).SetBody($"See {HomePage}\n");
        else
            response.MakeErrorResponse(404, $"Nothing at {path}: try {HomePage} or {Path}\n");

        Console.WriteLine($"{_protocol} {method} {url} -> {response.Status}");
    }

    private void AnswerCache(string method, string query, HttpRequest request, HttpResponse response)
    {
        if (!TryFindKey(query, out var key))
        {
            response.MakeErrorResponse(400, "The key must not be empty: ?key=K\n");
            return;
        }
        switch (method)
        {
            case "GET" or "HEAD" when key is null:
                var keys = _values.Keys.Order(StringComparer.Ordinal).ToArray();
                response.MakeGetResponse(JsonSerializer.Serialize(keys), "application/json; charset=UTF-8");
                break;
            case "GET" or "HEAD":
                if (_values.TryGetValue(key, out var value))
                    response.MakeGetResponse(value, PlainText);
                else
                    response.MakeErrorResponse(404, $"No value for the key '{key}'\n");
                break;
            case "POST" or "PUT" or "DELETE" when key is null:
                response.MakeErrorResponse(400, $"{method} needs a key: {Path}?key=K\n");
                break;
            case "POST" or "PUT":
                Store(key, request.Body, response);
                break;
            case "DELETE":
                if (_values.TryRemove(key, out var removed))
                    response.MakeGetResponse(removed, PlainText);
                else
                    response.MakeErrorResponse(404, $"No value for the key '{key}'\n");
                break;
            default:
                response.SetBegin(405).SetHeader("Allow", Allowed).SetHeader("Content-Type", PlainText)
                    .SetBody($"{method} is not allowed on {Path}\n");
                break;
        }
    }

    // POST and PUT both create or replace: 201 for a new key, 200 for a replaced value.
    private void Store(string key, string value, HttpResponse response)
    {
        if (_values.ContainsKey(key))
        {
            _values[key] = value;
            response.MakeOkResponse(200);
            return;
        }
        // Two sessions adding at once may pass the count together and end a key or so above the limit: still bounded.
        if (_values.Count >= MaxKeys)
        {
            response.MakeErrorResponse(507, $"The cache is full ({MaxKeys} keys); delete some first\n");
            return;
        }
        var added = _values.TryAdd(key, value);
        if (!added)
            _values[key] = value;
        response.MakeOkResponse(added ? 201 : 200);
    }

    // The key is null when the query names none; false when it is there but empty.
    private static bool TryFindKey(string query, out string? key)
    {
        key = null;
        foreach (var pair in query.Split('&'))
        {
            var equals = pair.IndexOf('=');
            if ((equals < 0 ? pair : pair[..equals]) != "key")
                continue;
            // '+' is a space in form encoding (what an HTML form or URLSearchParams sends); %2B is a plus. Invalid
            // escapes stay as they are.
            key = Uri.UnescapeDataString(equals < 0 ? "" : pair[(equals + 1)..].Replace('+', ' '));
            return key.Length > 0;
        }
        return true;
    }
}
