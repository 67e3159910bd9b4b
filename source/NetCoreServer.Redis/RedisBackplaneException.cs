using System;

namespace NetCoreServer.Redis;

/// <summary>A <see cref="RedisBackplane"/> could not attach: Redis was unreachable, or refused the subscription.</summary>
public sealed class RedisBackplaneException : Exception
{
    /// <summary>Creates the exception.</summary>
    /// <param name="message">What failed and what to do about it.</param>
    /// <param name="inner">The Redis client's error.</param>
    public RedisBackplaneException(string message, Exception? inner)
        : base(message, inner)
    {
    }
}
