using System.Threading;

namespace NetCoreServer.Engine;

/// <summary>
/// The session lock: one per connection, guarding the state its components share (lifecycle, receive pump, send
/// pipeline, backpressure, multicast cursor), so that accepting a send, starting a disconnect and draining the queue
/// are each one step. A method that needs it takes a <see cref="Held"/>, which only <see cref="Enter"/> makes.
/// </summary>
/// <remarks>
/// The engine derives from it instead of holding one: an idle connection pays no object for its lock. Components are
/// handed the engine and take the lock through <see cref="Enter"/>; nothing takes the engine's monitor any other way.
/// No hook runs under it. Why one lock and not one per component: docs/design/engine.md.
/// </remarks>
internal abstract class SessionLock
{
    /// <summary>Takes the lock; dispose the result to let go (<c>using var held = Enter();</c>).</summary>
    public Held Enter()
    {
        Monitor.Enter(this);
        return new Held(this);
    }

    /// <summary>
    /// Proof that the session lock is held: a parameter of every method that touches guarded state. A ref struct, so it
    /// cannot be stored, captured or carried across an await, and it lives no longer than the scope that took the lock.
    /// </summary>
    public readonly ref struct Held
    {
        private readonly SessionLock _owner;

        internal Held(SessionLock owner) => _owner = owner;

        /// <summary>Lets go of the lock.</summary>
        public void Dispose() => Monitor.Exit(_owner);
    }
}
