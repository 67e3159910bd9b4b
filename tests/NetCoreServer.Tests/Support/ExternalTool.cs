using System;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Threading.Tasks;
using NUnit.Framework;

namespace NetCoreServer.Tests.Support;

/// <summary>Runs a real peer program (socat, curl, openssl...) with bounded time.</summary>
internal static class ExternalTool
{
    public static string Require(string name)
    {
        var path = (Environment.GetEnvironmentVariable("PATH") ?? "").Split(':')
            .Select(dir => Path.Combine(dir, name)).FirstOrDefault(File.Exists);
        if (path == null)
            Assert.Ignore($"{name} is not installed (build/test.sh installs it)");
        return path!;
    }

    public static async Task<(int ExitCode, byte[] Output)> Run(string tool, string arguments, byte[] input, TimeSpan timeout)
    {
        var info = new ProcessStartInfo(tool, arguments)
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        using var process = Process.Start(info)!;
        var output = new MemoryStream();
        var reading = process.StandardOutput.BaseStream.CopyToAsync(output);
        var errors = process.StandardError.ReadToEndAsync();
        await process.StandardInput.BaseStream.WriteAsync(input);
        process.StandardInput.Close();
        try
        {
            await process.WaitForExitAsync().WaitAsync(timeout);
        }
        catch (TimeoutException)
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException($"{tool} {arguments} did not finish in {timeout.TotalSeconds} s; stderr: {await errors}");
        }
        await reading;
        return (process.ExitCode, output.ToArray());
    }
}
