namespace AsyncCost.Sessions;

/// <summary>A .NET process that publishes a diagnostics endpoint.</summary>
/// <param name="ProcessId">The process id.</param>
/// <param name="Name">The process name.</param>
/// <param name="CommandLine">Its command line, when readable.</param>
public sealed record DotNetProcessInfo(int ProcessId, string Name, string? CommandLine);

/// <summary>Lists the .NET processes this user can attach to.</summary>
public static class DotNetProcesses
{
    /// <summary>The processes with a diagnostics endpoint (in this user's temp directory or, read from /proc/PID/environ, in
    /// their own TMPDIR), ordered by id; processes that exit while listing are skipped.</summary>
    public static IReadOnlyList<DotNetProcessInfo> List()
    {
        var result = new List<DotNetProcessInfo>();
        foreach (var pid in DiagnosticEndpoints.PublishedAnywhere().Order())
        {
            try
            {
                using var process = System.Diagnostics.Process.GetProcessById(pid);
                result.Add(new DotNetProcessInfo(pid, process.ProcessName, Os.ProcFs.ReadCommandLine(pid)));
            }
            catch (ArgumentException)
            {
                // Exited between listing and reading.
            }
            catch (InvalidOperationException)
            {
                // Exited between listing and reading.
            }
        }
        return result;
    }
}
