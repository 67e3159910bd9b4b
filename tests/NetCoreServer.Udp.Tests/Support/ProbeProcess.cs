using System;
using System.IO;
using NUnit.Framework;

namespace NetCoreServer.Udp.Tests.Support;

/// <summary>Where the probe program (tests/NetCoreServer.Udp.Tests/Probe) and the dotnet host to run it are.</summary>
internal static class ProbeProcess
{
    public static string Assembly
    {
        get
        {
            var path = Path.Combine(AppContext.BaseDirectory, "NetCoreServer.Udp.Probe.dll");
            Assert.That(File.Exists(path), Is.True, $"the probe is built next to the tests: {path}");
            return path;
        }
    }

    public static string DotnetHost
    {
        get
        {
            var fromSdk = Environment.GetEnvironmentVariable("DOTNET_HOST_PATH");
            if (!string.IsNullOrEmpty(fromSdk) && File.Exists(fromSdk))
                return fromSdk;
            var current = Environment.ProcessPath;
            if (current != null && Path.GetFileNameWithoutExtension(current) == "dotnet")
                return current;
            return ExternalTool.Find("dotnet") ?? "dotnet";
        }
    }
}
