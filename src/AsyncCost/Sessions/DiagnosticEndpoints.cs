using System.Globalization;
using System.Text.RegularExpressions;
using Microsoft.Diagnostics.NETCore.Client;

namespace AsyncCost.Sessions;

/// <summary>
/// The processes that publish a diagnostics endpoint. The client library's own listing reads every process's
/// /proc/PID/environ and throws when one of them vanishes or is unreadable (seen here: "No such process : /proc/2/environ"),
/// so the sockets in the temp directory are listed first and the library's answer is only added when it has one.
/// </summary>
internal static partial class DiagnosticEndpoints
{
    [GeneratedRegex(@"^dotnet-diagnostic-(\d+)-\d+-socket$", RegexOptions.CultureInvariant)]
    private static partial Regex SocketName();

    public static IReadOnlySet<int> Published()
    {
        var result = new HashSet<int>();
        try
        {
            foreach (var path in Directory.EnumerateFiles(Path.GetTempPath(), "dotnet-diagnostic-*-socket"))
            {
                var match = SocketName().Match(Path.GetFileName(path));
                if (match.Success && int.TryParse(match.Groups[1].Value, NumberStyles.None, CultureInfo.InvariantCulture, out var pid) && TargetProcess.Exists(pid))
                {
                    result.Add(pid);
                }
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // An unreadable temp directory: fall through to the client library.
        }
        try
        {
            result.UnionWith(DiagnosticsClient.GetPublishedProcesses());
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or InvalidOperationException)
        {
        }
        return result;
    }

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
