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
    /// and each call took one hop (hops are exact counts: within <paramref name="hopTolerance"/>, 2 % by default).
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
            Assert.InRange(row.HopsPerCall?.Value ?? 0, 1 - hopTolerance, 1 + hopTolerance);
        }
    }
}
