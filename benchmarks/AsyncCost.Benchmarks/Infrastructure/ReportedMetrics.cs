using System.Globalization;

namespace AsyncCost.Benchmarks.Infrastructure;

/// <summary>
/// Measurements a suite takes itself (context switches from /proc, perf counters, RSS) and hands to BenchmarkDotNet:
/// the benchmark process appends "id=value" lines to a file named after its process id (and prints them);
/// <see cref="ReportedMetricsDiagnoser"/> in the host reads that file once the process has exited and adds the
/// figures to the summary and the exports as metrics.
/// </summary>
public static class ReportedMetrics
{
    /// <summary>Voluntary context switches per operation, summed over the operation's threads (/proc thread status).</summary>
    public const string VoluntarySwitches = "VoluntarySwitches";

    /// <summary>Involuntary (preemption) context switches per operation.</summary>
    public const string InvoluntarySwitches = "InvoluntarySwitches";

    /// <summary>CPU cycles per operation in user mode (perf_event_open), when the kernel allows it.</summary>
    public const string Cycles = "Cycles";

    /// <summary>Instructions retired per operation in user mode (perf_event_open), when the kernel allows it.</summary>
    public const string Instructions = "Instructions";

    /// <summary>Resident set growth per waiter (VmRSS from /proc/self/status) while all waiters are pending.</summary>
    public const string RssBytesPerWaiter = "RssBytesPerWaiter";

    /// <summary>Waiters actually created (thread counts are capped by the machine's limits).</summary>
    public const string Waiters = "Waiters";

    /// <summary>Records one figure of the current benchmark process.</summary>
    public static void Write(string id, double value)
    {
        var line = id + "=" + value.ToString("R", CultureInfo.InvariantCulture);
        Console.WriteLine("// AsyncCost metric: " + line);
        Directory.CreateDirectory(Folder);
        File.AppendAllLines(FileOf(Environment.ProcessId), [line]);
    }

    /// <summary>Reads and deletes the figures process <paramref name="processId"/> recorded; last value per id wins.</summary>
    internal static Dictionary<string, double> Take(int processId)
    {
        var values = new Dictionary<string, double>();
        var path = FileOf(processId);
        if (!File.Exists(path))
            return values;
        foreach (var line in File.ReadLines(path))
        {
            var equals = line.IndexOf('=', StringComparison.Ordinal);
            if (equals > 0 && double.TryParse(line[(equals + 1)..], NumberStyles.Float, CultureInfo.InvariantCulture, out var value))
                values[line[..equals]] = value;
        }
        File.Delete(path);
        return values;
    }

    private static string Folder => Path.Combine(Path.GetTempPath(), "asynccost-benchmark-metrics");

    private static string FileOf(int processId) => Path.Combine(Folder, processId.ToString(CultureInfo.InvariantCulture) + ".txt");
}
