using System.Globalization;

namespace AsyncCost.Os;

/// <summary>Readers for Linux /proc: command lines and the fields of /proc/PID/stat.</summary>
internal static class ProcFs
{
    /// <summary>The process's command line (NUL-separated in /proc, joined with spaces), or null when unreadable.</summary>
    public static string? ReadCommandLine(int processId)
    {
        try
        {
            var raw = File.ReadAllText($"/proc/{processId.ToString(CultureInfo.InvariantCulture)}/cmdline");
            return raw.TrimEnd('\0').Replace('\0', ' ');
        }
        catch (IOException)
        {
            return null;
        }
        catch (UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>The parent process id (field 4 of /proc/PID/stat), or null.</summary>
    public static int? ParentOf(int processId) =>
        StatField(processId, 4) is { } field && int.TryParse(field, NumberStyles.None, CultureInfo.InvariantCulture, out var parent) ? parent : null;

    /// <summary>When the process started, in clock ticks since boot (field 22 of /proc/PID/stat), or null. The runtime puts
    /// this number in its diagnostics socket's name, so it tells a live process's socket from one a recycled pid left.</summary>
    public static ulong? StartTimeTicks(int processId) =>
        StatField(processId, 22) is { } field && ulong.TryParse(field, NumberStyles.None, CultureInfo.InvariantCulture, out var ticks) ? ticks : null;

    /// <summary>Field <paramref name="number"/> (1-based, as proc(5) numbers them, 3 or more) of /proc/PID/stat, or null.</summary>
    private static string? StatField(int processId, int number)
    {
        try
        {
            var stat = File.ReadAllText($"/proc/{processId.ToString(CultureInfo.InvariantCulture)}/stat");
            // "pid (comm) state ppid ...": comm may contain spaces and parentheses, so split after the last ')'.
            var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
            return fields.ElementAtOrDefault(number - 3);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ArgumentOutOfRangeException)
        {
            return null;
        }
    }
}
