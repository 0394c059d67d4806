namespace AsyncCost.Benchmarks.Report;

/// <summary>Facts about this machine that BenchmarkDotNet's exports lack (cache sizes, kernel, virtualization), read
/// from /sys and /proc when the report is generated — on the machine that ran the benchmarks.</summary>
public static class MachineFacts
{
    /// <summary>"L1d 48K, L2 2048K, L3 260M per cpu0" from /sys/devices/system/cpu/cpu0/cache.</summary>
    public static string Caches()
    {
        var folder = "/sys/devices/system/cpu/cpu0/cache";
        if (!Directory.Exists(folder))
            return "caches unknown";
        var caches = Directory.EnumerateDirectories(folder, "index*")
            .Select(index => (Level: Read(Path.Combine(index, "level")), Type: Read(Path.Combine(index, "type")), Size: Read(Path.Combine(index, "size"))))
            .Where(c => c.Type != "Instruction")
            .OrderBy(c => c.Level, StringComparer.Ordinal)
            .Select(c => $"L{c.Level}{(c.Type == "Data" ? "d" : "")} {c.Size}");
        return "caches of one core: " + string.Join(", ", caches);
    }

    public static string Kernel() => Read("/proc/sys/kernel/osrelease");

    /// <summary>Whether the CPU runs under a hypervisor (the "hypervisor" cpuinfo flag).</summary>
    public static string Virtualization()
    {
        try
        {
            return File.ReadLines("/proc/cpuinfo").Any(l => l.StartsWith("flags", StringComparison.Ordinal) && l.Contains(" hypervisor", StringComparison.Ordinal))
                ? "a virtual machine (hypervisor flag set)"
                : "bare metal";
        }
        catch (IOException)
        {
            return "virtualization unknown";
        }
    }

    /// <summary>Size in bytes of the L2 cache of one core, or null.</summary>
    public static long? L2Bytes()
    {
        var folder = "/sys/devices/system/cpu/cpu0/cache";
        if (!Directory.Exists(folder))
            return null;
        foreach (var index in Directory.EnumerateDirectories(folder, "index*"))
        {
            if (Read(Path.Combine(index, "level")) == "2")
            {
                var size = Read(Path.Combine(index, "size"));
                if (size.EndsWith('K') && long.TryParse(size[..^1], out var kb))
                    return kb * 1024;
            }
        }
        return null;
    }

    private static string Read(string path)
    {
        try
        {
            return File.ReadAllText(path).Trim();
        }
        catch (IOException)
        {
            return "?";
        }
        catch (UnauthorizedAccessException)
        {
            return "?";
        }
    }
}
