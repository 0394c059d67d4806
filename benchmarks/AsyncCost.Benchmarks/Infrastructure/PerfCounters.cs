using System.Runtime.InteropServices;

namespace AsyncCost.Benchmarks.Infrastructure;

/// <summary>
/// User-mode cycle and instruction counters of the calling thread through perf_event_open (no libc wrapper:
/// syscall 298 on x86-64). Optional by nature: perf_event_paranoid, containers and VMs without a virtual PMU forbid
/// it, and then <see cref="TryOpen"/> says why instead of producing a number.
/// </summary>
public sealed partial class PerfCounters : IDisposable
{
    private const long PerfEventOpenSyscall = 298;
    private const uint PerfTypeHardware = 0;
    private const ulong PerfCountHwCpuCycles = 0;
    private const ulong PerfCountHwInstructions = 1;
    private const ulong PerfEventIocEnable = 0x2400;

    // perf_event_attr flag bits: disabled (0), exclude_kernel (5), exclude_hv (6). User mode only, so
    // perf_event_paranoid <= 2 allows it for the process's own threads.
    private const ulong AttrFlags = (1UL << 0) | (1UL << 5) | (1UL << 6);

    private readonly int _cycles;
    private readonly int _instructions;

    private PerfCounters(int cycles, int instructions)
    {
        _cycles = cycles;
        _instructions = instructions;
    }

    /// <summary>Opens and starts both counters for the calling thread, or returns null and the reason.</summary>
    public static PerfCounters? TryOpen(out string unavailableReason)
    {
        unavailableReason = "";
        if (!OperatingSystem.IsLinux() || RuntimeInformation.ProcessArchitecture != Architecture.X64)
        {
            unavailableReason = "not available here: perf_event_open is read only on Linux x86-64";
            return null;
        }
        var cycles = Open(PerfCountHwCpuCycles, out var errno);
        if (cycles < 0)
        {
            unavailableReason = Describe(errno);
            return null;
        }
        var instructions = Open(PerfCountHwInstructions, out errno);
        if (instructions < 0)
        {
            _ = close(cycles);
            unavailableReason = Describe(errno);
            return null;
        }
        _ = ioctl(cycles, PerfEventIocEnable, 0);
        _ = ioctl(instructions, PerfEventIocEnable, 0);
        return new PerfCounters(cycles, instructions);
    }

    public (long Cycles, long Instructions) Read() => (ReadCounter(_cycles), ReadCounter(_instructions));

    public void Dispose()
    {
        _ = close(_cycles);
        _ = close(_instructions);
    }

    private static unsafe int Open(ulong config, out int errno)
    {
        var attr = new PerfEventAttr { Type = PerfTypeHardware, Size = (uint)sizeof(PerfEventAttr), Config = config, Flags = AttrFlags };
        var fd = syscall(PerfEventOpenSyscall, (nint)(&attr), 0, -1, -1, 0);
        errno = fd < 0 ? Marshal.GetLastPInvokeError() : 0;
        return (int)fd;
    }

    private static unsafe long ReadCounter(int fd)
    {
        long value = 0;
        return read(fd, &value, sizeof(long)) == sizeof(long) ? value : 0;
    }

    private static string Describe(int errno) => errno switch
    {
        1 or 13 => $"not permitted here: perf_event_open returned {(errno == 1 ? "EPERM" : "EACCES")} (kernel.perf_event_paranoid = {ReadParanoid()})",
        2 or 95 => $"not available here: perf_event_open returned {(errno == 2 ? "ENOENT" : "EOPNOTSUPP")} (no hardware PMU exposed to this kernel, e.g. a VM without a virtual PMU)",
        _ => $"not available here: perf_event_open failed with errno {errno}",
    };

    private static string ReadParanoid()
    {
        try
        {
            return File.ReadAllText("/proc/sys/kernel/perf_event_paranoid").Trim();
        }
        catch (IOException)
        {
            return "unknown";
        }
    }

    /// <summary>perf_event_attr as of PERF_ATTR_SIZE_VER0 (64 bytes), which every kernel accepts.</summary>
    [StructLayout(LayoutKind.Sequential)]
    private struct PerfEventAttr
    {
        public uint Type;
        public uint Size;
        public ulong Config;
        public ulong SamplePeriod;
        public ulong SampleType;
        public ulong ReadFormat;
        public ulong Flags;
        public uint WakeupEvents;
        public uint BpType;
        public ulong Config1;
    }

    [LibraryImport("libc", SetLastError = true)]
    private static partial long syscall(long number, nint attr, int pid, int cpu, int groupFd, ulong flags);

    [LibraryImport("libc", SetLastError = true)]
    private static partial int ioctl(int fd, ulong request, ulong argument);

    [LibraryImport("libc", SetLastError = true)]
    private static unsafe partial nint read(int fd, void* buffer, nint count);

    [LibraryImport("libc")]
    private static partial int close(int fd);
}
