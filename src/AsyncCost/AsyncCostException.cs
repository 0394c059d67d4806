using AsyncCost.Report;

namespace AsyncCost;

/// <summary>The kind of user error; the CLI maps each to its own exit code (the numeric values are stable).</summary>
public enum AsyncCostErrorKind
{
    /// <summary>A value given contradicts what the run itself says (--operations against the count the command printed).</summary>
    ValueContradicted = 2,

    /// <summary>No process with that id.</summary>
    ProcessNotFound = 10,

    /// <summary>The process is not a .NET process (no diagnostics endpoint), or a launched command never connected.</summary>
    NotDotNetProcess = 11,

    /// <summary>The process runs with diagnostics disabled (DOTNET_EnableDiagnostics=0 or DOTNET_EnableDiagnostics_IPC=0).</summary>
    DiagnosticsDisabled = 12,

    /// <summary>The process belongs to another user, or /proc refuses to say what it is (permission denied).</summary>
    AccessDenied = 13,

    /// <summary>A launched command does not exist or cannot be executed.</summary>
    CommandNotFound = 14,

    /// <summary>A .nettrace file does not exist (or the path is a directory).</summary>
    TraceFileNotFound = 15,

    /// <summary>A .nettrace file is corrupt, truncated, or not a .nettrace.</summary>
    TraceFileInvalid = 16,

    /// <summary>The output path cannot be written.</summary>
    OutputNotWritable = 17,

    /// <summary>The target runtime is too old for EventPipe sessions (before .NET 5).</summary>
    RuntimeTooOld = 18,

    /// <summary>The analyzer findings (SARIF) file does not exist.</summary>
    FindingsFileNotFound = 22,

    /// <summary>The analyzer findings file is not a SARIF log this tool reads.</summary>
    FindingsFileInvalid = 23,
}

/// <summary>A user error: bad input the caller can fix. The message is one readable line; no stack trace is needed.</summary>
public abstract class AsyncCostException : Exception
{
    /// <summary>Creates the exception.</summary>
    protected AsyncCostException(string message, Exception? innerException = null) : base(message, innerException) { }

    /// <summary>Which error this is.</summary>
    public abstract AsyncCostErrorKind Kind { get; }

    /// <summary>What was gathered before the error, when anything was (e.g. the readable part of a truncated trace).</summary>
    public AsyncCostReport? PartialReport { get; init; }
}

/// <summary>No process has the given id.</summary>
public sealed class ProcessNotFoundException(int processId)
    : AsyncCostException($"No process with id {processId} is running.")
{
    /// <summary>The id asked for.</summary>
    public int ProcessId { get; } = processId;

    /// <inheritdoc/>
    public override AsyncCostErrorKind Kind => AsyncCostErrorKind.ProcessNotFound;
}

/// <summary>The process is not a .NET process (no diagnostics endpoint), or a launched child never connected.</summary>
public sealed class NotDotNetProcessException(string message, Exception? innerException = null)
    : AsyncCostException(message, innerException)
{
    /// <summary>The launched command's own exit code, when it exited before a .NET runtime started in it (the CLI's exit code
    /// is then 25, whatever this is: the command failed before anything could be measured).</summary>
    public int? CommandExitCode { get; init; }

    /// <inheritdoc/>
    public override AsyncCostErrorKind Kind => AsyncCostErrorKind.NotDotNetProcess;
}

/// <summary>The process disabled its diagnostics endpoint (DOTNET_EnableDiagnostics=0, or DOTNET_EnableDiagnostics_IPC=0).</summary>
public sealed class DiagnosticsDisabledException(int processId, string setting = "DOTNET_EnableDiagnostics=0")
    : AsyncCostException($"Process {processId} is a .NET process running with {setting}: its diagnostics endpoint is off, so it cannot be traced.")
{
    /// <inheritdoc/>
    public override AsyncCostErrorKind Kind => AsyncCostErrorKind.DiagnosticsDisabled;
}

/// <summary>The process belongs to another user, or what /proc says about it may not be read.</summary>
public sealed class AccessDeniedException : AsyncCostException
{
    /// <summary>The process's diagnostics socket refused this user.</summary>
    public AccessDeniedException(int processId, Exception? innerException = null)
        : base($"Process {processId} belongs to another user: run as that user to trace it.", innerException) { }

    /// <summary>Reading <paramref name="procFile"/> was refused (permission denied), so whether the process can be traced is unknown.</summary>
    public AccessDeniedException(int processId, string procFile, string? owner)
        : base($"Permission denied reading {procFile}{(owner is null ? "" : $" (process {processId} runs as {owner})")}: "
            + "cannot tell whether it is a .NET process; " + (Environment.IsPrivilegedProcess
                ? "this tool already runs as root, so something else denies it (a container without CAP_SYS_PTRACE, a security module, or a /proc mounted with hidepid)."
                : "run as its user or as root.")) { }

    /// <inheritdoc/>
    public override AsyncCostErrorKind Kind => AsyncCostErrorKind.AccessDenied;
}

/// <summary>A launched command does not exist or cannot be executed.</summary>
public sealed class CommandNotFoundException(string fileName, Exception? innerException = null, string? why = null)
    : AsyncCostException(why ?? $"Command not found or not executable: {fileName}", innerException)
{
    /// <inheritdoc/>
    public override AsyncCostErrorKind Kind => AsyncCostErrorKind.CommandNotFound;
}

/// <summary>A .nettrace file does not exist, or the path names a directory.</summary>
public sealed class TraceFileNotFoundException(string path, bool isDirectory = false)
    : AsyncCostException(isDirectory
        ? $"{path} is a directory, not a trace file: name its .nettrace files (e.g. {Path.Combine(path, "*.nettrace")})."
        : $"Trace file not found: {path}")
{
    /// <inheritdoc/>
    public override AsyncCostErrorKind Kind => AsyncCostErrorKind.TraceFileNotFound;
}

/// <summary>A .nettrace file is corrupt, truncated, or not a .nettrace (see <see cref="AsyncCostException.PartialReport"/> for what was readable).</summary>
public sealed class TraceFileInvalidException(string message, Exception? innerException = null)
    : AsyncCostException(message, innerException)
{
    /// <inheritdoc/>
    public override AsyncCostErrorKind Kind => AsyncCostErrorKind.TraceFileInvalid;
}

/// <summary>The output path cannot be written.</summary>
public sealed class OutputNotWritableException(string path, Exception? innerException = null)
    : AsyncCostException($"Cannot write output file: {path}", innerException)
{
    /// <inheritdoc/>
    public override AsyncCostErrorKind Kind => AsyncCostErrorKind.OutputNotWritable;
}

/// <summary>The target runtime is too old for EventPipe sessions.</summary>
public sealed class RuntimeTooOldException(string runtimeVersion)
    : AsyncCostException($"The target runs .NET {runtimeVersion}; EventPipe sessions need .NET 5 or later.")
{
    /// <inheritdoc/>
    public override AsyncCostErrorKind Kind => AsyncCostErrorKind.RuntimeTooOld;
}

/// <summary>An operation count given on the command line (--operations) contradicts the count a run knows itself (printed by
/// the command as 'asynccost: N operations'): a given count applies only to a run that knows none.</summary>
public sealed class OperationsContradictedException(long given, long known, string whose)
    : AsyncCostException($"--operations {Report.PassBasis.Count(given)} contradicts the {Report.PassBasis.Count(known)} operations {whose} knows "
        + $"(the command printed 'asynccost: {known} operations', or an earlier --operations said so): --operations applies only to a run that "
        + "knows none; leave it out, or make it agree.")
{
    /// <summary>The count given.</summary>
    public long Given { get; } = given;

    /// <summary>The count the run knows.</summary>
    public long Known { get; } = known;

    /// <inheritdoc/>
    public override AsyncCostErrorKind Kind => AsyncCostErrorKind.ValueContradicted;
}
