using System;
using System.IO;
using System.Net.Http;
using System.Net.Sockets;
using System.Net.WebSockets;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using NUnit.Framework;

namespace NetCoreServer.Package.Tests;

/// <summary>
/// Each dotnet new template, installed from the packed template package into a hive of its own, made into a project
/// that references the packed library, built, started on a free port, asked once by a client nobody here wrote (the
/// BCL's socket, ClientWebSocket and HttpClient), and stopped with SIGTERM. The hosted-server template references the
/// packed hosting package too.
/// </summary>
[TestFixture]
public sealed class TemplateTests
{
    private static readonly TimeSpan s_answer = TimeSpan.FromSeconds(20);
    private string _hive = "";

    [OneTimeSetUp]
    public async Task InstallTemplatesAsync()
    {
        _hive = Path.Combine(Packages.Root, "template-hive");
        var output = await Dotnet.Run(Packages.Root, ["new", "install", Packages.TemplatesPackage, "--debug:custom-hive", _hive], TimeSpan.FromMinutes(2));
        foreach (var shortName in new[] { "css-tcpchat", "css-wschat", "css-httpapi", "css-hosted" })
            Assert.That(output, Does.Contain(shortName), "dotnet new install listed the template");
    }

    [Test]
    public async Task TcpChatTemplateRelaysALineToEveryoneConnected()
    {
        await using var program = await CreateBuildAndStartAsync("css-tcpchat", "MyTcpChat");
        var port = await PortAsync(program);

        // Each client is closed before the stop: a session still open makes Stop wait for its peer (5 s by default).
        using (var timeout = new CancellationTokenSource(s_answer))
        using (var client = new System.Net.Sockets.TcpClient())
        {
            await client.ConnectAsync("127.0.0.1", port, timeout.Token);
            var stream = client.GetStream();
            Assert.That(await ReadLineAsync(stream, timeout.Token), Does.StartWith("Welcome to MyTcpChat!"));
            await stream.WriteAsync(Encoding.UTF8.GetBytes("hello chat\n"), timeout.Token);
            Assert.That(await ReadLineAsync(stream, timeout.Token), Is.EqualTo("hello chat"));
        }

        await StopAsync(program);
    }

    [Test]
    public async Task WsChatTemplateServesItsPageAndRelaysAMessage()
    {
        await using var program = await CreateBuildAndStartAsync("css-wschat", "MyWsChat");
        var port = await PortAsync(program);

        using (var http = new HttpClient { Timeout = s_answer })
        {
            var page = await http.GetStringAsync($"http://127.0.0.1:{port}/chat/index.html");
            Assert.That(page, Does.Contain("<title>MyWsChat</title>"));
            Assert.That(await http.GetStringAsync($"http://127.0.0.1:{port}/chat/chat.js"), Does.Contain("new WebSocket"));
        }

        using (var timeout = new CancellationTokenSource(s_answer))
        using (var socket = new ClientWebSocket())
        {
            await socket.ConnectAsync(new Uri($"ws://127.0.0.1:{port}/"), timeout.Token);
            Assert.That(await ReceiveTextAsync(socket, timeout.Token), Does.StartWith("Welcome to MyWsChat!"));
            await socket.SendAsync(Encoding.UTF8.GetBytes("hello ws chat"), WebSocketMessageType.Text, endOfMessage: true, timeout.Token);
            Assert.That(await ReceiveTextAsync(socket, timeout.Token), Is.EqualTo("hello ws chat"));
            await socket.CloseAsync(WebSocketCloseStatus.NormalClosure, "done", timeout.Token);
        }

        await StopAsync(program);
    }

    [Test]
    public async Task HttpApiTemplateAnswersItsRoutes()
    {
        await using var program = await CreateBuildAndStartAsync("css-httpapi", "MyHttpApi");
        var port = await PortAsync(program);

        using (var http = new HttpClient { Timeout = s_answer })
        {
            var hello = await http.GetAsync($"http://127.0.0.1:{port}/api/hello");
            Assert.That((int)hello.StatusCode, Is.EqualTo(200));
            Assert.That(hello.Content.Headers.ContentType?.MediaType, Is.EqualTo("application/json"));
            Assert.That(await hello.Content.ReadAsStringAsync(), Is.EqualTo("{\"message\":\"Hello from MyHttpApi\"}"));

            var echo = await http.PostAsync($"http://127.0.0.1:{port}/api/echo", new StringContent("echo me"));
            Assert.That(await echo.Content.ReadAsStringAsync(), Is.EqualTo("echo me"));
            var missing = await http.GetAsync($"http://127.0.0.1:{port}/api/missing");
            Assert.That((int)missing.StatusCode, Is.EqualTo(404));
        }

        await StopAsync(program);
    }

    [Test]
    public async Task HostedServerTemplateServesAChatAndDrainsOnSigterm()
    {
        // The port from the command line, over appsettings.json's 1111, as the host's configuration reads it.
        await using var program = await CreateBuildAndStartAsync("css-hosted", "MyHostedServer", "--Chat:Port=0");
        Assert.That(File.Exists(Path.Combine(Packages.Root, "templates", "MyHostedServer", "bin", "Release", "net10.0", "appsettings.json")), Is.True, "appsettings.json is copied to the output");
        var port = await PortAsync(program);

        using var timeout = new CancellationTokenSource(s_answer);
        using var client = new System.Net.Sockets.TcpClient();
        await client.ConnectAsync("127.0.0.1", port, timeout.Token);
        var stream = client.GetStream();
        Assert.That(await ReadLineAsync(stream, timeout.Token), Does.StartWith("Welcome to MyHostedServer!"));
        await stream.WriteAsync(Encoding.UTF8.GetBytes("hello host\n"), timeout.Token);
        Assert.That(await ReadLineAsync(stream, timeout.Token), Is.EqualTo("hello host"));

        // SIGTERM drains: the connected client is closed by the server, and the host exits 0.
        var end = stream.ReadAsync(new byte[1], timeout.Token).AsTask();
        var stopping = StopAsync(program);
        Assert.That(await Wait.For(end, "the end of the stream from the drain", s_answer), Is.EqualTo(0));
        client.Close();
        await stopping;
        Assert.That(program.Output, Does.Contain("Session server Chat draining 1 sessions"));
    }

    // dotnet new NAME in the test's hive, with the library version just packed, then build and start it on port 0.
    private async Task<RunningProgram> CreateBuildAndStartAsync(string shortName, string projectName, string portArgument = "0")
    {
        var project = Path.Combine(Packages.Root, "templates", projectName);
        await Dotnet.Run(Packages.Root, ["new", shortName, "-n", projectName, "-o", project, "--library-version", Packages.LibraryVersion,
            "--no-update-check", "--debug:custom-hive", _hive], TimeSpan.FromMinutes(1));
        Assert.That(File.ReadAllText(Path.Combine(project, projectName + ".csproj")),
            Does.Contain($"<PackageReference Include=\"CoreSessionServer\" Version=\"{Packages.LibraryVersion}\" />"));

        await Dotnet.Run(project, ["build", "-c", "Release", "-nologo", "-clp:ErrorsOnly"], TimeSpan.FromMinutes(3), Packages.RestoreEnvironment);
        return RunningProgram.Start(project, Path.Combine("bin", "Release", "net10.0", projectName + ".dll"), portArgument);
    }

    private static async Task<int> PortAsync(RunningProgram program)
    {
        var listening = program.Line(@"listening on 127\.0\.0\.1:(\d+)");
        await Wait.For(listening, $"the 'listening on' line; output so far:\n{program.Output}", s_answer);
        return int.Parse((await listening).Groups[1].Value);
    }

    private static async Task StopAsync(RunningProgram program)
    {
        var exitCode = await program.StopAsync(s_answer);
        if (exitCode is null)
            return; // killed: Windows has no SIGTERM
        Assert.That(exitCode, Is.EqualTo(0), program.Output);
        Assert.That(program.Output, Does.Contain(" stopped"));
    }

    private static async Task<string> ReadLineAsync(NetworkStream stream, CancellationToken cancellation)
    {
        var line = new MemoryStream();
        var one = new byte[1];
        while (await stream.ReadAsync(one, cancellation) == 1 && one[0] != (byte)'\n')
            line.WriteByte(one[0]);
        return Encoding.UTF8.GetString(line.ToArray());
    }

    private static async Task<string> ReceiveTextAsync(ClientWebSocket socket, CancellationToken cancellation)
    {
        var message = new MemoryStream();
        var buffer = new byte[4096];
        WebSocketReceiveResult result;
        do
        {
            result = await socket.ReceiveAsync(buffer, cancellation);
            message.Write(buffer, 0, result.Count);
        } while (!result.EndOfMessage);
        Assert.That(result.MessageType, Is.EqualTo(WebSocketMessageType.Text));
        return Encoding.UTF8.GetString(message.ToArray());
    }
}
