using System;
using System.IO;

namespace NetCoreServer.Certificates.Tests.Support;

/// <summary>A unique directory under the system temporary directory, deleted on dispose.</summary>
internal sealed class TemporaryDirectory : IDisposable
{
    public TemporaryDirectory()
    {
        Path = Directory.CreateTempSubdirectory("netcoreserver-certificates-tests-").FullName;
    }

    public string Path { get; }

    public string File(string name) => System.IO.Path.Combine(Path, name);

    public void Dispose()
    {
        try
        {
            Directory.Delete(Path, recursive: true);
        }
        catch (IOException)
        {
            // A process the test started may still hold a file; the OS cleans the temporary directory.
        }
    }
}
