using System;
using System.IO;

namespace NetCoreServer.Testing;

/// <summary>The repository the tests were built in, and the dotnet host to start its programs with.</summary>
public static class SourceTree
{
    /// <summary>The folder holding NetCoreServer.sln above the test assembly, or null when the tests run elsewhere.</summary>
    public static string? Root()
    {
        for (var directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, "NetCoreServer.sln")))
                return directory.FullName;
        }
        return null;
    }

    /// <summary>The dotnet host running the tests (the SDK's, when started by dotnet test), else the one on PATH, else null.</summary>
    public static string? DotnetHost()
    {
        var fromSdk = Environment.GetEnvironmentVariable("DOTNET_HOST_PATH");
        if (!string.IsNullOrEmpty(fromSdk) && File.Exists(fromSdk))
            return fromSdk;
        var current = Environment.ProcessPath;
        if (current is not null && Path.GetFileNameWithoutExtension(current) == "dotnet")
            return current;
        return ExternalTool.Find("dotnet");
    }
}
