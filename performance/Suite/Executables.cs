using System;
using System.IO;
using System.Linq;

namespace NetCoreServer.Performance.Suite;

/// <summary>Finds the programs the suite starts: tools on PATH and the dotnet host.</summary>
internal static class Executables
{
    /// <summary>The full path of <paramref name="name"/> on PATH (and the sbin folders, where ip lives), or null.</summary>
    public static string? Find(string name)
        => (Environment.GetEnvironmentVariable("PATH") ?? "").Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries)
            .Concat(["/usr/sbin", "/sbin"])
            .Select(directory => Path.Combine(directory, name))
            .FirstOrDefault(File.Exists);

    /// <summary>The dotnet host that runs this program (or the one on PATH when it was started through its apphost).</summary>
    public static string Dotnet()
    {
        if (Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") is { Length: > 0 } host && File.Exists(host))
            return host;
        var self = Environment.ProcessPath;
        if (self is not null && Path.GetFileNameWithoutExtension(self) == "dotnet")
            return self;
        return Find("dotnet") ?? "dotnet";
    }
}
