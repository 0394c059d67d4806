using AsyncCost.Report;

namespace AsyncCost.Findings;

/// <summary>One analyzer finding with what its containing method measurably cost.</summary>
public sealed class HotFinding
{
    /// <summary>1 for the costliest; not-exercised findings come last.</summary>
    public int Rank { get; init; }

    /// <summary>The analyzer's finding.</summary>
    public required AnalyzerFinding Finding { get; init; }

    /// <summary>True when the measured process ran the containing method (it has a row in the report).</summary>
    public bool Exercised { get; init; }

    /// <summary>The containing method's measured row, when it ran.</summary>
    public MethodCost? Method { get; init; }

    /// <summary>
    /// The method's share (0–1) of the process's measured cost of the kind the rule is about: async bytes for
    /// allocation rules, hops for hop rules, time blocked (or, without timings, blocking waits) for blocking rules; null when the pass that measures
    /// that kind did not run or saw none of it.
    /// </summary>
    public double? Share { get; init; }
}

/// <summary>Analyzer findings ranked by measured cost: the answer to "which of these is worth fixing first".</summary>
public sealed class HotFindingsReport
{
    /// <summary>Schema version of the JSON form; bumped only when a field changes meaning or is removed.</summary>
    public const int CurrentSchemaVersion = 1;

    /// <summary>Schema version of this report.</summary>
    public int SchemaVersion { get; init; } = CurrentSchemaVersion;

    /// <summary>The findings, costliest first, not-exercised last.</summary>
    public IReadOnlyList<HotFinding> Findings { get; init; } = [];

    /// <summary>The measurement the findings were ranked by.</summary>
    public required AsyncCostReport Measured { get; init; }
}

/// <summary>Joins SARIF findings to a measured report by method key and ranks them.</summary>
public static class HotFindingsRanker
{
    /// <summary>Ranks <paramref name="findings"/> by what their containing methods cost in <paramref name="measured"/>.</summary>
    public static HotFindingsReport Rank(IReadOnlyList<AnalyzerFinding> findings, AsyncCostReport measured)
    {
        ArgumentNullException.ThrowIfNull(findings);
        ArgumentNullException.ThrowIfNull(measured);

        var byKey = new Dictionary<string, MethodCost>(StringComparer.Ordinal);
        foreach (var method in measured.Methods)
        {
            // Several rows can share a key (a method and its local functions); the join is per declared member.
            byKey[method.MethodKey] = byKey.TryGetValue(method.MethodKey, out var existing) ? Merge(existing, method) : method;
        }

        var totals = new KindTotals(
            Sum(byKey.Values, m => m.Bytes),
            measured.Totals.Hops?.Value ?? Sum(byKey.Values, m => m.Hops),
            Sum(byKey.Values, m => m.BlockingWaits),
            Sum(byKey.Values, m => m.BlockedMilliseconds));

        var joined = findings
            .Select(finding =>
            {
                var method = finding.MethodKey is { } key && byKey.TryGetValue(key, out var row) ? row : null;
                return new HotFinding
                {
                    Finding = finding,
                    Method = method,
                    Exercised = method is not null,
                    Share = method is null ? null : ShareOf(method, finding.CostKind, totals),
                };
            })
            .OrderByDescending(h => h.Exercised)
            .ThenByDescending(h => h.Share ?? -1)
            .ThenByDescending(h => h.Method?.Calls?.Value ?? 0)
            .ThenBy(h => h.Finding.FilePath, StringComparer.Ordinal)
            .ThenBy(h => h.Finding.Line)
            .Select((h, index) => new HotFinding { Rank = index + 1, Finding = h.Finding, Method = h.Method, Exercised = h.Exercised, Share = h.Share })
            .ToList();

        return new HotFindingsReport { Findings = joined, Measured = measured };
    }

    private static double? ShareOf(MethodCost method, FindingCostKind kind, KindTotals totals) => kind switch
    {
        FindingCostKind.Allocations => Fraction(method.Bytes, totals.Bytes),
        FindingCostKind.Hops => Fraction(method.Hops, totals.Hops),
        FindingCostKind.Blocking => BlockingShare(method, totals),
        // An untagged rule is ranked by the largest share it has of any measured cost.
        _ => new[] { Fraction(method.Bytes, totals.Bytes), Fraction(method.Hops, totals.Hops), BlockingShare(method, totals) }.Max(),
    };

    /// <summary>The share of the time threads spent blocked, or of the blocking waits when no wait was timed.</summary>
    private static double? BlockingShare(MethodCost method, KindTotals totals) => totals.BlockedMilliseconds > 0
        ? Fraction(method.BlockedMilliseconds, totals.BlockedMilliseconds)
        : Fraction(method.BlockingWaits, totals.BlockingWaits);

    private static double? Fraction(Figure? part, double whole) =>
        part is null || whole <= 0 ? null : Math.Clamp(part.Value / whole, 0, 1);

    private static double Sum(IEnumerable<MethodCost> methods, Func<MethodCost, Figure?> figure) =>
        methods.Sum(m => figure(m)?.Value ?? 0);

    private static MethodCost Merge(MethodCost a, MethodCost b) => new()
    {
        MethodKey = a.MethodKey,
        DisplayName = a.DisplayName,
        Calls = Add(a.Calls, b.Calls),
        Bytes = Add(a.Bytes, b.Bytes),
        Objects = Add(a.Objects, b.Objects),
        Hops = Add(a.Hops, b.Hops),
        BlockingWaits = Add(a.BlockingWaits, b.BlockingWaits),
        BlockedMilliseconds = Add(a.BlockedMilliseconds, b.BlockedMilliseconds),
        ShareOfAsyncBytes = (a.ShareOfAsyncBytes ?? 0) + (b.ShareOfAsyncBytes ?? 0),
        Allocations = [.. a.Allocations, .. b.Allocations],
    };

    // Independent sampled estimates add; so do their variances (error bounds add in quadrature).
    private static Figure? Add(Figure? a, Figure? b) => (a, b) switch
    {
        (null, _) => b,
        (_, null) => a,
        _ => a with
        {
            Value = a.Value + b.Value,
            Samples = a.Samples + b.Samples,
            ErrorBound = Math.Sqrt(a.ErrorBound * a.ErrorBound + b.ErrorBound * b.ErrorBound),
            Sampled = a.Sampled || b.Sampled,
        },
    };

    private readonly record struct KindTotals(double Bytes, double Hops, double BlockingWaits, double BlockedMilliseconds);
}
