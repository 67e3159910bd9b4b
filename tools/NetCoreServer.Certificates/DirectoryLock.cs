using System;
using System.IO;
using System.Security.Cryptography;
using System.Text;
using System.Threading;

namespace NetCoreServer.Certificates;

/// <summary>
/// An exclusive lock on creating certificates in one directory, held across threads and processes (an example
/// server and client started together both find the files missing).
/// </summary>
internal sealed class DirectoryLock : IDisposable
{
    // Generating keys takes seconds; a holder this slow has hung, and waiting longer would only hide it.
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(2);
    private static readonly TimeSpan s_retryInterval = TimeSpan.FromMilliseconds(50);

    private readonly FileStream _file;

    private DirectoryLock(FileStream file)
    {
        _file = file;
    }

    /// <summary>Blocks until this caller alone may create files in <paramref name="directory"/>.</summary>
    /// <exception cref="TimeoutException">Another holder kept the lock for two minutes.</exception>
    public static DirectoryLock Acquire(string directory)
    {
        // The lock file lives in the temporary directory, not among the certificates where it could be committed.
        // FileShare.None takes an flock on Unix and a sharing lock on Windows; both end with the holder's process.
        // The user name is part of the key: another user's lock file in a shared /tmp would not be writable.
        string key = Environment.UserName + "\n" + Path.GetFullPath(directory);
        byte[] hash = SHA256.HashData(Encoding.UTF8.GetBytes(key));
        string path = Path.Combine(Path.GetTempPath(), $"netcoreserver-certificates-{Convert.ToHexStringLower(hash, 0, 8)}.lock");
        DateTime deadline = DateTime.UtcNow + s_timeout;
        while (true)
        {
            try
            {
                return new DirectoryLock(new FileStream(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None));
            }
            catch (IOException) when (DateTime.UtcNow < deadline)
            {
                Thread.Sleep(s_retryInterval);
            }
            catch (IOException exception)
            {
                throw new TimeoutException(
                    $"Gave up after {s_timeout.TotalMinutes} minutes waiting for another process to finish creating certificates in '{directory}' (lock '{path}').",
                    exception);
            }
        }
    }

    /// <summary>Releases the lock.</summary>
    public void Dispose()
    {
        _file.Dispose();
    }
}
