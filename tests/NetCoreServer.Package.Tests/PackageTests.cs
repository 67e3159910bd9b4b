using System;
using System.IO;
using System.IO.Compression;
using System.Linq;
using System.Text;
using System.Threading.Tasks;
using NUnit.Framework;

namespace NetCoreServer.Package.Tests;

/// <summary>What the CoreSessionServer package holds, and a console app that uses it through a PackageReference only.</summary>
[TestFixture]
public sealed class PackageTests
{
    [Test]
    public void PackageHoldsTheAssemblyItsXmlDocsAndTheReadme()
    {
        using var package = ZipFile.OpenRead(Packages.LibraryPackage);
        var entries = package.Entries.Select(entry => entry.FullName).ToList();
        Assert.That(entries, Does.Contain("lib/net10.0/NetCoreServer.dll"));
        Assert.That(entries, Does.Contain("lib/net10.0/NetCoreServer.xml"));
        Assert.That(entries, Does.Contain("README.md"));

        using var reader = new StreamReader(package.GetEntry("CoreSessionServer.nuspec")!.Open());
        var nuspec = reader.ReadToEnd();
        Assert.That(nuspec, Does.Contain("<id>CoreSessionServer</id>"));
        Assert.That(nuspec, Does.Contain("<license type=\"expression\">MIT</license>"));
        Assert.That(nuspec, Does.Contain("<readme>README.md</readme>"));
        Assert.That(nuspec, Does.Contain("<repository type=\"git\""));
    }

    [Test]
    public void SymbolsPackageHoldsThePdb()
    {
        Assert.That(Packages.SymbolsPackage, Does.Exist);
        using var symbols = ZipFile.OpenRead(Packages.SymbolsPackage);
        Assert.That(symbols.Entries.Select(entry => entry.FullName), Does.Contain("lib/net10.0/NetCoreServer.pdb"));
    }

    [Test]
    public async Task ConsoleAppRunsTcpHttpAndWebSocketThroughThePackage()
    {
        var app = Path.Combine(Packages.Root, "console-app");
        Directory.CreateDirectory(app);
        File.WriteAllText(Path.Combine(app, "PackageConsumer.csproj"), $"""
            <Project Sdk="Microsoft.NET.Sdk">
              <PropertyGroup>
                <OutputType>Exe</OutputType>
                <TargetFramework>net10.0</TargetFramework>
                <Nullable>enable</Nullable>
                <ImplicitUsings>enable</ImplicitUsings>
                <TreatWarningsAsErrors>true</TreatWarningsAsErrors>
                <!-- A nearby version or an unreachable source is the registry copy speaking, not the package. -->
                <WarningsNotAsErrors>NU1603;NU1801</WarningsNotAsErrors>
              </PropertyGroup>
              <ItemGroup>
                <PackageReference Include="CoreSessionServer" Version="{Packages.LibraryVersion}" />
              </ItemGroup>
            </Project>
            """);
        File.WriteAllText(Path.Combine(app, "Program.cs"), ConsumerProgram);

        await Dotnet.Run(app, ["build", "-c", "Release", "-nologo", "-clp:ErrorsOnly"], TimeSpan.FromMinutes(3), Packages.RestoreEnvironment);
        var output = await Dotnet.Run(app, [Path.Combine("bin", "Release", "net10.0", "PackageConsumer.dll")], TimeSpan.FromMinutes(1));

        Assert.That(output, Is.EqualTo("tcp: hello tcp\nhttp: 200 hello http\nws: hello ws\n"));
    }

    // Loopback only, port 0 everywhere, every wait bounded; the program exits non-zero on any failure.
    private const string ConsumerProgram = """
        using System.Net;
        using System.Text;
        using NetCoreServer;

        var timeout = TimeSpan.FromSeconds(15);

        using (var server = new EchoServer(IPAddress.Loopback, 0))
        {
            if (!server.Start())
                throw new InvalidOperationException("the TCP server did not start");
            using var client = new EchoClient(IPAddress.Loopback, ((IPEndPoint)server.Endpoint).Port, "hello tcp");
            client.ConnectAsync();
            Console.WriteLine("tcp: " + await client.Echoed.Task.WaitAsync(timeout));
            await client.DisconnectAndWaitAsync().WaitAsync(timeout);
            server.Stop();
        }

        using (var server = new HelloServer(IPAddress.Loopback, 0))
        {
            if (!server.Start())
                throw new InvalidOperationException("the HTTP server did not start");
            using var client = new HttpClientEx(IPAddress.Loopback, ((IPEndPoint)server.Endpoint).Port);
            var response = await client.SendGetRequest("/hello", timeout).WaitAsync(timeout);
            Console.WriteLine($"http: {response.Status} {response.Body}");
            await client.DisconnectAndWaitAsync().WaitAsync(timeout);
            server.Stop();
        }

        using (var server = new WsEchoServer(IPAddress.Loopback, 0))
        {
            if (!server.Start())
                throw new InvalidOperationException("the WebSocket server did not start");
            using var client = new WsEchoClient(IPAddress.Loopback, ((IPEndPoint)server.Endpoint).Port, "hello ws");
            client.ConnectAsync();
            Console.WriteLine("ws: " + await client.Echoed.Task.WaitAsync(timeout));
            client.CloseAsync(1000);
            await client.DisconnectAndWaitAsync().WaitAsync(timeout);
            server.Stop();
        }
        return 0;

        sealed class EchoServer(IPAddress address, int port) : TcpServer(address, port)
        {
            protected override TcpSession CreateSession() => new EchoSession(this);
        }

        sealed class EchoSession(TcpServer server) : TcpSession(server)
        {
            protected override void OnReceived(byte[] buffer, long offset, long size) => SendAsync(buffer, offset, size);
        }

        sealed class EchoClient(IPAddress address, int port, string message) : NetCoreServer.TcpClient(address, port)
        {
            private readonly StringBuilder _received = new();

            public TaskCompletionSource<string> Echoed { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

            protected override void OnConnected() => SendAsync(message);

            protected override void OnReceived(byte[] buffer, long offset, long size)
            {
                lock (_received)
                {
                    _received.Append(Encoding.UTF8.GetString(buffer, (int)offset, (int)size));
                    if (_received.Length >= message.Length)
                        Echoed.TrySetResult(_received.ToString());
                }
            }
        }

        sealed class HelloServer(IPAddress address, int port) : HttpServer(address, port)
        {
            protected override TcpSession CreateSession() => new HelloSession(this);
        }

        sealed class HelloSession(HttpServer server) : HttpSession(server)
        {
            protected override void OnReceivedRequest(HttpRequest request)
                => SendResponseAsync(Response.MakeGetResponse(request.Url == "/hello" ? "hello http" : "unexpected " + request.Url));
        }

        sealed class WsEchoServer(IPAddress address, int port) : WsServer(address, port)
        {
            protected override TcpSession CreateSession() => new WsEchoSession(this);
        }

        sealed class WsEchoSession(WsServer server) : WsSession(server)
        {
            public override void OnWsReceived(byte[] buffer, long offset, long size) => SendTextAsync(buffer, offset, size);
        }

        sealed class WsEchoClient(IPAddress address, int port, string message) : WsClient(address, port)
        {
            public TaskCompletionSource<string> Echoed { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

            public override void OnWsConnected(HttpResponse response) => SendTextAsync(message);

            public override void OnWsReceived(byte[] buffer, long offset, long size)
                => Echoed.TrySetResult(Encoding.UTF8.GetString(buffer, (int)offset, (int)size));
        }
        """;
}
