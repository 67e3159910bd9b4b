using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Text;
using System.Threading.Tasks;
using NUnit.Framework;

namespace NetCoreServer.Testing;

/// <summary>Runs real programs nobody here wrote (socat, curl, openssl, unshare, bash) with bounded time.</summary>
public static class ExternalTool
{
    /// <summary>The full path of a program on PATH, or null (always null in the quick leg, which starts no peer).</summary>
    public static string? Find(string name)
        => TestLeg.IsQuick ? null : (Environment.GetEnvironmentVariable("PATH") ?? "").Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries)
            .Select(directory => Path.Combine(directory, name))
            .FirstOrDefault(File.Exists);

    /// <summary>The full path of a program on PATH; the test is ignored when it is not installed.</summary>
    public static string Require(string name)
    {
        var path = Find(name);
        if (path == null)
            Assert.Ignore(TestLeg.IsQuick ? $"{name}: no peers in the quick leg" : $"{name} is not installed (build/test.sh installs it)");
        return path!;
    }

    /// <summary>
    /// Runs <paramref name="tool"/>, writes <paramref name="input"/> (if any) to its standard input and closes it, and
    /// waits for it to exit; past <paramref name="timeout"/> the process tree is killed and a TimeoutException thrown.
    /// </summary>
    public static async Task<ToolResult> Run(string tool, IEnumerable<string> arguments, TimeSpan timeout, byte[]? input = null,
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

        using var process = Process.Start(info) ?? throw new InvalidOperationException($"{tool} did not start");
        var output = new MemoryStream();
        var reading = process.StandardOutput.BaseStream.CopyToAsync(output);
        var errors = process.StandardError.ReadToEndAsync();
        if (input != null)
            await process.StandardInput.BaseStream.WriteAsync(input);
        process.StandardInput.Close();
        try
        {
            await process.WaitForExitAsync().WaitAsync(timeout);
        }
        catch (TimeoutException)
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException($"{tool} {string.Join(' ', info.ArgumentList)} did not finish in {timeout.TotalSeconds} s; stderr: {await errors}");
        }
        await reading;
        var bytes = output.ToArray();
        return new ToolResult(process.ExitCode, Encoding.UTF8.GetString(bytes), await errors) { OutputBytes = bytes };
    }
}
