using System;
using System.Collections.Generic;
using System.Diagnostics.CodeAnalysis;
using System.IO;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using NetCoreServer.Certificates;

namespace NetCoreServer.Examples;

/// <summary>
/// Where the TLS examples find their development certificates, and their password. The directory is, first found:
/// the <c>--certificates DIR</c> argument, the <c>NETCORESERVER_CERTIFICATES</c> environment variable, or the
/// repository's <c>tools/certificates</c>, found by walking up from the program's directory (then from the current
/// directory) to the one holding <c>NetCoreServer.sln</c>. The password is <c>--password</c>, then
/// <c>NETCORESERVER_CERTIFICATE_PASSWORD</c>, then <c>qwerty</c>. Missing files are created (see
/// <see cref="DevelopmentCertificates.LoadOrCreatePfx"/>), so the examples need no setup step.
/// </summary>
public sealed class ExampleCertificates
{
    /// <summary>The options this class reads, for usage lines.</summary>
    public const string Usage = "[--certificates DIR] [--password PASSWORD]";

    /// <summary>The environment variable naming the certificate directory.</summary>
    public const string DirectoryVariable = "NETCORESERVER_CERTIFICATES";

    /// <summary>The environment variable holding the PKCS#12 password.</summary>
    public const string PasswordVariable = "NETCORESERVER_CERTIFICATE_PASSWORD";

    private const string DirectoryOption = "--certificates";
    private const string PasswordOption = "--password";
    private const string SolutionFileName = "NetCoreServer.sln";

    private ExampleCertificates(string directory, string password)
    {
        Directory = directory;
        Password = password;
    }

    /// <summary>The directory holding (or about to hold) <c>ca.crt</c>, <c>server.pfx</c> and <c>client.pfx</c>.</summary>
    public string Directory { get; }

    /// <summary>The password of the PKCS#12 files.</summary>
    public string Password { get; }

    /// <summary>
    /// The command line of a TLS server example: certificate options, then [port] [address]. On a bad command line it
    /// prints what is wrong and <paramref name="usage"/> to standard error and returns false.
    /// </summary>
    /// <param name="args">The command line.</param>
    /// <param name="usage">The program's usage, from <see cref="ServerUsage"/>.</param>
    /// <param name="defaultPort">The port when none is given.</param>
    /// <param name="certificates">Where the certificates are, on success.</param>
    /// <param name="address">The address to listen on.</param>
    /// <param name="port">The port to listen on.</param>
    /// <returns>True when the command line is good.</returns>
    public static bool TryParseServer(IReadOnlyList<string> args, ExampleUsage usage, int defaultPort,
        [NotNullWhen(true)] out ExampleCertificates? certificates, out System.Net.IPAddress address, out int port)
    {
        address = System.Net.IPAddress.Any;
        port = defaultPort;
        if (TryParse(args, out certificates, out var positional, out var error) && ChatArguments.TryParseServer(positional, defaultPort, out address, out port))
            return true;
        usage.Error(error);
        certificates = null;
        return false;
    }

    /// <summary>The usage of a TLS server example: certificate options, then [port] [address].</summary>
    /// <param name="program">The program's name.</param>
    /// <param name="summary">What it does, in one line.</param>
    /// <param name="defaultPort">The port when none is given.</param>
    /// <returns>The usage.</returns>
    public static ExampleUsage ServerUsage(string program, string summary, int defaultPort)
        => UsageOf(program, summary, "[port] [address]", $"{defaultPort} {ChatArguments.DefaultAddress}; port 0 picks a free port");

    /// <summary>The usage of a TLS example: the certificate options, then <paramref name="arguments"/>.</summary>
    /// <param name="program">The program's name.</param>
    /// <param name="summary">What it does, in one line.</param>
    /// <param name="arguments">Its arguments after the certificate options.</param>
    /// <param name="defaults">What it does without them.</param>
    /// <returns>The usage.</returns>
    public static ExampleUsage UsageOf(string program, string summary, string arguments, string defaults)
        => new(program, summary, $"{Usage} {arguments}",
            $"   (defaults: {defaults};",
            $"    certificates from {DirectoryVariable} or the repository's tools/certificates, password {PasswordVariable} or {DevelopmentCertificates.DefaultPassword})");

    /// <summary>Takes the certificate options out of the command line and settles the directory and password.</summary>
    /// <param name="args">The command line.</param>
    /// <param name="certificates">Where the certificates are, on success.</param>
    /// <param name="remaining">The arguments that are not certificate options, in their order.</param>
    /// <param name="error">What is wrong, on failure: an option without a value, or no directory found.</param>
    /// <returns>True on success.</returns>
    public static bool TryParse(
        IReadOnlyList<string> args,
        [NotNullWhen(true)] out ExampleCertificates? certificates,
        out string[] remaining,
        [NotNullWhen(false)] out string? error)
    {
        certificates = null;
        string? directory = null;
        string? password = null;
        var rest = new List<string>();
        for (var i = 0; i < args.Count; i++)
        {
            if (args[i] is not (DirectoryOption or PasswordOption))
            {
                rest.Add(args[i]);
                continue;
            }
            if (i + 1 == args.Count)
            {
                remaining = rest.ToArray();
                error = $"{args[i]} needs a value";
                return false;
            }
            if (args[i] == DirectoryOption)
                directory = args[++i];
            else
                password = args[++i];
        }
        remaining = rest.ToArray();

        directory ??= Variable(DirectoryVariable) ?? FindRepositoryCertificates();
        if (directory is null)
        {
            error = $"tools/certificates was not found above {AppContext.BaseDirectory} or {Environment.CurrentDirectory}; "
                + $"pass {DirectoryOption} DIR or set {DirectoryVariable}";
            return false;
        }
        password ??= Variable(PasswordVariable) ?? DevelopmentCertificates.DefaultPassword;
        certificates = new ExampleCertificates(Path.GetFullPath(directory), password);
        error = null;
        return true;
    }

    /// <summary>
    /// Loads this side's certificate, creating the directory's files first when it is missing, and the authority
    /// that issued them, to check the peer's certificate against. Prints what it does; failures go to stderr.
    /// </summary>
    /// <param name="fileName"><c>server.pfx</c> or <c>client.pfx</c>.</param>
    /// <param name="certificate">The certificate with its private key, on success.</param>
    /// <param name="authority">The authority of <c>ca.crt</c>, on success.</param>
    /// <returns>False when a file cannot be created or read (wrong password, unwritable directory).</returns>
    public bool TryLoad(
        string fileName,
        [NotNullWhen(true)] out X509Certificate2? certificate,
        [NotNullWhen(true)] out CertificateAuthority? authority)
    {
        certificate = null;
        authority = null;
        var path = Path.Combine(Directory, fileName);
        Console.WriteLine($"Certificates: {path} and {Path.Combine(Directory, "ca.crt")}");
        try
        {
            // The certificate first: creating it also creates the authority's ca.crt when that is missing.
            certificate = DevelopmentCertificates.LoadOrCreatePfx(path, Password, log: Console.Out);
            authority = new CertificateAuthority(DevelopmentCertificates.LoadAuthority(Directory));
            return true;
        }
        catch (Exception exception) when (exception is CryptographicException or IOException or UnauthorizedAccessException or TimeoutException)
        {
            certificate?.Dispose();
            certificate = null;
            Console.Error.WriteLine($"The certificates in {Directory} cannot be used: {exception.Message}");
            return false;
        }
    }

    private static string? Variable(string name)
        => Environment.GetEnvironmentVariable(name) is { Length: > 0 } value ? value : null;

    private static string? FindRepositoryCertificates()
    {
        // The program's directory first: it does not depend on where the user is. The current directory covers
        // builds placed outside the repository (dotnet build --artifacts-path /tmp/...).
        foreach (var start in new[] { AppContext.BaseDirectory, Environment.CurrentDirectory })
        {
            for (var directory = new DirectoryInfo(start); directory is not null; directory = directory.Parent)
            {
                if (File.Exists(Path.Combine(directory.FullName, SolutionFileName)))
                    return Path.Combine(directory.FullName, "tools", "certificates");
            }
        }
        return null;
    }
}
