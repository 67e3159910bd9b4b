using System;
using System.Collections.Concurrent;
using System.Reflection;

namespace NetCoreServer.Protocols;

/// <summary>
/// Whether a connection class overrides <c>OnReceived(byte[], long, long)</c> below the library's own classes, looked up
/// once per concrete type. NetCoreServer's HTTP and WebSocket classes parse in that method, so a user override sees
/// the raw bytes and its <c>base.OnReceived</c> parses them; only such types pay for routing bytes through it.
/// </summary>
internal static class ReceivedOverride
{
    private static readonly ConcurrentDictionary<Type, bool> s_types = new();
    private static readonly Type[] s_parameters = [typeof(byte[]), typeof(long), typeof(long)];

    /// <summary>True when <paramref name="type"/> or a base of it outside this library overrides OnReceived.</summary>
    public static bool In(Type type) => s_types.GetOrAdd(type, static t => Find(t));

    private static bool Find(Type type)
    {
        const BindingFlags instance = BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic;
        try
        {
            var method = type.GetMethod("OnReceived", instance, null, s_parameters, null);
            return method != null && method.DeclaringType!.Assembly != typeof(ReceivedOverride).Assembly;
        }
        catch (AmbiguousMatchException)
        {
            // A user's class hides it with "new": route through the virtual to be safe.
            return true;
        }
    }
}
