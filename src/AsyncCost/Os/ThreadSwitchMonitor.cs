using System.Globalization;
using AsyncCost.Report;

namespace AsyncCost.Os;

/// <summary>
/// Per-thread context switches of another process from /proc/PID/task/TID/status. Takes a baseline, then polls so a
/// thread that exits keeps its last-seen figures. Linux TIDs are the thread ids EventPipe reports.
/// </summary>
internal sealed class ThreadSwitchMonitor
{
    private readonly int _processId;
    private readonly Dictionary<int, ThreadReading> _baseline = [];
    private readonly Dictionary<int, ThreadReading> _latest = [];
    private readonly HashSet<int> _alive = [];

    private ThreadSwitchMonitor(int processId) => _processId = processId;

    /// <summary>Starts monitoring (baseline now), or returns null when /proc is not readable (not Linux, process gone).</summary>
    public static ThreadSwitchMonitor? Start(int processId)
    {
        if (!OperatingSystem.IsLinux() || !Directory.Exists(TaskDirectory(processId)))
        {
            return null;
        }
        var monitor = new ThreadSwitchMonitor(processId);
        foreach (var reading in ReadAll(processId))
        {
            monitor._baseline[reading.ThreadId] = reading;
            monitor._latest[reading.ThreadId] = reading;
        }
        return monitor;
    }

    /// <summary>Reads every thread again; threads no longer listed keep their last reading.</summary>
    public void Poll()
    {
        _alive.Clear();
        foreach (var reading in ReadAll(_processId))
        {
            _latest[reading.ThreadId] = reading;
            _alive.Add(reading.ThreadId);
        }
    }

    /// <summary>Switches since the baseline, per thread (threads born during the session count from zero).</summary>
    public IReadOnlyList<ThreadSwitches> Results()
    {
        Poll();
        return [.. _latest.Values
            .Select(latest =>
            {
                _baseline.TryGetValue(latest.ThreadId, out var start);
                return new ThreadSwitches
                {
                    ThreadId = latest.ThreadId,
                    Name = latest.Name,
                    ThreadClass = ClassOf(latest.ThreadId == _processId, latest.Name),
                    Voluntary = latest.Voluntary - (start?.Voluntary ?? 0),
                    Involuntary = latest.Involuntary - (start?.Involuntary ?? 0),
                    Exited = !_alive.Contains(latest.ThreadId),
                };
            })
            .Where(t => t.Voluntary != 0 || t.Involuntary != 0)
            .OrderByDescending(t => t.Voluntary + t.Involuntary)];
    }

    /// <summary>A coarse class from the thread's name, as the runtime names its threads on Linux.</summary>
    internal static string ClassOf(bool isMain, string name) => name switch
    {
        _ when isMain => "main",
        _ when name.StartsWith(".NET TP Worker", StringComparison.Ordinal) || name.StartsWith(".NET ThreadPool", StringComparison.Ordinal)
            || name.StartsWith(".NET Long Running", StringComparison.Ordinal) => "threadpool",
        _ when name.Contains("GC", StringComparison.Ordinal) => "gc",
        _ when name.StartsWith(".NET", StringComparison.Ordinal) => "runtime",
        _ => "other",
    };

    /// <summary>Parses the two counters out of a /proc status file's text.</summary>
    internal static (long Voluntary, long Involuntary) ParseStatus(string status)
    {
        long voluntary = 0, involuntary = 0;
        foreach (var line in status.AsSpan().EnumerateLines())
        {
            if (line.StartsWith("voluntary_ctxt_switches:"))
            {
                voluntary = long.Parse(line["voluntary_ctxt_switches:".Length..].Trim(), CultureInfo.InvariantCulture);
            }
            else if (line.StartsWith("nonvoluntary_ctxt_switches:"))
            {
                involuntary = long.Parse(line["nonvoluntary_ctxt_switches:".Length..].Trim(), CultureInfo.InvariantCulture);
            }
        }
        return (voluntary, involuntary);
    }

    private static string TaskDirectory(int processId) => $"/proc/{processId.ToString(CultureInfo.InvariantCulture)}/task";

    private static List<ThreadReading> ReadAll(int processId)
    {
        var readings = new List<ThreadReading>();
        string[] tasks;
        try
        {
            tasks = Directory.GetDirectories(TaskDirectory(processId));
        }
        catch (IOException)
        {
            return readings; // the process exited
        }
        catch (UnauthorizedAccessException)
        {
            return readings;
        }
        foreach (var task in tasks)
        {
            if (!int.TryParse(Path.GetFileName(task), NumberStyles.None, CultureInfo.InvariantCulture, out var threadId))
            {
                continue;
            }
            try
            {
                var (voluntary, involuntary) = ParseStatus(File.ReadAllText(Path.Combine(task, "status")));
                var name = File.ReadAllText(Path.Combine(task, "comm")).TrimEnd('\n');
                readings.Add(new ThreadReading(threadId, name, voluntary, involuntary));
            }
            catch (IOException)
            {
                // The thread exited between listing and reading: its last reading stays.
            }
            catch (UnauthorizedAccessException)
            {
            }
        }
        return readings;
    }

    private sealed record ThreadReading(int ThreadId, string Name, long Voluntary, long Involuntary);
}
