using System;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Text;
using System.Threading.Tasks;
using NUnit.Framework;

namespace NetCoreServer.Udp.Tests.Support;

/// <summary>Runs a real program (socat, unshare) with bounded time.</summary>
internal static class ExternalTool
{
    /// <summary>The full path of a program on PATH, or null.</summary>
    public static string? Find(string name)
        => (Environment.GetEnvironmentVariable("PATH") ?? "").Split(':')
            .Where(dir => dir.Length > 0)
            .Select(dir => Path.Combine(dir, name))
            .FirstOrDefault(File.Exists);

    public static string Require(string name)
    {
        var path = Find(name);
        if (path == null)
            Assert.Ignore($"{name} is not installed (build/test.sh installs it)");
        return path!;
    }

    public static async Task<(int ExitCode, string Output, string Errors)> Run(string tool, string[] arguments, string input, TimeSpan timeout,
        params (string Name, string Value)[] environment)
    {
        var info = new ProcessStartInfo(tool)
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var argument in arguments)
            info.ArgumentList.Add(argument);
        foreach (var (name, value) in environment)
            info.Environment[name] = value;
        using var process = Process.Start(info)!;
        var output = process.StandardOutput.ReadToEndAsync();
        var errors = process.StandardError.ReadToEndAsync();
        await process.StandardInput.BaseStream.WriteAsync(Encoding.UTF8.GetBytes(input));
        process.StandardInput.Close();
        try
        {
            await process.WaitForExitAsync().WaitAsync(timeout);
        }
        catch (TimeoutException)
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException($"{tool} {string.Join(' ', arguments)} did not finish in {timeout.TotalSeconds} s; output: {await output}; stderr: {await errors}");
        }
        return (process.ExitCode, await output, await errors);
    }
}
