using System;
using System.IO;
using System.Text;

namespace NetCoreServer.Tests.Http;

/// <summary>
/// A unique temporary directory for one test, deleted with everything in it on dispose. The served directory is
/// <see cref="Www"/>; <see cref="Root"/> (its parent) holds files a traversal must never reach.
/// </summary>
internal sealed class TempTree : IDisposable
{
    public TempTree()
    {
        Root = Path.Combine(Path.GetTempPath(), "ncs-static-" + Guid.NewGuid().ToString("N"));
        Www = Path.Combine(Root, "www");
        Directory.CreateDirectory(Www);
    }

    /// <summary>The test's own directory.</summary>
    public string Root { get; }

    /// <summary>The directory the test serves, inside <see cref="Root"/>.</summary>
    public string Www { get; }

    /// <summary>Writes a UTF-8 file below <see cref="Www"/> ("css/site.css"), creating its directories.</summary>
    public string Write(string relative, string content) => WriteBytes(relative, Encoding.UTF8.GetBytes(content));

    /// <summary>Writes a file below <see cref="Www"/>, creating its directories.</summary>
    public string WriteBytes(string relative, byte[] content)
    {
        var path = Path.Combine(Www, relative);
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        File.WriteAllBytes(path, content);
        return path;
    }

    /// <summary>Writes a file directly in <see cref="Root"/>, outside the served directory.</summary>
    public string WriteOutside(string name, string content)
    {
        var path = Path.Combine(Root, name);
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        File.WriteAllText(path, content);
        return path;
    }

    public void Dispose()
    {
        try
        {
            Directory.Delete(Root, recursive: true);
        }
        catch (DirectoryNotFoundException)
        {
        }
    }
}
