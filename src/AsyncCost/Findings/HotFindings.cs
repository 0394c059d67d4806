using System.Globalization;
using AsyncCost.Attribution;
using AsyncCost.Report;

namespace AsyncCost.Findings;

/// <summary>What the measurement can say about a finding's method.</summary>
public enum FindingVerdict
{
    /// <summary>The method has a row: a pass saw it run, and its figures are there.</summary>
    Measured,

    /// <summary>No pass saw the method, yet it may have run: it completed synchronously without allocating anything a pass
    /// ties to it (the trace's method events say it ran, or the trace cannot tell), or what it allocated cannot be told apart
    /// from the same type allocated by other methods.</summary>
    NotObservable,

    /// <summary>The method never ran: the trace's method events, which name every method the process compiled, do not name it.</summary>
    NotExercised,
}

/// <summary>One analyzer finding with what its containing method measurably cost.</summary>
public sealed class HotFinding
{
    /// <summary>1 for the costliest; findings without a measured method come last (not observable, then not exercised).</summary>
    public int Rank { get; init; }

    /// <summary>The analyzer's finding.</summary>
    public required AnalyzerFinding Finding { get; init; }

    /// <summary>True when a pass saw the containing method run (it has a row in the report).</summary>
    public bool Exercised { get; init; }

    /// <summary>Measured, not observable, or not exercised.</summary>
    public FindingVerdict Verdict { get; init; }

    /// <summary>Why a finding without a row is not observable or not exercised, in one sentence; null when measured.</summary>
    public string? VerdictReason { get; init; }

    /// <summary>The containing method's measured row, when it ran.</summary>
    public MethodCost? Method { get; init; }

    /// <summary>
    /// The method's share (0–1) of the process's measured cost of the kind the rule is about: async bytes for
    /// allocation rules, hops for hop rules, time blocked (or, without timings, blocking waits) for blocking rules; when no
    /// such cost is tied to the method but the cpu pass sampled time in it (calls that complete synchronously without
    /// allocating), its share of the time in async methods (<see cref="ShareIsTime"/>); null when no pass saw any of it.
    /// </summary>
    public double? Share { get; init; }

    /// <summary>True when <see cref="Share"/> is a share of the time sampled in async methods (cpu pass), not of the rule's own kind of cost.</summary>
    public bool ShareIsTime { get; init; }
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
            .ToDictionary(g => g.Key, g => g.Skip(1).Any() ? MethodCost.Combine([.. g], g.Key, g.First().DisplayName) : g.First(), StringComparer.Ordinal);

        var totals = new KindTotals(
            Sum(byKey.Values, m => m.Bytes),
            measured.Totals.Hops?.Value ?? Sum(byKey.Values, m => m.Hops),
            Sum(byKey.Values, m => m.BlockingWaits),
            Sum(byKey.Values, m => m.BlockedMilliseconds),
            Sum(byKey.Values, m => m.WaitMilliseconds),
            Sum(byKey.Values, ReportFigures.SampledTime));

        var joined = findings
            .Select(finding =>
            {
                var method = finding.MethodKey is { } key ? Lookup(byKey, key) : null;
                var share = method is null ? null : ShareOf(method, finding.CostKind, totals);
                // No cost of the rule's kind tied to it, but time sampled in it: rank it by that time, and say so.
                var timeShare = method is not null && share is null ? Fraction(ReportFigures.SampledTime(method), totals.Time) : null;
                var (verdict, reason) = method is null ? Unmeasured(finding.MethodKey, measured)
                    : share is null && timeShare is null ? Unshared(method, finding.CostKind, measured)
                    : share is null ? (FindingVerdict.Measured, TimeRanked(method, finding.CostKind))
                    : (FindingVerdict.Measured, null);
                return new HotFinding
                {
                    Finding = finding,
                    Method = method,
                    Exercised = method is not null,
                    Verdict = verdict,
                    VerdictReason = reason,
                    Share = share ?? timeShare,
                    ShareIsTime = share is null && timeShare is not null,
                };
            })
            .OrderBy(h => h.Verdict)
            .ThenByDescending(h => h.Share ?? -1)
            .ThenByDescending(h => h.Method?.Calls?.Value ?? 0)
            .ThenBy(h => h.Finding.FilePath, StringComparer.Ordinal)
            .ThenBy(h => h.Finding.Line)
            .Select((h, index) => new HotFinding
            {
                Rank = index + 1, Finding = h.Finding, Method = h.Method, Exercised = h.Exercised, Verdict = h.Verdict, VerdictReason = h.VerdictReason, Share = h.Share,
                ShareIsTime = h.ShareIsTime,
            })
            .ToList();

        return new HotFindingsReport { Findings = joined, Measured = measured };
    }

    /// <summary>
    /// A method without a row: "not exercised" only when the trace's method events (every method the process compiled) do not
    /// name it; otherwise it ran unseen: a call that completes synchronously without allocating has nothing for the allocation or
    /// hop pass to see, and a Task&lt;T&gt; several methods return cannot be charged to one of them.
    /// </summary>
    private static (FindingVerdict, string) Unmeasured(string? key, AsyncCostReport measured)
    {
        if (key is null)
        {
            return (FindingVerdict.NotObservable, "The finding names no method (no AsyncCostMethod property): it cannot be joined to a measurement.");
        }
        if (SharedTask(key, measured) is { } shared)
        {
            return (FindingVerdict.NotObservable, shared);
        }
        var cpuPass = measured.Passes.Any(p => p.Pass == MeasurementPasses.Cpu);
        if (measured.MethodsThatRan.Count == 0)
        {
            return (FindingVerdict.NotObservable, "The trace has no method events to tell whether it ran, and no pass saw it (a call that completes synchronously without allocating is invisible to the allocation and hop passes"
                + (cpuPass ? "; the cpu pass sampled no time in it)." : ", not to the cpu pass, which did not run)."));
        }
        return measured.MethodsThatRan.Any(ran => SameMethod(key, ran))
            ? (FindingVerdict.NotObservable, "It ran (the trace's method events name it) but completed synchronously without allocating anything the allocation pass ties to it or suspending for the hop pass to see"
                + (cpuPass ? ", and the cpu pass sampled no time in it (less than ~1 ms in all)." : "; the cpu pass (--passes ...,cpu) would measure its time."))
            : (FindingVerdict.NotExercised, "The measured run never called it: the trace's method events, which name every method the process compiled, do not name it.");
    }

    /// <summary>A method that ran but has no share of the cost its rule is about: say what the passes could not see.</summary>
    private static (FindingVerdict, string) Unshared(MethodCost method, FindingCostKind kind, AsyncCostReport measured) =>
        (FindingVerdict.NotObservable, SharedTask(method.MethodKey, measured) ?? string.Create(CultureInfo.InvariantCulture,
            $"No {KindName(kind)} measured is tied to it: the pass that measures them did not run or saw none, and calls that complete synchronously without allocating or suspending are invisible to the allocation and hop passes ({(method.Calls is { } calls ? $"{calls.Value:N0} call(s) seen" : "its calls not observable")})."));

    private static string TimeRanked(MethodCost method, FindingCostKind kind) => string.Create(CultureInfo.InvariantCulture,
        $"Ranked by time: no {KindName(kind)} measured is tied to it (its calls complete synchronously without allocating or suspending), but the cpu pass sampled ~{method.CpuMilliseconds?.Value ?? 0:N0} ms running in it.");

    private static string KindName(FindingCostKind kind) => kind switch
    {
        FindingCostKind.Allocations => "allocations",
        FindingCostKind.Hops => "hops",
        FindingCostKind.Blocking => "blocking waits",
        _ => "cost",
    };

    /// <summary>The reason when the method returns a Task&lt;T&gt; that stays unattributed because several methods return that type.</summary>
    private static string? SharedTask(string key, AsyncCostReport measured) =>
        measured.UnattributedAllocations.FirstOrDefault(a => a.CandidateMethods.Any(c => SameMethod(key, c))) is { } shared
            ? string.Create(CultureInfo.InvariantCulture,
                $"Its {shared.TypeName} cannot be told from the same type returned by {shared.CandidateMethods.Count - 1} other method(s): {shared.Bytes.Value / 1_048_576:N1} MB of it stays unattributed.")
            : null;

    // A key ending in ".lambda" (ordinal unknown to the analyzer) stands for all of that member's lambdas.
    private static bool SameMethod(string findingKey, string measuredKey) =>
        findingKey == measuredKey
        || (findingKey.EndsWith("." + AsyncMethodName.LambdaSegment, StringComparison.Ordinal) && measuredKey.StartsWith(findingKey + "#", StringComparison.Ordinal));

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
        return MethodCost.Combine(lambdas, key, display[..(display.LastIndexOf('#') is var hash and >= 0 ? hash : display.Length)]);
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
    /// <summary>The share of the time threads spent blocked (hop pass), of the blocking waits when no wait was timed, or of the
    /// time sampled blocked in waits (cpu pass) when the hop pass did not run.</summary>
    private static double? BlockingShare(MethodCost method, KindTotals totals) => totals.BlockedMilliseconds > 0
        ? Fraction(method.BlockedMilliseconds, totals.BlockedMilliseconds)
        : Fraction(method.BlockingWaits, totals.BlockingWaits) ?? Fraction(method.WaitMilliseconds, totals.WaitMilliseconds);

    private static double? Fraction(Figure? part, double whole) =>
        part is null || whole <= 0 ? null : Math.Clamp(part.Value / whole, 0, 1);

    private static double Sum(IEnumerable<MethodCost> methods, Func<MethodCost, Figure?> figure) =>
        methods.Sum(m => figure(m)?.Value ?? 0);

    private readonly record struct KindTotals(double Bytes, double Hops, double BlockingWaits, double BlockedMilliseconds, double WaitMilliseconds, double Time);
}
