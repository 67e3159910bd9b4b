using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Threading.Tasks;

namespace NetCoreServer.Certificates;

/// <summary>Finds and runs <c>tools/certificates/generate.sh</c>, the OpenSSL route to the certificate files.</summary>
internal static class GenerateScript
{
    private const string SolutionFileName = "NetCoreServer.sln";

    // RSA keys take well under a second each; DH parameters are skipped (--no-dh). Far longer means a hang.
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(1);

    /// <summary>True when the script writes a file of this name.</summary>
    public static bool Produces(string fileName)
    {
        return fileName is "ca.pfx" or "server.pfx" or "client.pfx";
    }

    /// <summary>
    /// Runs the script into <paramref name="directory"/>. False, with the reason logged, when it cannot run
    /// here (Windows, no bash or openssl, script not found) or fails; the caller then creates certificates in-process.
    /// </summary>
    public static bool TryRun(string directory, string password, TextWriter? log)
    {
        if (OperatingSystem.IsWindows())
        {
            log?.WriteLine("generate.sh is not run on Windows: creating certificates in-process");
            return false;
        }

        string? bash = FindOnPath("bash");
        if (bash is null || FindOnPath("openssl") is null)
        {
            log?.WriteLine("openssl or bash is not on PATH: creating certificates in-process");
            return false;
        }

        string? script = Find();
        if (script is null)
        {
            log?.WriteLine($"tools/certificates/generate.sh not found above {AppContext.BaseDirectory} or {Environment.CurrentDirectory}: creating certificates in-process");
            return false;
        }

        ProcessStartInfo start = new(bash)
        {
            UseShellExecute = false,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        start.ArgumentList.Add(script);
        start.ArgumentList.Add("--out");
        start.ArgumentList.Add(directory);
        start.ArgumentList.Add("--password");
        start.ArgumentList.Add(password);
        start.ArgumentList.Add("--no-dh");

        try
        {
            using Process process = Process.Start(start)
                ?? throw new InvalidOperationException("bash did not start");
            // Both pipes are drained concurrently, or a chatty failure could fill one and deadlock the script.
            Task<string> output = process.StandardOutput.ReadToEndAsync();
            Task<string> error = process.StandardError.ReadToEndAsync();
            if (!process.WaitForExit(s_timeout))
            {
                process.Kill(entireProcessTree: true);
                log?.WriteLine($"{script} took over {s_timeout.TotalSeconds} s and was stopped: creating certificates in-process");
                return false;
            }

            process.WaitForExit();
            Write(log, output.Result);
            Write(log, error.Result);
            if (process.ExitCode != 0)
            {
                log?.WriteLine($"{script} exited with {process.ExitCode}: creating certificates in-process");
                return false;
            }

            return true;
        }
        catch (Exception exception) when (exception is InvalidOperationException or System.ComponentModel.Win32Exception or IOException)
        {
            log?.WriteLine($"{script} could not run ({exception.Message}): creating certificates in-process");
            return false;
        }
    }

    /// <summary>
    /// The script's path: walks up from this assembly's directory, then from the current directory, to a directory
    /// holding <c>NetCoreServer.sln</c> and <c>tools/certificates/generate.sh</c>. Null when there is none.
    /// </summary>
    public static string? Find()
    {
        foreach (string start in StartDirectories())
        {
            for (DirectoryInfo? directory = new(start); directory is not null; directory = directory.Parent)
            {
                string script = Path.Combine(directory.FullName, "tools", "certificates", "generate.sh");
                if (File.Exists(Path.Combine(directory.FullName, SolutionFileName)) && File.Exists(script))
                {
                    return script;
                }
            }
        }

        return null;
    }

    private static IEnumerable<string> StartDirectories()
    {
        // Location is empty in a single-file application; BaseDirectory is then the bundle's directory.
        string location = typeof(GenerateScript).Assembly.Location;
        if (location.Length > 0 && Path.GetDirectoryName(location) is { Length: > 0 } assemblyDirectory)
        {
            yield return assemblyDirectory;
        }

        yield return AppContext.BaseDirectory;
        yield return Environment.CurrentDirectory;
    }

    private static string? FindOnPath(string program)
    {
        string? path = Environment.GetEnvironmentVariable("PATH");
        if (string.IsNullOrEmpty(path))
        {
            return null;
        }

        foreach (string directory in path.Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries))
        {
            string candidate = Path.Combine(directory, program);
            if (File.Exists(candidate))
            {
                return candidate;
            }
        }

        return null;
    }

    private static void Write(TextWriter? log, string text)
    {
        if (log is null)
        {
            return;
        }

        foreach (string line in text.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
        {
            log.WriteLine(line);
        }
    }
}
