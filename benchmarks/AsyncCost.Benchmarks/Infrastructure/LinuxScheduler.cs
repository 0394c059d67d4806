using System.Runtime.InteropServices;

namespace AsyncCost.Benchmarks.Infrastructure;

/// <summary>The few Linux scheduler calls the warm-up-tax suite needs, and the per-thread switch counters in /proc.</summary>
public static partial class LinuxScheduler
{
    /// <summary>Pins the calling thread to one CPU (sched_setaffinity with pid 0 = the calling thread).</summary>
    public static void PinCurrentThreadTo(int cpu)
    {
        var mask = 1UL << cpu;
        if (sched_setaffinity(0, (nuint)sizeof(ulong), ref mask) != 0)
            throw new InvalidOperationException($"sched_setaffinity(cpu {cpu}) failed: errno {Marshal.GetLastPInvokeError()}.");
    }

    /// <summary>Gives the CPU to another runnable thread on this CPU, if there is one.</summary>
    public static void Yield() => _ = sched_yield();

    /// <summary>The calling thread's voluntary and involuntary context switches so far (/proc/thread-self/status).</summary>
    public static (long Voluntary, long Involuntary) CurrentThreadSwitches()
    {
        long voluntary = 0, involuntary = 0;
        foreach (var line in File.ReadLines("/proc/thread-self/status"))
        {
            if (line.StartsWith("voluntary_ctxt_switches:", StringComparison.Ordinal))
                voluntary = long.Parse(line.AsSpan("voluntary_ctxt_switches:".Length).Trim(), System.Globalization.CultureInfo.InvariantCulture);
            else if (line.StartsWith("nonvoluntary_ctxt_switches:", StringComparison.Ordinal))
                involuntary = long.Parse(line.AsSpan("nonvoluntary_ctxt_switches:".Length).Trim(), System.Globalization.CultureInfo.InvariantCulture);
        }
        return (voluntary, involuntary);
    }

    [LibraryImport("libc", SetLastError = true)]
    private static partial int sched_setaffinity(int pid, nuint cpusetsize, ref ulong mask);

    [LibraryImport("libc")]
    private static partial int sched_yield();
}
