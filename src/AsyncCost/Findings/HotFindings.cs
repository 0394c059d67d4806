using AsyncCost.Attribution;
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
    public const int CurrentSchemaVersion = 2;

    /// <summary>Schema version of this report.</summary>
    public int SchemaVersion { get; init; } = CurrentSchemaVersion;

    /// <summary>The findings, costliest first, not-exercised last.</summary>
    public IReadOnlyList<HotFinding> Findings { get; init; } = [];

    /// <summary>The measurement the findings were ranked by.</summary>
    public required AsyncCostReport Measured { get; init; }
}

/// <summary>
/// Joins SARIF findings to a measured report by method key and ranks them. A member, each of its async local functions
/// and each of its async lambdas have keys of their own; a finding in a lambda whose ordinal the analyzer could not know
/// (key ending in ".lambda") joins all of that member's lambdas together.
/// </summary>
public static class HotFindingsRanker
{
    /// <summary>Ranks <paramref name="findings"/> by what their containing methods cost in <paramref name="measured"/>.</summary>
    public static HotFindingsReport Rank(IReadOnlyList<AnalyzerFinding> findings, AsyncCostReport measured)
    {
        ArgumentNullException.ThrowIfNull(findings);
        ArgumentNullException.ThrowIfNull(measured);

        // Rows share a key only where the names cannot tell them apart (two local functions of one name in one member).
        var byKey = measured.Methods
            .GroupBy(m => m.MethodKey, StringComparer.Ordinal)
            .ToDictionary(g => g.Key, g => g.Skip(1).Any() ? Combine([.. g], g.Key, g.First().DisplayName) : g.First(), StringComparer.Ordinal);

        var totals = new KindTotals(
            Sum(byKey.Values, m => m.Bytes),
            measured.Totals.Hops?.Value ?? Sum(byKey.Values, m => m.Hops),
            Sum(byKey.Values, m => m.BlockingWaits),
            Sum(byKey.Values, m => m.BlockedMilliseconds));

        var joined = findings
            .Select(finding =>
            {
                var method = finding.MethodKey is { } key ? Lookup(byKey, key) : null;
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

    private static MethodCost? Lookup(Dictionary<string, MethodCost> byKey, string key)
    {
        if (byKey.TryGetValue(key, out var row))
        {
            return row;
        }
        if (!key.EndsWith("." + AsyncMethodName.LambdaSegment, StringComparison.Ordinal))
        {
            return null;
        }
        var lambdas = byKey.Values.Where(m => m.MethodKey.StartsWith(key + "#", StringComparison.Ordinal)).ToList();
        if (lambdas.Count == 0)
        {
            return null;
        }
        var display = lambdas[0].DisplayName;
        return Combine(lambdas, key, display[..(display.LastIndexOf('#') is var hash and >= 0 ? hash : display.Length)]);
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

    private static MethodCost Combine(IReadOnlyList<MethodCost> rows, string key, string displayName)
    {
        var sampledCalls = Figure.Sum(rows.Select(m => m.SampledCalls));
        var suspendingCalls = Figure.Sum(rows.Select(m => m.SuspendingCalls));
        var bytes = Figure.Sum(rows.Select(m => m.Bytes));
        var objects = Figure.Sum(rows.Select(m => m.Objects));
        var hops = Figure.Sum(rows.Select(m => m.Hops));
        return new()
        {
            MethodKey = key,
            DisplayName = displayName,
            Calls = Figure.Sum(rows.Select(m => m.Calls)),
            SampledCalls = sampledCalls,
            SuspendingCalls = suspendingCalls,
            Bytes = bytes,
            Objects = objects,
            BytesPerCall = Figure.Ratio(bytes, sampledCalls),
            ObjectsPerCall = Figure.Ratio(objects, sampledCalls),
            Hops = hops,
            HopsPerCall = Figure.Ratio(hops, suspendingCalls),
            BlockingWaits = Figure.Sum(rows.Select(m => m.BlockingWaits)),
            BlockedMilliseconds = Figure.Sum(rows.Select(m => m.BlockedMilliseconds)),
            ShareOfAsyncBytes = rows.Sum(m => m.ShareOfAsyncBytes ?? 0),
            Allocations = [.. rows.SelectMany(m => m.Allocations)],
        };
    }


    private readonly record struct KindTotals(double Bytes, double Hops, double BlockingWaits, double BlockedMilliseconds);
}
