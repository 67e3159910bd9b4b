// sleep-cost.cs: the CPU a thread spends per 1-ms sleep, Thread.Sleep against one clock_nanosleep (the watchdog's look).
// dotnet run sleep-cost.cs -- sleep 5   (or: nano 5)
using System;
using System.Diagnostics;
using System.Runtime.InteropServices;
using System.Threading;

static class P
{
    [StructLayout(LayoutKind.Sequential)] struct Ts { public nint S; public nint N; }
    [DllImport("libc")] static extern int clock_nanosleep(int c, int f, in Ts r, out Ts rem);
    [DllImport("libc")] static extern int gettid();

    static void Main(string[] a)
    {
        var mode = a[0]; var seconds = int.Parse(a[1]);
        long ticks = 0; int tid = 0; long n = 0;
        var t = new Thread(() =>
        {
            tid = gettid();
            var sw = Stopwatch.StartNew();
            var req = new Ts { S = 0, N = 1_000_000 };
            while (sw.Elapsed.TotalSeconds < seconds)
            {
                if (mode == "sleep") Thread.Sleep(TimeSpan.FromMilliseconds(1));
                else clock_nanosleep(1, 0, in req, out _);
                n++;
            }
            var s = System.IO.File.ReadAllText($"/proc/self/task/{tid}/stat");
            var f = s[(s.LastIndexOf(')') + 2)..].Split(' ');
            ticks = long.Parse(f[11]) + long.Parse(f[12]);
        });
        t.Start(); t.Join();
        Console.WriteLine($"{mode}: {n} ticks of the loop in {seconds} s, thread CPU {ticks * 10} ms, {ticks * 10_000.0 / n:F2} us per tick");
    }
}
