using AsyncCost.Report;

namespace AsyncCost.Sessions;

/// <summary>
/// Entry points: measure a running process, a launched command, or a saved trace, and get an <see cref="AsyncCostReport"/>.
/// Cancelling the token before recording starts throws <see cref="OperationCanceledException"/>; cancelling during
/// recording stops cleanly and returns what was gathered (<see cref="StopReason.Canceled"/>).
/// User errors throw an <see cref="AsyncCostException"/> subclass whose <see cref="AsyncCostException.Kind"/> says which.
/// </summary>
public static class AsyncCostSession
{
    /// <summary>Attach to a running .NET process by id and run the requested passes in turn.</summary>
    /// <exception cref="ProcessNotFoundException">No process has that id.</exception>
    /// <exception cref="NotDotNetProcessException">The process has no .NET diagnostics endpoint.</exception>
    /// <exception cref="DiagnosticsDisabledException">The process runs with DOTNET_EnableDiagnostics=0.</exception>
    /// <exception cref="AccessDeniedException">The process belongs to another user.</exception>
    /// <exception cref="OutputNotWritableException">The output trace path cannot be written.</exception>
    public static Task<AsyncCostReport> AttachAsync(int processId, SessionOptions options, CancellationToken cancellationToken = default)
        => SessionRunner.AttachAsync(processId, options, cancellationToken);

    /// <summary>Attach to a running .NET process with one EventPipe session for as long as the enumeration runs, and yield a
    /// snapshot of what each interval measured (per-second rates per method) every <see cref="MonitorOptions.Interval"/>. The
    /// enumeration ends when the token is cancelled, or after a last snapshot whose report says
    /// <see cref="StopReason.ProcessExited"/>. Errors are thrown by the first MoveNextAsync, as for <see cref="AttachAsync"/>.</summary>
    /// <exception cref="ProcessNotFoundException">No process has that id.</exception>
    /// <exception cref="NotDotNetProcessException">The process has no .NET diagnostics endpoint.</exception>
    /// <exception cref="DiagnosticsDisabledException">The process runs with DOTNET_EnableDiagnostics=0.</exception>
    /// <exception cref="AccessDeniedException">The process belongs to another user.</exception>
    public static IAsyncEnumerable<MonitorSnapshot> MonitorAsync(int processId, MonitorOptions options, CancellationToken cancellationToken = default)
        => LiveMonitor.RunAsync(processId, options, cancellationToken);

    /// <summary>Launch a command suspended on a diagnostic port (once per pass), resume it when the session is ready,
    /// and record until it exits, the duration elapses, or the token is cancelled (the child is then killed).</summary>
    /// <exception cref="CommandNotFoundException">The program does not exist or cannot be executed.</exception>
    /// <exception cref="NotDotNetProcessException">The child never connected to the diagnostic port.</exception>
    /// <exception cref="OutputNotWritableException">The output trace path cannot be written.</exception>
    public static Task<AsyncCostReport> LaunchAsync(LaunchCommand command, SessionOptions options, CancellationToken cancellationToken = default)
        => SessionRunner.LaunchAsync(command, options, cancellationToken);

    /// <summary>Read saved .nettrace files (one per pass, or one file): the pass of each is told by its providers.</summary>
    /// <exception cref="TraceFileNotFoundException">A file does not exist.</exception>
    /// <exception cref="TraceFileInvalidException">A file is not a .nettrace, or is corrupt or truncated (with the partial report).</exception>
    public static Task<AsyncCostReport> ReadTraceAsync(IReadOnlyList<string> traceFiles, CancellationToken cancellationToken = default)
        => SavedTraces.ReadAsync(traceFiles, operations: null, progress: null, cancellationToken);

    /// <summary>Read saved .nettrace files, reporting how far the reading has got (a few times a second) to
    /// <paramref name="progress"/>. Cancelling stops the reading within one read buffer and throws
    /// <see cref="OperationCanceledException"/>.</summary>
    /// <exception cref="TraceFileNotFoundException">A file does not exist.</exception>
    /// <exception cref="TraceFileInvalidException">A file is not a .nettrace, or is corrupt or truncated (with the partial report).</exception>
    public static Task<AsyncCostReport> ReadTraceAsync(IReadOnlyList<string> traceFiles, IProgress<TraceReadProgress>? progress, CancellationToken cancellationToken = default)
        => SavedTraces.ReadAsync(traceFiles, operations: null, progress, cancellationToken);

    /// <summary>Read saved .nettrace files of a run that did <paramref name="operations"/> operations in each pass (a trace does not
    /// record what its run printed, so 'report' is told, as 'collect --operations' is): figures per operation, as at recording.</summary>
    /// <exception cref="TraceFileNotFoundException">A file does not exist.</exception>
    /// <exception cref="TraceFileInvalidException">A file is not a .nettrace, or is corrupt or truncated (with the partial report).</exception>
    public static Task<AsyncCostReport> ReadTraceAsync(IReadOnlyList<string> traceFiles, long? operations, IProgress<TraceReadProgress>? progress, CancellationToken cancellationToken = default)
        => SavedTraces.ReadAsync(traceFiles, operations, progress, cancellationToken);

    /// <summary>Read one saved .nettrace file.</summary>
    /// <exception cref="TraceFileNotFoundException">The file does not exist.</exception>
    /// <exception cref="TraceFileInvalidException">The file is not a .nettrace, or is corrupt or truncated (with the partial report).</exception>
    public static Task<AsyncCostReport> ReadTraceAsync(string traceFile, CancellationToken cancellationToken = default)
        => SavedTraces.ReadAsync([traceFile], operations: null, progress: null, cancellationToken);

    /// <summary>Read the cpu pass's stack samples out of saved .nettrace files (the others are skipped), with async methods
    /// named as the report names them: the input of a flame graph (<see cref="SpeedscopeJson"/>).</summary>
    /// <exception cref="TraceFileNotFoundException">A file does not exist.</exception>
    /// <exception cref="TraceFileInvalidException">A file cannot be read as a .nettrace, or none holds stack samples.</exception>
    public static Task<StackProfile> ReadStackProfileAsync(IReadOnlyList<string> traceFiles, CancellationToken cancellationToken = default)
        => StackProfiles.ReadAsync(traceFiles, cancellationToken);
}
