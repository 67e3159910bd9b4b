using System;
using System.Collections.Generic;
using System.IO;
using System.Text.RegularExpressions;
using System.Threading.Tasks;
using NUnit.Framework;

namespace NetCoreServer.Package.Tests;

/// <summary>
/// Packs the library, the hosting package and the template package once for every test here, into a folder feed under a temp folder.
/// The library gets a prerelease version of its own (the base version plus a time stamp and process id), and every
/// restore uses a package folder of its own, so no NuGet cache can hand a test an older build.
/// </summary>
[SetUpFixture]
public sealed class Packages
{
    private static string? s_root;

    /// <summary>The temp folder holding the feed, the package folder, the nuget.config and the test's projects.</summary>
    public static string Root => s_root ?? throw new InvalidOperationException("the packages are not packed yet");

    /// <summary>The folder feed with the .nupkg and .snupkg files.</summary>
    public static string Feed => Path.Combine(Root, "feed");

    /// <summary>The version the library was packed with.</summary>
    public static string LibraryVersion { get; private set; } = "";

    /// <summary>The version the templates package was packed with: the base version of build/Package.props.</summary>
    public static string TemplatesVersion { get; private set; } = "";

    /// <summary>The library package.</summary>
    public static string LibraryPackage => Path.Combine(Feed, $"CoreSessionServer.{LibraryVersion}.nupkg");

    /// <summary>The library's symbols package.</summary>
    public static string SymbolsPackage => Path.Combine(Feed, $"CoreSessionServer.{LibraryVersion}.snupkg");

    /// <summary>The generic-host package, at the library's version.</summary>
    public static string HostingPackage => Path.Combine(Feed, $"CoreSessionServer.Hosting.{LibraryVersion}.nupkg");

    /// <summary>The dotnet new template package.</summary>
    public static string TemplatesPackage => Path.Combine(Feed, $"CoreSessionServer.Templates.{TemplatesVersion}.nupkg");

    /// <summary>The environment for restores: a package folder of this run's own.</summary>
    public static IReadOnlyDictionary<string, string> RestoreEnvironment
        => new Dictionary<string, string> { ["NUGET_PACKAGES"] = Path.Combine(Root, "packages") };

    [OneTimeSetUp]
    public async Task PackAsync()
    {
        var source = SourceTree.Root();
        if (source is null)
            Assert.Ignore("the package tests pack the source tree, and it was not found above the test assembly");

        s_root = Dotnet.NewTempFolder("package-tests");
        var props = File.ReadAllText(Path.Combine(source!, "build", "Package.props"));
        TemplatesVersion = Regex.Match(props, "<CoreSessionServerVersion>([^<]+)</CoreSessionServerVersion>").Groups[1].Value;
        Assert.That(TemplatesVersion, Is.Not.Empty, "build/Package.props names no CoreSessionServerVersion");
        LibraryVersion = $"{TemplatesVersion}-test.{DateTime.UtcNow:yyyyMMddHHmmss}.{Environment.ProcessId}";

        // Built outside source/ (BaseOutputPath, BaseIntermediateOutputPath), so the solution's own Release build
        // and this version never meet in one bin or obj folder.
        await Dotnet.Run(source!, Pack("source/NetCoreServer/NetCoreServer.csproj", "library", $"-p:Version={LibraryVersion}"), TimeSpan.FromMinutes(5));
        // The hosted-server template's package. It builds the library again, so each project gets folders of its own
        // (ArtifactsPath): one BaseIntermediateOutputPath for two projects would mix their restore assets.
        await Dotnet.Run(source!, [
            "pack", "source/NetCoreServer.Hosting/NetCoreServer.Hosting.csproj", "-c", "Release", "-nologo", "-o", Feed,
            "-p:UseArtifactsOutput=true", $"-p:ArtifactsPath={Path.Combine(Root, "build", "hosting")}/", $"-p:Version={LibraryVersion}",
        ], TimeSpan.FromMinutes(5));
        await Dotnet.Run(source!, Pack("templates/CoreSessionServer.Templates.csproj", "templates"), TimeSpan.FromMinutes(3));

        // Everything under Root restores from the folder feed and from the machine's own sources (not cleared).
        File.WriteAllText(Path.Combine(Root, "nuget.config"), $"""
            <?xml version="1.0" encoding="utf-8"?>
            <configuration>
              <packageSources>
                <add key="package-tests" value="{Feed}" />
              </packageSources>
            </configuration>
            """);
    }

    [OneTimeTearDown]
    public void DeleteRoot()
    {
        if (s_root is null || Environment.GetEnvironmentVariable("NETCORESERVER_KEEP_PACKAGE_TESTS") == "1")
            return;
        try
        {
            Directory.Delete(s_root, recursive: true);
        }
        catch (IOException)
        {
            // A program that is still exiting may hold a file: the temp folder is cleaned up by the system later.
        }
        catch (UnauthorizedAccessException)
        {
        }
    }

    private static string[] Pack(string project, string name, params string[] properties)
        => [
            "pack", project, "-c", "Release", "-nologo", "-o", Feed,
            $"-p:BaseOutputPath={Path.Combine(Root, "build", name, "bin")}/",
            $"-p:BaseIntermediateOutputPath={Path.Combine(Root, "build", name, "obj")}/",
            .. properties,
        ];
}
