using System.Threading.Tasks;

namespace NetCoreServer.Engine;

/// <summary>What few connections need: a waited-for completion, a graceful disconnect's timer.</summary>
internal sealed class LifecycleSide
{
    public TaskCompletionSource? Completion;

    public CallbackTimer? DisconnectTimer;
}
