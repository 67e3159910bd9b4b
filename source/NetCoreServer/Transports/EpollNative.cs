using System.Runtime.InteropServices;

namespace NetCoreServer.Transports;

/// <summary>The libc calls of the event loops (epoll, eventfd) and their constants, for <see cref="EventLoop"/> alone.</summary>
internal static class EpollNative
{
    public const int EPOLL_CLOEXEC = 0x80000;
    public const int EPOLL_CTL_ADD = 1;
    public const int EPOLL_CTL_DEL = 2;
    public const uint EPOLLET = 0x80000000;
    public const int EINTR = 4;
    public const int EFD_NONBLOCK = 0x800;
    public const int EFD_CLOEXEC = 0x80000;

    [DllImport("libc", SetLastError = true)]
    public static extern int epoll_create1(int flags);

    [DllImport("libc", SetLastError = true)]
    // The event may be null for EPOLL_CTL_DEL (Linux 2.6.9 and later).
    public static extern int epoll_ctl(int epfd, int op, int fd, byte[]? ev);

    [DllImport("libc", SetLastError = true)]
    public static extern int epoll_wait(int epfd, [Out] byte[] events, int maxevents, int timeout);

    [DllImport("libc", SetLastError = true)]
    public static extern int eventfd(uint initval, int flags);

    [DllImport("libc", SetLastError = true)]
    public static extern nint read(int fd, ref ulong value, nint count);

    [DllImport("libc", SetLastError = true)]
    public static extern nint write(int fd, ref ulong value, nint count);

    [DllImport("libc", SetLastError = true)]
    public static extern int close(int fd);

    // The calling thread's kernel id (glibc 2.30 and later), for the watchdog's look at its state.
    [DllImport("libc")]
    public static extern int gettid();
}
