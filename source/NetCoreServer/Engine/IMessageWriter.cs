namespace NetCoreServer.Engine;

/// <summary>
/// A message that writes itself into the send queue under the session lock (<see cref="SendPipeline.EnqueueWritten{T}"/>):
/// a WebSocket frame, whose "may it still go" check is then one step with its place in the queue.
/// </summary>
internal interface IMessageWriter
{
    /// <summary>The message's size in bytes, exactly what <see cref="WriteTo"/> writes.</summary>
    int Length { get; }

    /// <summary>Under the session lock, once the send limit has room: false drops the message (its producer refuses it now).</summary>
    bool Commit();

    /// <summary>
    /// True when <see cref="Commit"/> cannot turn false because of another thread (a framed message): such a message may
    /// be written into a receive hook's <see cref="SendStage"/>, outside the lock. A WebSocket data frame may not: its
    /// "still open" check must be one step with its place in the queue, or it could land after a close frame.
    /// </summary>
    bool MayStage { get; }

    /// <summary>Writes the message, <see cref="Length"/> bytes, under the session lock or into the writing thread's <see cref="SendStage"/>; calls no user code.</summary>
    void WriteTo(ref QueueWriter queue);
}
