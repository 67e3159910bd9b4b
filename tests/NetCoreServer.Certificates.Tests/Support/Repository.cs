using System;
using System.IO;
using NUnit.Framework;

namespace NetCoreServer.Certificates.Tests.Support;

/// <summary>Paths in the repository this test assembly was built from.</summary>
internal static class Repository
{
    public static string GenerateScript
    {
        get
        {
            for (DirectoryInfo? directory = new(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
            {
                if (File.Exists(Path.Combine(directory.FullName, "NetCoreServer.sln")))
                {
                    string script = Path.Combine(directory.FullName, "tools", "certificates", "generate.sh");
                    Assert.That(script, Does.Exist, "tools/certificates/generate.sh is missing from the repository");
                    return script;
                }
            }

            Assert.Fail($"No NetCoreServer.sln above {AppContext.BaseDirectory}");
            return "";
        }
    }
}
