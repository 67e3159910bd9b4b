using System.Threading.Tasks;
using NUnit.Framework;

namespace NetCoreServer.Tests.Http2;

/// <summary>One h2c server per test (<see cref="Http2TestServer"/>), and raw-frame clients connected to it.</summary>
public abstract class Http2ServerFixture
{
    private protected Http2TestServer Server { get; private set; } = null!;

    [SetUp]
    public void StartServer()
    {
        Server = new Http2TestServer();
        Server.Start();
    }

    [TearDown]
    public void StopServer() => Server.Dispose();

    private protected Task<Http2RawClient> Connect() => Http2RawClient.ConnectAsync(Server.Endpoint);
}
