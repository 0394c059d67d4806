namespace AsyncCost.Cli;

/// <summary>
/// The tool's exit codes: one per class of user error, stable across versions (scripts test them).
/// The library's error kinds keep the same numbers (<see cref="AsyncCostErrorKind"/>), so a code means the same
/// thing whether it came from the library or from the command line.
/// </summary>
internal enum ExitCode
{
    Success = 0,
    UnexpectedError = 1,
    UsageError = 2,
    ProcessNotFound = 10,
    NotDotNetProcess = 11,
    DiagnosticsDisabled = 12,
    AccessDenied = 13,
    CommandNotFound = 14,
    TraceFileNotFound = 15,
    TraceFileInvalid = 16,
    OutputNotWritable = 17,
    RuntimeTooOld = 18,
    ProcessExited = 19,
    CanceledBeforeRecording = 20,
    AmbiguousProcessName = 21,
    FindingsFileNotFound = 22,
    FindingsFileInvalid = 23,
    ReportFileInvalid = 24,
    NoRuntimeStarted = 25,
    RegressionFound = 26,
    NothingToJudge = 27,
}

/// <summary>What each exit code means, for --help and docs/json-and-exit-codes.md (one place).</summary>
internal static class ExitCodes
{
    public static readonly IReadOnlyList<(ExitCode Code, string Meaning)> Catalog =
    [
        (ExitCode.Success, "Success (collect -- <command>: the command's own exit code, or 0 when you stopped it; "
            + "a code other than 0 comes with one 'dotnet-asynccost:' message on stderr naming the command)."),
        (ExitCode.UnexpectedError, "Unexpected error (a bug: please report it)."),
        (ExitCode.UsageError, "Unknown command or option, bad or missing value, or --operations contradicting the count a run knows itself."),
        (ExitCode.ProcessNotFound, "No process with that id or name."),
        (ExitCode.NotDotNetProcess, "Not a .NET process, or a launched command never connected to the diagnostic port."),
        (ExitCode.DiagnosticsDisabled, "The process runs with DOTNET_EnableDiagnostics=0 or DOTNET_EnableDiagnostics_IPC=0."),
        (ExitCode.AccessDenied, "The process belongs to another user, or reading its /proc entry was denied."),
        (ExitCode.CommandNotFound, "The command to launch was not found or is not executable, or 'dotnet' was given an app that does not exist."),
        (ExitCode.TraceFileNotFound, "The .nettrace file does not exist, or the path is a directory."),
        (ExitCode.TraceFileInvalid, "The .nettrace file is corrupt or truncated (what was readable is still reported)."),
        (ExitCode.OutputNotWritable, "The output path (-o) cannot be written."),
        (ExitCode.RuntimeTooOld, "The target runtime is too old for EventPipe (before .NET 5)."),
        (ExitCode.ProcessExited, "The attached process exited during collection (what was gathered is still reported)."),
        (ExitCode.CanceledBeforeRecording, "Stopped (Ctrl+C, SIGTERM, Enter) before recording started, or while 'report' was reading: nothing was gathered."),
        (ExitCode.AmbiguousProcessName, "Several processes have that name: pick one with -p."),
        (ExitCode.FindingsFileNotFound, "The analyzer findings file (--sarif) does not exist."),
        (ExitCode.FindingsFileInvalid, "The analyzer findings file (--sarif) is not a SARIF log."),
        (ExitCode.ReportFileInvalid, "A report given to 'compare' is missing or is not a JSON report of this tool."),
        (ExitCode.NoRuntimeStarted, "The launched command exited before a .NET runtime started in it (the message gives its own exit code): nothing was measured, with or without --duration."),
        (ExitCode.RegressionFound, "compare --fail-on-regression: throughput or a cost per operation got worse beyond its bound and the threshold (stderr names each)."),
        (ExitCode.NothingToJudge, "compare --fail-on-regression: the runs' operations are unknown, so they can be compared only per second, which judges nothing "
            + "(give --operations N, or let each run print 'asynccost: N operations'), or a budget limits a figure the run has none of (its pass did not run), or the two reports are the same."),
    ];

    public static ExitCode For(AsyncCostErrorKind kind) => kind switch
    {
        AsyncCostErrorKind.ValueContradicted => ExitCode.UsageError,
        AsyncCostErrorKind.ProcessNotFound => ExitCode.ProcessNotFound,
        AsyncCostErrorKind.NotDotNetProcess => ExitCode.NotDotNetProcess,
        AsyncCostErrorKind.DiagnosticsDisabled => ExitCode.DiagnosticsDisabled,
        AsyncCostErrorKind.AccessDenied => ExitCode.AccessDenied,
        AsyncCostErrorKind.CommandNotFound => ExitCode.CommandNotFound,
        AsyncCostErrorKind.TraceFileNotFound => ExitCode.TraceFileNotFound,
        AsyncCostErrorKind.TraceFileInvalid => ExitCode.TraceFileInvalid,
        AsyncCostErrorKind.OutputNotWritable => ExitCode.OutputNotWritable,
        AsyncCostErrorKind.RuntimeTooOld => ExitCode.RuntimeTooOld,
        AsyncCostErrorKind.FindingsFileNotFound => ExitCode.FindingsFileNotFound,
        AsyncCostErrorKind.FindingsFileInvalid => ExitCode.FindingsFileInvalid,
        _ => ExitCode.UnexpectedError,
    };

    public static string Meaning(ExitCode code) => Catalog.First(entry => entry.Code == code).Meaning;
}

/// <summary>A user error found by the tool itself (not the library): one line on stderr and its exit code.</summary>
internal sealed class CliException(ExitCode exitCode, string message) : Exception(message)
{
    public ExitCode ExitCode { get; } = exitCode;
}
