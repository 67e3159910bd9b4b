using System;
using System.Collections.Generic;
using System.Diagnostics.CodeAnalysis;

namespace NetCoreServer.Performance.Common;

/// <summary>
/// The protocols one benchmark program implements, each as a factory of the program's own kind
/// (<see cref="ServerFactory{TOptions}"/> or <see cref="ClientFactory{TOptions}"/>): a table with one row per protocol.
/// Adding ws, wss, http or https to a program is one <see cref="Add"/> call.
/// </summary>
public sealed class ProtocolCatalog<TFactory>
    where TFactory : class
{
    private readonly Dictionary<string, TFactory> _factories = new(StringComparer.OrdinalIgnoreCase);
    private readonly List<string> _names = [];

    /// <summary>Registers the factory of <paramref name="protocol"/>; returns this catalog for chaining.</summary>
    public ProtocolCatalog<TFactory> Add(string protocol, TFactory factory)
    {
        _factories.Add(protocol, factory);
        _names.Add(protocol.ToLowerInvariant());
        return this;
    }

    /// <summary>
    /// Finds the factory of <paramref name="protocol"/>; when there is none, <paramref name="error"/> says whether the
    /// name is unknown or known but not implemented by this program, and which ones are.
    /// </summary>
    public bool TryResolve(string protocol, [NotNullWhen(true)] out TFactory? factory, [NotNullWhen(false)] out string? error)
    {
        if (_factories.TryGetValue(protocol, out factory))
        {
            error = null;
            return true;
        }

        var available = string.Join(", ", _names);
        error = Protocols.IsKnown(protocol)
            ? $"protocol '{protocol}' is not implemented by this benchmark yet; available: {available}"
            : $"unknown protocol '{protocol}'; known protocols: {string.Join(", ", Protocols.Known)}; available here: {available}";
        return false;
    }
}
