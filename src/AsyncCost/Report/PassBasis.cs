using System.Globalization;

namespace AsyncCost.Report;

/// <summary>
/// What each figure of a report stands for: the operations and the seconds of the pass it came from, never another pass's.
/// A launched command runs once per pass, and a run that stops itself after some seconds does different work in each
/// (tracing slows the hop pass's run many times over): a figure over another pass's operations is off by that factor.
/// Every per-operation and per-second figure (compare, the budget gate, HTML, finding times) is divided here.
/// </summary>
public static class PassBasis
{
    /// <summary>The pass a figure of the report came from; for /proc figures, which no pass records, the first (a launched
    /// command's switches are its first run's).</summary>
    public static PassSummary? PassOf(AsyncCostReport report, FigureSource source)
    {
        ArgumentNullException.ThrowIfNull(report);
        var pass = source.Pass();
        return pass == MeasurementPasses.None ? (report.Passes.Count > 0 ? report.Passes[0] : null) : report.Passes.FirstOrDefault(p => p.Pass == pass);
    }

    /// <summary>The operations the run of the figure's own pass did; null when that pass knows none (attached, cut short, a
    /// command that did not print them): such a figure has no per-operation value.</summary>
    public static long? Operations(AsyncCostReport report, FigureSource source) => PassOf(report, source)?.Operations;

    /// <summary>The seconds a figure of the report was counted over: its pass's, a windowed hop pass's with the time between
    /// its windows (its counts are scaled to the whole pass), or the whole session's for /proc figures.</summary>
    public static double Seconds(AsyncCostReport report, FigureSource source) =>
        source != FigureSource.OperatingSystem && PassOf(report, source) is { } pass
            ? (pass.Duration + (pass.Unrecorded ?? TimeSpan.Zero)).TotalSeconds
            : report.Duration.TotalSeconds;

    /// <summary>The figure per operation of its own pass, or null when that pass knows no operations.</summary>
    public static Figure? PerOperation(Figure? figure, AsyncCostReport report) =>
        figure is not null && Operations(report, figure.Source) is { } operations and > 0 ? figure.Per(operations) : null;

    /// <summary>The figure per second its own pass stood for, or null when that pass recorded no time.</summary>
    public static Figure? PerSecond(Figure? figure, AsyncCostReport report) =>
        figure is not null && Seconds(report, figure.Source) is > 0 and var seconds ? figure.Per(seconds) : null;

    /// <summary>True when every pass's operations are the requests it saw complete (an ASP.NET Core process that knew no
    /// other count): the report's per-operation figures are per request.</summary>
    public static bool OperationsAreRequests(AsyncCostReport report)
    {
        ArgumentNullException.ThrowIfNull(report);
        return report.Passes.Count > 0 && report.Passes.All(p => p.Operations is not null && p.OperationKind == OperationKind.Request);
    }

    /// <summary>What one of the report's operations is called: "request" (<see cref="OperationsAreRequests"/>) or "operation".</summary>
    public static string OperationNoun(AsyncCostReport report) => OperationsAreRequests(report) ? "request" : "operation";

    /// <summary>True when every pass of the report knows its operations.</summary>
    public static bool KnowsOperations(AsyncCostReport report)
    {
        ArgumentNullException.ThrowIfNull(report);
        return report.Passes.Count > 0 && report.Passes.All(p => p.Operations is not null);
    }

    /// <summary>
    /// The report with <paramref name="given"/> operations for each pass that knows none ('compare --operations N'); a pass
    /// that knows its own keeps it, and a given count that contradicts it is refused: the run said what it did.
    /// </summary>
    /// <param name="report">A report read back (compare).</param>
    /// <param name="given">The count given for every run, or null for none.</param>
    /// <param name="reportName">How the error names the report (its file).</param>
    /// <exception cref="OperationsContradictedException">A pass knows a different count.</exception>
    public static AsyncCostReport WithGivenOperations(AsyncCostReport report, long? given, string reportName)
    {
        ArgumentNullException.ThrowIfNull(report);
        if (given is null)
        {
            return report;
        }
        return report with { Passes = [.. report.Passes.Select(p => p with { Operations = Reconcile(given, p.Operations, $"{reportName}'s {TracePass.PassName(p.Pass)} pass") })] };
    }

    /// <summary>
    /// A run's operations from a count given on the command line and the count the run knows itself (printed by the
    /// command): the given one only when the run knows none; the two must agree otherwise.
    /// </summary>
    /// <param name="given">The count given on the command line, or null.</param>
    /// <param name="known">The count the run knows itself, or null.</param>
    /// <param name="whose">Whose count <paramref name="known"/> is, for the error ("after.json's hops pass").</param>
    /// <exception cref="OperationsContradictedException">Both are known and differ.</exception>
    public static long? Reconcile(long? given, long? known, string whose) => (given, known) switch
    {
        (null, _) => known,
        (_, null) => given,
        _ when given == known => known,
        _ => throw new OperationsContradictedException(given.Value, known.Value, whose),
    };

    /// <summary>"1,040".</summary>
    internal static string Count(long count) => count.ToString("N0", CultureInfo.InvariantCulture);
}
