using System.ComponentModel;
using System.Globalization;
using Microsoft.Diagnostics.NETCore.Client;

namespace AsyncCost.Sessions;

/// <summary>Checks a process id before attaching and reads what /proc says about its runtime.</summary>
internal static class TargetProcess
{
    /// <summary>Throws the typed error that explains why <paramref name="processId"/> cannot be traced, or returns when it can.</summary>
    public static void EnsureTraceable(int processId)
    {
        if (processId <= 0 || !Exists(processId))
        {
            throw new ProcessNotFoundException(processId);
        }
        if (DiagnosticEndpoints.Published().Contains(processId) || DiagnosticEndpoints.SocketInItsOwnTempDirectory(processId) is not null)
        {
            return;
        }
        var environment = ReadEnvironment(processId, out var denied);
        if (denied)
        {
            throw new AccessDeniedException(processId, $"/proc/{processId.ToString(CultureInfo.InvariantCulture)}/environ", OwnerName(processId));
        }
        // Either knob turns the diagnostic IPC endpoint off (the _IPC one leaves the rest of diagnostics on).
        if (environment.FirstOrDefault(v => v is "DOTNET_EnableDiagnostics=0" or "COMPlus_EnableDiagnostics=0"
            or "DOTNET_EnableDiagnostics_IPC=0" or "COMPlus_EnableDiagnostics_IPC=0") is { } setting)
        {
            throw new DiagnosticsDisabledException(processId, setting);
        }
        // A runtime that is still starting has its libraries mapped before its diagnostics socket exists: give it a moment.
        if (RuntimeVersion(MappedFiles(processId)) is not null || MappedFiles(processId).Any(f => f.EndsWith("/libhostfxr.so", StringComparison.Ordinal)))
        {
            for (var attempt = 0; attempt < 30; attempt++)
            {
                Thread.Sleep(100);
                if (DiagnosticEndpoints.Published().Contains(processId))
                {
                    return;
                }
            }
        }
        var name = Os.ProcFs.ReadCommandLine(processId) ?? processId.ToString(CultureInfo.InvariantCulture);
        if (environment.FirstOrDefault(v => v.StartsWith("TMPDIR=", StringComparison.Ordinal)) is { } tmpdir
            && Path.GetFullPath(tmpdir[7..] + "/") != Path.GetFullPath(Path.GetTempPath()))
        {
            throw new NotDotNetProcessException($"Process {processId} ({name}) has no diagnostics endpoint in this tool's temp folder "
                + $"({Path.GetTempPath()}) nor in its own ({tmpdir[7..]}): the temp folders differ, and no .NET runtime published a socket in either.");
        }
        throw new NotDotNetProcessException($"Process {processId} ({name}) is not a .NET process: it has no diagnostics endpoint.");
    }

    /// <summary>True when this process is not root and the target's real user id differs from ours (Linux /proc status).</summary>
    public static bool BelongsToAnotherUser(int processId)
    {
        var ours = RealUserId("self");
        var theirs = RealUserId(processId.ToString(CultureInfo.InvariantCulture));
        return ours is not null and not "0" && theirs is not null && ours != theirs;
    }

    /// <summary>The user name (or uid) the process runs as, from /proc status (readable by anyone) and /etc/passwd.</summary>
    private static string? OwnerName(int processId)
    {
        if (RealUserId(processId.ToString(CultureInfo.InvariantCulture)) is not { } uid)
        {
            return null;
        }
        try
        {
            var entry = File.ReadLines("/etc/passwd").Select(l => l.Split(':')).FirstOrDefault(f => f.Length > 2 && f[2] == uid);
            return entry is null ? "uid " + uid : entry[0];
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return "uid " + uid;
        }
    }

    private static string? RealUserId(string process)
    {
        try
        {
            // "Uid:\treal\teffective\tsaved\tfs"
            var line = File.ReadLines($"/proc/{process}/status").FirstOrDefault(l => l.StartsWith("Uid:", StringComparison.Ordinal));
            return line?.Split('\t', StringSplitOptions.RemoveEmptyEntries).ElementAtOrDefault(1);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    public static bool Exists(int processId)
    {
        if (OperatingSystem.IsLinux())
        {
            return Directory.Exists($"/proc/{processId.ToString(CultureInfo.InvariantCulture)}");
        }
        try
        {
            using var process = System.Diagnostics.Process.GetProcessById(processId);
            return !process.HasExited;
        }
        catch (ArgumentException)
        {
            return false;
        }
        catch (Win32Exception)
        {
            return true; // exists but not ours
        }
    }

    /// <summary>The runtime version from the libcoreclr path in /proc/PID/maps ("10.0.12"), or null when not visible (self-contained, not Linux).</summary>
    public static string? RuntimeVersion(IEnumerable<string> mappedFiles)
    {
        var coreclr = mappedFiles.FirstOrDefault(f => f.EndsWith("/libcoreclr.so", StringComparison.Ordinal));
        var directory = coreclr is null ? null : Path.GetFileName(Path.GetDirectoryName(coreclr));
        return directory is not null && Version.TryParse(directory.Split('-')[0], out _) ? directory : null;
    }

    /// <summary>True when the process has loaded Kestrel (an ASP.NET Core server), whose events tell its requests.</summary>
    public static bool RunsKestrel(int processId) =>
        MappedFiles(processId).Any(f => Path.GetFileName(f).StartsWith("Microsoft.AspNetCore.Server.Kestrel", StringComparison.Ordinal));

    /// <summary>Files mapped into the process (its loaded assemblies and native libraries), empty when unreadable.</summary>
    public static IReadOnlyList<string> MappedFiles(int processId)
    {
        try
        {
            return [.. File.ReadLines($"/proc/{processId.ToString(CultureInfo.InvariantCulture)}/maps")
                .Select(line => line.IndexOf('/', StringComparison.Ordinal) is var slash and >= 0 ? line[slash..] : null)
                .OfType<string>()
                .Distinct(StringComparer.Ordinal)];
        }
        catch (IOException)
        {
            return [];
        }
        catch (UnauthorizedAccessException)
        {
            return [];
        }
    }

    private static string[] ReadEnvironment(int processId, out bool denied)
    {
        denied = false;
        try
        {
            return File.ReadAllText($"/proc/{processId.ToString(CultureInfo.InvariantCulture)}/environ").Split('\0');
        }
        catch (UnauthorizedAccessException)
        {
            denied = true;
            return [];
        }
        catch (IOException)
        {
            return [];
        }
    }
}
