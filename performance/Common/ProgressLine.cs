using System;
using System.Globalization;
using System.Threading;

namespace NetCoreServer.Performance.Common;

/// <summary>
/// A live "elapsed, msg/s, MiB/s, errors" line on stderr, rewritten in place with '\r' once a second while a
/// benchmark runs. Only shown when stderr is a terminal, so logs and scripts never see it; one sample a second
/// keeps it off the measured path.
/// </summary>
public sealed class ProgressLine : IDisposable
{
    private readonly Func<(long Bytes, long Errors)> _sample;
    private readonly int _messageSize;
    private readonly int _seconds;
    private readonly DateTime _started = DateTime.UtcNow;
    private readonly Timer? _timer;
    private readonly Lock _lock = new();
    private long _lastBytes;
    private DateTime _lastTime;
    private bool _disposed;
    private int _width;

    /// <summary>Starts showing the line, when stderr is a terminal.</summary>
    /// <param name="sample">Returns the bytes received and errors so far; called once a second on a timer thread.</param>
    /// <param name="messageSize">Message size, to turn bytes into messages.</param>
    /// <param name="seconds">The planned duration, shown as "elapsed/planned".</param>
    public ProgressLine(Func<(long Bytes, long Errors)> sample, int messageSize, int seconds)
    {
        _sample = sample;
        _messageSize = messageSize;
        _seconds = seconds;
        _lastTime = _started;
        if (!Console.IsErrorRedirected)
            _timer = new Timer(_ => Tick(), null, TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(1));
    }

    /// <summary>Stops the line and clears it from the terminal.</summary>
    public void Dispose()
    {
        lock (_lock)
        {
            if (_disposed)
                return;
            _disposed = true;
            _timer?.Dispose();
            if (_width > 0)
                Console.Error.Write("\r" + new string(' ', _width) + "\r");
        }
    }

    private void Tick()
    {
        lock (_lock)
        {
            if (_disposed)
                return;
            var now = DateTime.UtcNow;
            var (bytes, errors) = _sample();
            var interval = Math.Max((now - _lastTime).TotalSeconds, 1e-3);
            var bytesPerSecond = (bytes - _lastBytes) / interval;
            _lastBytes = bytes;
            _lastTime = now;

            var text = string.Create(CultureInfo.InvariantCulture,
                $"[{(now - _started).TotalSeconds,3:0}/{_seconds} s] {bytesPerSecond / _messageSize,12:0} msg/s {bytesPerSecond / (1024 * 1024),10:0.000} MiB/s  errors: {errors}");
            _width = Math.Max(_width, text.Length);
            Console.Error.Write("\r" + text.PadRight(_width));
        }
    }
}
