using System.Globalization;

namespace AsyncCost.Os;

/// <summary>Readers for Linux /proc: command lines and per-thread context switches.</summary>
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
}
