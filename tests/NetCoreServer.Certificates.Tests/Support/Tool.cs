using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Threading.Tasks;
using NUnit.Framework;

namespace NetCoreServer.Certificates.Tests.Support;

/// <summary>Runs programs nobody here wrote (openssl, bash) with bounded time.</summary>
internal static class Tool
{
    public sealed record Result(int ExitCode, string Output, string Error)
    {
        public override string ToString() => $"exit {ExitCode}; stdout: {Output}; stderr: {Error}";
    }

    /// <summary>The program's path, or the test is ignored when it is not installed.</summary>
    public static string Require(string program)
    {
        string? path = Find(program);
        if (path is null)
        {
            Assert.Ignore($"{program} is not installed (Debian: apt-get install -y {program})");
        }

        return path!;
    }

    public static string? Find(string program)
    {
        foreach (string directory in (Environment.GetEnvironmentVariable("PATH") ?? "").Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries))
        {
            string candidate = Path.Combine(directory, program);
            if (File.Exists(candidate))
            {
                return candidate;
            }
        }

        return null;
    }

    public static async Task<Result> Run(string program, IEnumerable<string> arguments, TimeSpan timeout, string? input = null)
    {
        ProcessStartInfo start = new(program)
        {
            UseShellExecute = false,
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        foreach (string argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        using Process process = Process.Start(start) ?? throw new InvalidOperationException($"{program} did not start");
        Task<string> output = process.StandardOutput.ReadToEndAsync();
        Task<string> error = process.StandardError.ReadToEndAsync();
        if (input is not null)
        {
            await process.StandardInput.WriteAsync(input);
        }

        process.StandardInput.Close();
        try
        {
            await process.WaitForExitAsync().WaitAsync(timeout);
        }
        catch (TimeoutException)
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException($"{program} {string.Join(' ', start.ArgumentList)} did not exit within {timeout.TotalSeconds} s; stderr: {await error}");
        }

        return new Result(process.ExitCode, await output, await error);
    }
}
