using AsyncCost.Report;

namespace AsyncCost.Sessions;

/// <summary>Runs the passes of a session (attach, launch, or trace files) and builds the report.</summary>
internal static class SessionRunner
{
    public static Task<AsyncCostReport> AttachAsync(int processId, SessionOptions options, CancellationToken cancellationToken)
        => throw new NotSupportedException("Attach is being implemented.");

    public static Task<AsyncCostReport> LaunchAsync(LaunchCommand command, SessionOptions options, CancellationToken cancellationToken)
        => throw new NotSupportedException("Launch is being implemented.");

    public static Task<AsyncCostReport> ReadTraceAsync(IReadOnlyList<string> traceFiles, CancellationToken cancellationToken)
        => throw new NotSupportedException("Reading traces is being implemented.");
}
