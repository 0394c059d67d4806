using AsyncCost.Report;

namespace AsyncCost.Cli.Tests.Infrastructure;

/// <summary>Checks a report's rows against the workload's ground truth.</summary>
internal static class ReportAssertions
{
    /// <summary>The row of the workload's Scenarios.YieldOnceAsync: one box and one thread-pool hop per call.</summary>
    public const string YieldMethodKey = "AsyncCost.Workload.Scenarios.YieldOnceAsync";

    public static MethodCost YieldRow(AsyncCostReport report) =>
        report.Methods.SingleOrDefault(m => m.MethodKey == YieldMethodKey)
        ?? throw new Xunit.Sdk.XunitException($"No {YieldMethodKey} row; rows: {string.Join(", ", report.Methods.Select(m => m.MethodKey))}");

    /// <summary>
    /// Bytes per call agree with the in-process truth within twice the report's own sampling bound (~95 % half-width),
    /// and each call took one hop (within <paramref name="hopTolerance"/>, 2 % by default, or twice the report's bound on
    /// hops/call where a windowed pass estimated it).
    /// </summary>
    public static void MatchesYieldTruth(AsyncCostReport report, double trueBytesPerCall, bool expectHops = true, double hopTolerance = 0.02)
    {
        var row = YieldRow(report);
        Assert.NotNull(row.Bytes);
        Assert.Equal(FigureSource.AllocationPass, row.Bytes.Source);
        var bytesPerCall = (row.BytesPerCall ?? throw new Xunit.Sdk.XunitException("No bytes/call")).Value;
        var allowed = trueBytesPerCall * 2 * Math.Max(row.Bytes.RelativeError, 0.02);
        Assert.True(Math.Abs(bytesPerCall - trueBytesPerCall) <= allowed,
            $"bytes/call {bytesPerCall:F1} vs true {trueBytesPerCall:F1} (allowed ±{allowed:F1}, bound ±{row.Bytes.RelativeError:P1}, {row.Bytes.Samples} samples)");
        if (expectHops)
        {
            Assert.NotNull(row.Hops);
            Assert.Equal(FigureSource.HopPass, row.Hops.Source);
            var hopsPerCall = row.HopsPerCall?.Value ?? 0;
            var hopPass = report.Passes.Single(p => p.Pass == MeasurementPasses.Hops);
            var context = $"hops/call {hopsPerCall:F3} ({row.Hops.Value:N0} hops, {row.SuspendingCalls?.Value:N0} suspending calls); "
                + $"hop pass: {hopPass.Events:N0} events, {hopPass.EventsLost:N0} lost; warnings: {string.Join(" | ", report.Warnings.Select(w => w.Message))}";
            // A windowed pass's per-call figure is an estimate over its windows: the truth lies within twice its bound, as
            // for bytes. Where the runtime dropped events (buffer full on a loaded machine) the report warns that its figures
            // are low, and only the upper bound still holds.
            var hopAllowed = Math.Max(hopTolerance, 2 * (row.HopsPerCall?.ErrorBound ?? 0));
            var lowest = hopPass.EventsLost > 0 ? 0 : 1 - hopAllowed;
            Assert.True(hopsPerCall > lowest && hopsPerCall <= 1 + hopAllowed, $"{context} (allowed ±{hopAllowed:F3}, bound ±{row.HopsPerCall?.ErrorBound:F3})");
            if (hopPass.EventsLost > 0)
            {
                Assert.Contains(report.Warnings, w => w.Code == "events-lost");
            }
        }
    }
}
