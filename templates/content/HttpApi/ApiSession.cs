using System.Net.Sockets;
using System.Text.Json;
using NetCoreServer;

namespace HttpApi;

/// <summary>One HTTP connection: answers the API's routes, one request at a time.</summary>
internal sealed class ApiSession : HttpSession
{
    private const string Json = "application/json; charset=UTF-8";

    public ApiSession(HttpServer server)
        : base(server)
    {
    }

    // Runs on the session's receive side, one request at a time; SendResponseAsync copies Response before returning.
    protected override void OnReceivedRequest(HttpRequest request)
    {
        var path = request.Url.Split('?', 2)[0];
        switch (request.Method, path)
        {
            case ("GET", "/api/hello"):
                Response.MakeGetResponse(JsonSerializer.Serialize(new { message = "Hello from HttpApi" }), Json);
                break;
            case ("GET", "/api/time"):
                Response.MakeGetResponse(JsonSerializer.Serialize(new { utc = DateTimeOffset.UtcNow }), Json);
                break;
            case ("POST", "/api/echo"):
                Response.MakeGetResponse(request.Body);
                break;
            default:
                Response.MakeErrorResponse(404, $"No route for {request.Method} {path}");
                break;
        }
        SendResponseAsync(Response);
    }

    protected override void OnReceivedRequestError(HttpRequest request, string error)
        => Console.Error.WriteLine($"Bad request: {error}"); // the library answers it (400, 413, 431...)

    protected override void OnError(SocketError error) => Console.Error.WriteLine($"Session {Id} error: {error}");
}
