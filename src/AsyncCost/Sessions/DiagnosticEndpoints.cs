using System.Globalization;
using System.Text.RegularExpressions;
using AsyncCost.Os;
using Microsoft.Diagnostics.NETCore.Client;

namespace AsyncCost.Sessions;

/// <summary>
/// The processes that publish a diagnostics endpoint. The client library's own listing reads every process's
/// /proc/PID/environ and throws when one of them vanishes or is unreadable (seen here: "No such process : /proc/2/environ"),
/// so the sockets in the temp directory are listed first and the library's answer is only added when it has one.
/// </summary>
internal static partial class DiagnosticEndpoints
{
    [GeneratedRegex(@"^dotnet-diagnostic-(\d+)-(\d+)-socket$", RegexOptions.CultureInvariant)]
    private static partial Regex SocketName();

    /// <summary>The live processes whose diagnostics socket is in the temp directory (or that the client library finds).
    /// A socket counts only when its disambiguation key is the live process's start time: a runtime that was killed leaves
    /// its socket behind, and a later process that reuses the pid would otherwise look traceable (seen here: a process with
    /// diagnostics off reported as "connection refused" through a socket 430 killed processes had left in /tmp).</summary>
    public static IReadOnlySet<int> Published() => Published(Path.GetTempPath());

    internal static IReadOnlySet<int> Published(string socketDirectory)
    {
        var result = new HashSet<int>();
        var leftBehind = new HashSet<int>();
        try
        {
            foreach (var path in Directory.EnumerateFiles(socketDirectory, "dotnet-diagnostic-*-socket"))
            {
                var match = SocketName().Match(Path.GetFileName(path));
                if (!match.Success || !int.TryParse(match.Groups[1].Value, NumberStyles.None, CultureInfo.InvariantCulture, out var pid) || !TargetProcess.Exists(pid))
                {
                    continue;
                }
                (IsOwnedByLiveProcess(pid, match.Groups[2].Value) ? result : leftBehind).Add(pid);
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // An unreadable temp directory: fall through to the client library.
        }
        try
        {
            // The library lists every socket whose pid is alive, left-behind ones too; it is asked for what it finds elsewhere
            // (a process with its own TMPDIR).
            result.UnionWith(DiagnosticsClient.GetPublishedProcesses().Where(pid => result.Contains(pid) || !leftBehind.Contains(pid)));
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or InvalidOperationException)
        {
        }
        return result;
    }

    /// <summary>The diagnostics socket of a process started with another TMPDIR than this tool's (read from its
    /// /proc/PID/environ), when its own temp directory has it and this tool's does not; null otherwise.</summary>
    public static string? SocketInItsOwnTempDirectory(int processId)
    {
        if (!OperatingSystem.IsLinux() || TempDirectoryOf(processId) is not { } directory
            || Path.GetFullPath(directory).TrimEnd('/') == Path.GetFullPath(Path.GetTempPath()).TrimEnd('/'))
        {
            return null;
        }
        var pid = processId.ToString(CultureInfo.InvariantCulture);
        try
        {
            return Directory.EnumerateFiles(directory, $"dotnet-diagnostic-{pid}-*-socket")
                .FirstOrDefault(path => SocketName().Match(Path.GetFileName(path)) is { Success: true } match && IsOwnedByLiveProcess(processId, match.Groups[2].Value));
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>The processes that publish their diagnostics socket in a TMPDIR of their own (one this user can read in
    /// their /proc/PID/environ), beside those <see cref="Published()"/> finds: for `ps`, which may take the time to look.</summary>
    public static IReadOnlySet<int> PublishedAnywhere()
    {
        var result = new HashSet<int>(Published());
        foreach (var directory in Directory.EnumerateDirectories("/proc"))
        {
            if (int.TryParse(Path.GetFileName(directory), NumberStyles.None, CultureInfo.InvariantCulture, out var pid)
                && !result.Contains(pid) && SocketInItsOwnTempDirectory(pid) is not null)
            {
                result.Add(pid);
            }
        }
        return result;
    }

    /// <summary>A client for the process's diagnostics socket: in this tool's temp directory, or in the process's own.</summary>
    // ValueTask (AC0002): the socket is nearly always in this tool's temp directory, and each caller awaits once.
    public static async ValueTask<DiagnosticsClient> ClientForAsync(int processId, CancellationToken cancellationToken) =>
        SocketInItsOwnTempDirectory(processId) is { } socket
            ? (await DiagnosticsClientConnector.FromDiagnosticPort(socket + ",connect", cancellationToken).ConfigureAwait(false)).Instance
            : new DiagnosticsClient(processId);

    /// <summary>TMPDIR from the process's environment, or null when it has none or it cannot be read.</summary>
    private static string? TempDirectoryOf(int processId)
    {
        try
        {
            var variable = File.ReadAllText($"/proc/{processId.ToString(CultureInfo.InvariantCulture)}/environ").Split('\0')
                .FirstOrDefault(v => v.StartsWith("TMPDIR=", StringComparison.Ordinal));
            return variable is { Length: > 7 } ? variable[7..] : null;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>True when the socket's key is the start time of the process that now has its pid, or when that cannot be
    /// told (no /proc: macOS keys by seconds since the epoch, which a process's start time does not give exactly).</summary>
    private static bool IsOwnedByLiveProcess(int processId, string key) =>
        !OperatingSystem.IsLinux() || ProcFs.StartTimeTicks(processId) is not { } started
        || started.ToString(CultureInfo.InvariantCulture) == key;

    /// <summary>Removes what a runtime that was killed (SIGKILL) leaves in the temp directory: its diagnostic socket and its
    /// debugger pipes. Only for a process that no longer exists, so a recycled pid's live files are never touched.</summary>
    public static void RemoveLeftovers(int processId)
    {
        if (TargetProcess.Exists(processId))
        {
            return;
        }
        var pid = processId.ToString(CultureInfo.InvariantCulture);
        try
        {
            var leftovers = Directory.EnumerateFiles(Path.GetTempPath(), $"dotnet-diagnostic-{pid}-*-socket")
                .Concat(Directory.EnumerateFiles(Path.GetTempPath(), $"clr-debug-pipe-{pid}-*"));
            foreach (var path in leftovers.ToList())
            {
                File.Delete(path);
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // Another user's files, or already gone: nothing to clean.
        }
    }
}
