using System;
using System.Collections.Generic;
using System.Diagnostics.CodeAnalysis;
using System.Linq;
using CommandLine;

namespace NetCoreServer.Performance.Common;

/// <summary>Parses and validates a benchmark program's command line.</summary>
public static class OptionsParser
{
    /// <summary>
    /// Parses <paramref name="args"/> into <typeparamref name="TOptions"/> and validates it. On failure, the help or the
    /// error has been written to stderr and <paramref name="exitCode"/> is what the program should return:
    /// <see cref="ExitCodes.Success"/> after <c>--help</c> or <c>--version</c>, <see cref="ExitCodes.Usage"/> otherwise.
    /// </summary>
    public static bool TryParse<TOptions>(string[] args, [NotNullWhen(true)] out TOptions? options, out int exitCode)
        where TOptions : class, IValidatedOptions, new()
    {
        using var parser = new Parser(settings =>
        {
            settings.HelpWriter = Console.Error;
            settings.CaseSensitive = true;
        });

        TOptions? parsed = null;
        IEnumerable<Error> errors = [];
        parser.ParseArguments<TOptions>(WithHelpAliases(args))
            .WithParsed(value => parsed = value)
            .WithNotParsed(value => errors = value);

        if (parsed == null)
        {
            options = null;
            exitCode = errors.All(error => error is HelpRequestedError or VersionRequestedError) ? ExitCodes.Success : ExitCodes.Usage;
            return false;
        }

        var problem = parsed.Validate();
        if (problem != null)
        {
            Console.Error.WriteLine($"error: {problem}");
            options = null;
            exitCode = ExitCodes.Usage;
            return false;
        }

        options = parsed;
        exitCode = ExitCodes.Success;
        return true;
    }

    /// <summary>
    /// The command line with <c>-h</c> and <c>-?</c> written as <c>--help</c>, which is the only spelling the parser
    /// knows; no benchmark option is named <c>h</c> or takes a value that starts with a dash.
    /// </summary>
    public static string[] WithHelpAliases(string[] args)
        => Array.ConvertAll(args, argument => argument is "-h" or "-?" ? "--help" : argument);

    /// <summary>Looks up the factory of the protocol asked for; on failure writes the reason to stderr.</summary>
    public static bool TryResolve<TFactory>(ProtocolCatalog<TFactory> catalog, EndpointOptions options, [NotNullWhen(true)] out TFactory? factory)
        where TFactory : class
    {
        if (catalog.TryResolve(options.Protocol, out factory, out var error))
            return true;
        Console.Error.WriteLine($"error: {error}");
        return false;
    }
}
