using System;
using System.Collections.Generic;
using System.IO;

namespace NetCoreServer.Examples;

/// <summary>
/// The usage text of one example, printed the same way by all of them: <c>-h</c> or <c>--help</c> prints it to stdout
/// (exit code 0), a bad command line prints it to stderr (exit code 2). Check <see cref="AsksForHelp"/> before
/// parsing anything else, so that help never starts a server or loads a certificate.
/// </summary>
public sealed class ExampleUsage
{
    /// <summary>The exit code of a bad command line, as most Unix tools use.</summary>
    public const int BadCommandLine = 2;

    private readonly string _program;
    private readonly string _summary;
    private readonly string[] _lines;

    /// <summary>Describes one example.</summary>
    /// <param name="program">The program's name, such as <c>TcpChatServer</c>.</param>
    /// <param name="summary">What it does, in one line.</param>
    /// <param name="arguments">Its arguments, printed after <c>Usage: PROGRAM</c>, such as <c>[port] [address]</c>.</param>
    /// <param name="more">Further lines printed as they are: other forms of the command line, the defaults.</param>
    public ExampleUsage(string program, string summary, string arguments, params string[] more)
    {
        _program = program;
        _summary = summary;
        _lines = [$"Usage: {program} {arguments}", .. more];
    }

    /// <summary>True when any argument is <c>-h</c> or <c>--help</c>.</summary>
    /// <param name="args">The command line.</param>
    /// <returns>True when the user asked for the usage.</returns>
    public static bool AsksForHelp(IReadOnlyList<string> args)
    {
        foreach (var arg in args)
        {
            if (arg is "-h" or "--help")
                return true;
        }
        return false;
    }

    /// <summary>Prints the usage to stdout.</summary>
    /// <returns>The exit code: 0.</returns>
    public int Help()
    {
        Write(Console.Out);
        return 0;
    }

    /// <summary>Prints what is wrong (when known) and the usage to stderr.</summary>
    /// <param name="problem">What is wrong, or null.</param>
    /// <returns>The exit code: <see cref="BadCommandLine"/>.</returns>
    public int Error(string? problem = null)
    {
        if (problem is not null)
            Console.Error.WriteLine($"{_program}: {problem}");
        Write(Console.Error);
        return BadCommandLine;
    }

    private void Write(TextWriter writer)
    {
        writer.WriteLine($"{_program}: {_summary}");
        foreach (var line in _lines)
            writer.WriteLine(line);
        writer.WriteLine("   -h, --help prints this text.");
    }
}
