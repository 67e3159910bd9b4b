using System;
using System.Runtime.InteropServices;
using NetCoreServer.Transports;

namespace NetCoreServer;

/// <summary>
/// What a path holds, read without following a symlink: its type and which file it is (device and inode), so that
/// a server removes only a socket file, and only the one it bound. Linux only (statx, glibc 2.28+); elsewhere, or
/// where statx is missing or refused, the answer is <see cref="FileKind.Unknown"/> (the default value).
/// </summary>
/// <param name="Kind">What the path holds.</param>
/// <param name="DeviceMajor">Major number of the device holding the file.</param>
/// <param name="DeviceMinor">Minor number of the device holding the file.</param>
/// <param name="Inode">Inode number of the file on that device.</param>
internal readonly record struct SocketFile(SocketFile.FileKind Kind, uint DeviceMajor, uint DeviceMinor, ulong Inode)
{
    private const int AtFdCwd = -100;
    private const int AtSymlinkNoFollow = 0x100;
    private const uint StatxType = 0x001;
    private const uint StatxIno = 0x100;
    private const int ModeTypeMask = 0xF000;   // S_IFMT
    private const int ModeSocket = 0xC000;     // S_IFSOCK
    private const int ENOENT = 2;
    private const int ENOTDIR = 20;

    /// <summary>What a path can hold, as far as a socket server cares.</summary>
    internal enum FileKind
    {
        /// <summary>Not known: not Linux, or statx is missing or refused.</summary>
        Unknown,

        /// <summary>Nothing is there.</summary>
        Missing,

        /// <summary>A socket file.</summary>
        Socket,

        /// <summary>Anything else: a regular file, a directory, a symlink (not followed), a pipe, a device.</summary>
        Other,
    }

    /// <summary>True for a socket file that is the very file <paramref name="other"/> described (same device and inode).</summary>
    /// <param name="other">What the path held earlier.</param>
    /// <returns>False when either is not a socket file.</returns>
    public bool IsSameSocketFileAs(SocketFile other)
        => Kind == FileKind.Socket && other.Kind == FileKind.Socket
            && DeviceMajor == other.DeviceMajor && DeviceMinor == other.DeviceMinor && Inode == other.Inode;

    /// <summary>Reads what <paramref name="path"/> names now.</summary>
    /// <param name="path">A file system path.</param>
    /// <returns>The entry; <see cref="FileKind.Unknown"/> when it cannot be told on this system.</returns>
    public static SocketFile Inspect(string path)
    {
        if (!OperatingSystem.IsLinux())
            return default;
        StatxBuffer buffer;
        int result;
        try
        {
            result = statx(AtFdCwd, path, AtSymlinkNoFollow, StatxType | StatxIno, out buffer);
        }
        catch (Exception e) when (e is EntryPointNotFoundException or DllNotFoundException)
        {
            // glibc before 2.28, or a C library without statx.
            return default;
        }
        if (result != 0)
        {
            var errno = Marshal.GetLastPInvokeError();
            // ENOTDIR: a parent is not a directory, so nothing can be there; bind reports its own error.
            return errno is ENOENT or ENOTDIR ? new SocketFile(FileKind.Missing, 0, 0, 0) : default;
        }
        // The kernel fills what the file system can tell; type and inode are basic fields every one has.
        if ((buffer.Mask & (StatxType | StatxIno)) != (StatxType | StatxIno))
            return default;
        var kind = (buffer.Mode & ModeTypeMask) == ModeSocket ? FileKind.Socket : FileKind.Other;
        return new SocketFile(kind, buffer.DeviceMajor, buffer.DeviceMinor, buffer.Inode);
    }

    [DllImport("libc", SetLastError = true)]
    private static extern int statx(int dirfd, [MarshalAs(UnmanagedType.LPUTF8Str)] string pathname, int flags, uint mask, out StatxBuffer statxbuf);

    /// <summary>struct statx (linux/stat.h): 256 bytes, the same layout on every architecture.</summary>
    [StructLayout(LayoutKind.Explicit, Size = 256)]
    private struct StatxBuffer
    {
        [FieldOffset(0)]
        public uint Mask;

        [FieldOffset(28)]
        public ushort Mode;

        [FieldOffset(32)]
        public ulong Inode;

        [FieldOffset(136)]
        public uint DeviceMajor;

        [FieldOffset(140)]
        public uint DeviceMinor;
    }
}
