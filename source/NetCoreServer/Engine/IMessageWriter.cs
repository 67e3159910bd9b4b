namespace NetCoreServer.Engine;

/// <summary>
/// A message that writes itself into the send queue under the session lock (<see cref="SendPipeline.EnqueueWritten{T}"/>):
/// a WebSocket frame, whose "may it still go" check is then one step with its place in the queue.
/// </summary>
internal interface IMessageWriter
{
    /// <summary>The message's size in bytes, exactly what <see cref="WriteTo"/> writes.</summary>
    int Length { get; }

    /// <summary>Under the session lock, or in a receive hook's <see cref="SendStage"/>, once there is room: false drops the message (its producer refuses it now).</summary>
    bool Commit();

    /// <summary>
    /// True when another thread can turn <see cref="Commit"/> false (a WebSocket data frame, once a close is sent):
    /// staged, it is checked and written inside the <see cref="SendStage"/>'s gate, which a seal by that thread takes.
    /// </summary>
    bool MayBeRefused { get; }

    /// <summary>Writes the message, <see cref="Length"/> bytes, under the session lock or into the writing thread's <see cref="SendStage"/>; calls no user code.</summary>
    void WriteTo(ref QueueWriter queue);
}
