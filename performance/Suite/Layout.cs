using System;
using System.IO;

namespace NetCoreServer.Performance.Suite;

/// <summary>
/// Where things are: the repository (the folder holding NetCoreServer.sln above this program), the other benchmark
/// programs' assemblies, built with the same configuration as the suite, and the output folder.
/// </summary>
internal sealed class Layout
{
    private const string SolutionFileName = "NetCoreServer.sln";

    private readonly string _configuration;
    private readonly string _framework;

    private Layout(string root, string configuration, string framework)
    {
        Root = root;
        _configuration = configuration;
        _framework = framework;
    }

    /// <summary>The repository root.</summary>
    public string Root { get; }

    /// <summary>The suite's own assembly, for running it again inside a private network namespace.</summary>
    public static string SuiteAssembly => Path.Combine(AppContext.BaseDirectory, "NetCoreServer.Performance.Suite.dll");

    /// <summary>
    /// The layout of the repository this program was built in: its output folder is
    /// <c>performance/Suite/bin/CONFIGURATION/FRAMEWORK</c>, and its siblings' are alike.
    /// </summary>
    /// <exception cref="DirectoryNotFoundException">No NetCoreServer.sln above the program.</exception>
    public static Layout Find()
    {
        var output = new DirectoryInfo(AppContext.BaseDirectory.TrimEnd(Path.DirectorySeparatorChar));
        var framework = output.Name;
        var configuration = output.Parent?.Name ?? "Release";
        for (var directory = output; directory != null; directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, SolutionFileName)))
                return new Layout(directory.FullName, configuration, framework);
        }
        throw new DirectoryNotFoundException($"no {SolutionFileName} above {output.FullName}: run the suite from its build output in the repository");
    }

    /// <summary>The assembly of <c>performance/PROGRAM</c>.</summary>
    /// <exception cref="FileNotFoundException">It was not built.</exception>
    public string Program(string program)
    {
        var path = Path.Combine(Root, "performance", program, "bin", _configuration, _framework, $"NetCoreServer.Performance.{program}.dll");
        if (!File.Exists(path))
            throw new FileNotFoundException($"{path} is missing: build the solution (dotnet build -c {_configuration}) or start the suite with dotnet run", path);
        return path;
    }

    /// <summary>The output folder: the one given, or artifacts/suite of the repository; created.</summary>
    public string Output(string? given)
    {
        var folder = Path.GetFullPath(given ?? Path.Combine(Root, "artifacts", "suite"));
        Directory.CreateDirectory(folder);
        return folder;
    }

    /// <summary>The C peers' source folder: the one given, or the repository's performance/peers.</summary>
    public string Peers(string? given) => Path.GetFullPath(given ?? Path.Combine(Root, "performance", "peers"));

    /// <summary>A file of <c>performance/</c> that is run as it is, such as a node script.</summary>
    public string Script(string name) => Path.Combine(Root, "performance", name);
}
