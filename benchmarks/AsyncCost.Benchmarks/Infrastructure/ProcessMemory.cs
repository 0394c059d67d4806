using System.Globalization;

namespace AsyncCost.Benchmarks.Infrastructure;

/// <summary>Resident memory and the limits on thread count, as Linux reports them in /proc.</summary>
public static class ProcessMemory
{
    public const int MappingsPerThread = 4;

    /// <summary>The process's resident set in bytes (VmRSS in /proc/self/status).</summary>
    public static long ResidentBytes()
    {
        foreach (var line in File.ReadLines("/proc/self/status"))
        {
            if (line.StartsWith("VmRSS:", StringComparison.Ordinal))
                return long.Parse(line.AsSpan(6).Trim().TrimEnd("kB").Trim(), CultureInfo.InvariantCulture) * 1024;
        }
        throw new InvalidOperationException("/proc/self/status has no VmRSS line.");
    }

    /// <summary>
    /// How many more threads this process can start, and which limit says so: kernel.threads-max, the cgroup's
    /// pids.max, and vm.max_map_count (a .NET thread on Linux x64 takes 4 mappings, measured: its stack and guard page
    /// and its alternate signal stack and guard page; at the default 65,530 that stops a process near 16k threads).
    /// RLIMIT_NPROC is left out: it counts all the user's processes, and root is exempt.
    /// </summary>
    public static (int Threads, string Limit) ThreadHeadroom()
    {
        var limits = new List<(long Threads, string Limit)>();
        var threadsMax = ReadNumber("/proc/sys/kernel/threads-max");
        if (threadsMax > 0)
            limits.Add((threadsMax - Directory.GetDirectories("/proc").Length, $"kernel.threads-max = {threadsMax}"));
        var pidsMax = ReadNumber("/sys/fs/cgroup/pids.max");
        var pidsCurrent = ReadNumber("/sys/fs/cgroup/pids.current");
        if (pidsMax > 0)
            limits.Add((pidsMax - pidsCurrent, $"cgroup pids.max = {pidsMax}"));
        var maxMapCount = ReadNumber("/proc/sys/vm/max_map_count");
        if (maxMapCount > 0)
        {
            var mapped = File.ReadLines("/proc/self/maps").LongCount();
            limits.Add(((maxMapCount - mapped) / MappingsPerThread, $"vm.max_map_count = {maxMapCount} ({MappingsPerThread} mappings per thread)"));
        }
        if (limits.Count == 0)
            return (int.MaxValue, "no limit readable");
        var tightest = limits.MinBy(l => l.Threads);
        return ((int)Math.Clamp(tightest.Threads, 0, int.MaxValue), tightest.Limit);
    }

    private static long ReadNumber(string path)
    {
        try
        {
            return long.TryParse(File.ReadAllText(path).Trim(), NumberStyles.Integer, CultureInfo.InvariantCulture, out var value) ? value : -1;
        }
        catch (IOException)
        {
            return -1;
        }
        catch (UnauthorizedAccessException)
        {
            return -1;
        }
    }
}
