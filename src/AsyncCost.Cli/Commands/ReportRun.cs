using AsyncCost.Cli.Rendering;
using AsyncCost.Cli.Terminal;
using AsyncCost.Findings;
using AsyncCost.Report;
using AsyncCost.Sessions;

namespace AsyncCost.Cli.Commands;

/// <summary>
/// What `collect` and `report` share: open the output first (fail fast on an unwritable path), stop cleanly on
/// Ctrl+C / SIGTERM / Enter, show the status line, and write the report, including the partial report an error carries.
/// </summary>
internal static class ReportRun
{
    public delegate Task<AsyncCostReport> Measure(ReportOutput output, CancellationToken stop, StatusLine status);

    /// <param name="view">The report format, and whether framework methods are listed one by one.</param>
    /// <param name="outputOption">The -o value, if given.</param>
    /// <param name="sarifPaths">The --sarif values (files or folders): the analyzer findings to rank by the measured costs.</param>
    /// <param name="hint">The recording hint shown on the status line; null when nothing is recorded live.</param>
    /// <param name="measure">Runs the library session.</param>
    /// <param name="exitCode">The exit code for a report (default 0).</param>
    public static async Task<int> RunAsync(
        ReportView view, string? outputOption, IReadOnlyList<string>? sarifPaths, string? hint, Measure measure, Func<AsyncCostReport, int>? exitCode = null)
    {
        // Read the findings first: a bad SARIF path should fail before a long recording, not after it.
        var sarif = sarifPaths is { Count: > 0 } ? SarifFindingsReader.ReadAll(sarifPaths) : null;
        foreach (var warning in sarif?.Warnings ?? [])
        {
            ErrorOutput.WriteLine($"dotnet-asynccost: warning: {warning.Message}");
        }
        using var output = ReportOutput.Open(view, outputOption, sarif?.Findings);
        using var stop = new StopSignal('\n', output.DiscardUnwritten);
        var status = StatusLine.ForStandardError(hint ?? stop.Hint);
        AsyncCostReport report;
        try
        {
            report = await measure(output, stop.Token, status).ConfigureAwait(false);
        }
        catch (AsyncCostException e) when (e.PartialReport is { } partial && view.Format != ReportFormat.Speedscope)
        {
            status.Finish();
            output.Write(WithSarifWarnings(partial, sarif));
            throw;
        }
        finally
        {
            status.Finish();
        }

        var stacks = view.Format == ReportFormat.Speedscope ? await ReadStacksAsync(report, stop.Token).ConfigureAwait(false) : null;
        output.Write(WithSarifWarnings(report, sarif), stacks);

        return exitCode?.Invoke(report) ?? 0;
    }

    /// <summary>The cpu pass's stacks, read back from the traces the report came from (a flame graph needs every sample, which
    /// the report keeps only as time per method).</summary>
    private static async Task<StackProfile> ReadStacksAsync(AsyncCostReport report, CancellationToken stop)
    {
        var traces = report.Passes.Where(p => p.Pass == MeasurementPasses.Cpu).SelectMany(p => p.TraceFiles.Count > 0 ? p.TraceFiles : p.TraceFile is { } file ? [file] : []).ToList();
        if (traces.Count == 0)
        {
            throw new CliException(ExitCode.UsageError, "--format speedscope draws the cpu pass's stacks, and this run has no cpu pass trace: "
                + "record one with 'collect --passes cpu -o <base>' (or give 'report' its <base>.cpu.nettrace).");
        }
        return await AsyncCostSession.ReadStackProfileAsync(traces, stop).ConfigureAwait(false);
    }

    private static AsyncCostReport WithSarifWarnings(AsyncCostReport report, SarifFindings? sarif) =>
        sarif is { Warnings.Count: > 0 } ? report with { Warnings = [.. report.Warnings, .. sarif.Warnings] } : report;
}
