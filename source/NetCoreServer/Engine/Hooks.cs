using System;

namespace NetCoreServer.Engine;

/// <summary>What a hook is doing, where a check depends on it (see <see cref="Hooks"/>).</summary>
internal enum HookKind
{
    /// <summary>Any hook with no special rule.</summary>
    Other,

    /// <summary>OnSent or OnEmpty, raised by the send loop: a blocking Send from there must not wait for that loop.</summary>
    Sending,

    /// <summary>OnDisconnecting of a graceful disconnect: sends from there are still accepted (a goodbye).</summary>
    Disconnecting,
}

/// <summary>
/// The one record of which hook the current thread runs, shared by the stream and the datagram engines, and the one
/// rule for a hook that throws.
/// </summary>
/// <remarks>
/// The rule: a hook raised by one of the library's own loops (receive, send, accept, handshake, teardown) that throws
/// is handed to the owner's <c>OnHandlerException</c> and never unwinds into the loop or the thread pool; a stream
/// connection then closes with <see cref="DisconnectReason.HandlerException"/>, a UDP socket carries on. A hook raised
/// inline by a call the user made (a blocking Send or Receive, a refused SendAsync, Connect) lets its exception reach
/// that call, like any method the caller invokes. Waiting on a connection from inside its own hook would deadlock, so
/// blocking calls ask <see cref="Inside(object)"/> first.
/// </remarks>
internal static class Hooks
{
    [ThreadStatic]
    private static object? t_owner;

    [ThreadStatic]
    private static HookKind t_kind;

    /// <summary>True when the calling thread runs a hook of any connection or socket.</summary>
    public static bool InsideAny => t_owner != null;

    /// <summary>True when the calling thread runs a hook of <paramref name="owner"/>.</summary>
    public static bool Inside(object owner) => ReferenceEquals(t_owner, owner);

    /// <summary>True when the calling thread runs a hook of <paramref name="owner"/> of the given kind.</summary>
    public static bool Inside(object owner, HookKind kind) => ReferenceEquals(t_owner, owner) && t_kind == kind;

    /// <summary>Marks a hook raised inline by a user's call; its exceptions reach that call. Dispose the scope when the hook returns.</summary>
    public static Scope Enter(object owner, HookKind kind = HookKind.Other)
    {
        var scope = new Scope(t_owner, t_kind);
        t_owner = owner;
        t_kind = kind;
        return scope;
    }

    /// <summary>
    /// Raises a hook from one of the library's loops: an exception goes to <paramref name="failed"/> (the owner's
    /// OnHandlerException and what follows from it). Static lambdas with an explicit argument keep this allocation-free.
    /// </summary>
    /// <returns>False when the hook threw.</returns>
    public static bool Run<TOwner, TArg>(TOwner owner, HookKind kind, TArg arg, Action<TOwner, TArg> hook, Action<TOwner, Exception> failed)
        where TOwner : class
    {
        var scope = Enter(owner, kind);
        try
        {
            hook(owner, arg);
            return true;
        }
        catch (Exception exception)
        {
            failed(owner, exception);
            return false;
        }
        finally
        {
            scope.Dispose();
        }
    }

    /// <summary>Restores the hook record of the enclosing hook (hooks nest: a hook may send on another connection).</summary>
    public readonly ref struct Scope
    {
        private readonly object? _previousOwner;
        private readonly HookKind _previousKind;

        internal Scope(object? previousOwner, HookKind previousKind)
        {
            _previousOwner = previousOwner;
            _previousKind = previousKind;
        }

        public void Dispose()
        {
            t_owner = _previousOwner;
            t_kind = _previousKind;
        }
    }
}
