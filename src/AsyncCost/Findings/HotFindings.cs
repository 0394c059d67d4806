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

/// <summary>One analyzer finding with what it measurably costs, in time.</summary>
public sealed record HotFinding
{
    /// <summary>1 for the costliest; findings without a time figure come last (not observable, then not exercised).</summary>
    public int Rank { get; init; }

    /// <summary>The analyzer's finding.</summary>
    public required AnalyzerFinding Finding { get; init; }

    /// <summary>True when a pass saw the finding's method, or a method its cost is spent in, run (it has a row in the report).</summary>
    public bool Exercised { get; init; }

    /// <summary>Measured (it has a time figure), not observable, or not exercised.</summary>
    public FindingVerdict Verdict { get; init; }

    /// <summary>Why a finding without a time figure is not observable or not exercised, in one sentence; null when measured.</summary>
    public string? VerdictReason { get; init; }

    /// <summary>The measured row of the method the finding is in, when it ran.</summary>
    public MethodCost? Method { get; init; }

    /// <summary>What the finding costs in time, its bound and basis (<see cref="FindingTimes"/>): what it is ranked by.</summary>
    public required FindingTime Time { get; init; }
}

/// <summary>Analyzer findings ranked by what they measurably cost in time: the answer to "which of these is worth fixing first".</summary>
public sealed class HotFindingsReport
{
    /// <summary>Schema version of the JSON form; bumped only when a field changes meaning or is removed (3: findings are
    /// ranked by time, each with its basis; the per-kind share is gone).</summary>
    public const int CurrentSchemaVersion = 3;

    /// <summary>Schema version of this report.</summary>
    public int SchemaVersion { get; init; } = CurrentSchemaVersion;

    /// <summary>The findings, costliest first, not-exercised last.</summary>
    public IReadOnlyList<HotFinding> Findings { get; init; } = [];

    /// <summary>The measurement the findings were ranked by.</summary>
    public required AsyncCostReport Measured { get; init; }
}

/// <summary>
/// Joins SARIF findings to a measured report by method key and ranks them by time. A finding is credited with the rows of the
/// methods its cost is spent in (the analyzer's AsyncCostCostIn: an await-in-loop's callees, a blocking wait's task), else with
/// its own method's; it never guesses a method from names. Only sorts: each finding's time comes from <see cref="FindingTimes"/>,
/// ranked by what its fix can be proved to save (the saving's lower bound: the cost's, where the fix removes the cost). A member, each of its async local functions and each of its async lambdas
/// have keys of their own; a key ending in ".lambda" (ordinal unknown to the analyzer) joins all of that member's lambdas.
/// </summary>
public static class HotFindingsRanker
{
    /// <summary>Ranks <paramref name="findings"/> by the lower bound of what each costs in time in <paramref name="measured"/>.</summary>
    public static HotFindingsReport Rank(IReadOnlyList<AnalyzerFinding> findings, AsyncCostReport measured)
    {
        ArgumentNullException.ThrowIfNull(findings);
        ArgumentNullException.ThrowIfNull(measured);

        // Rows share a key only where the names cannot tell them apart (two local functions of one name in one member).
        var byKey = measured.Methods
            .GroupBy(m => m.MethodKey, StringComparer.Ordinal)
            .ToDictionary(g => g.Key, g => g.Skip(1).Any() ? MethodCost.Combine([.. g], g.Key, g.First().DisplayName) : g.First(), StringComparer.Ordinal);

        // Each finding is joined and timed once, sorted, then built once with its rank.
        var joined = findings
            .Select(finding => Join(finding, byKey, measured))
            .OrderBy(j => j.Verdict)
            .ThenByDescending(j => j.Time.SavingLowerBound)
            .ThenByDescending(j => j.Time.Milliseconds?.Value ?? -1)
            .ThenBy(j => j.Finding.FilePath, StringComparer.Ordinal)
            .ThenBy(j => j.Finding.Line)
            .Select((j, index) => new HotFinding
            {
                Rank = index + 1, Finding = j.Finding, Method = j.Method, Exercised = j.Exercised, Verdict = j.Verdict, VerdictReason = j.Reason, Time = j.Time,
            })
            .ToList();

        return new HotFindingsReport { Findings = joined, Measured = measured };
    }

    private static Joined Join(AnalyzerFinding finding, Dictionary<string, MethodCost> byKey, AsyncCostReport measured)
    {
        var method = finding.MethodKey is { } key ? Lookup(byKey, key) : null;
        var costIn = finding.CostMethodKeys.Select(k => new CostRow(k, Lookup(byKey, k))).ToList();
        var time = FindingTimes.Of(finding, method, costIn, measured);
        var exercised = method is not null || costIn.Any(c => c.Row is not null);
        var (verdict, reason) = time.Basis != TimeBasis.NotObservable ? (FindingVerdict.Measured, null)
            : !exercised ? Unmeasured(finding.MethodKey, measured)
            : (FindingVerdict.NotObservable, (method is null ? null : SharedTask(method.MethodKey, measured)) ?? Capitalized(time.Explanation));
        return new Joined(finding, method, exercised, verdict, reason, time);
    }

    /// <summary>
    /// A warning when none of the methods the findings name (their own, and those their cost is spent in) appear in the
    /// measured run, neither as a row nor among the methods its method events name: the log is most likely another
    /// application's (or the run never reached the analyzed code), and every finding would read "not exercised" with no sign
    /// of why. Null when any appears, or when the findings name no method.
    /// </summary>
    public static ReportWarning? NoneInTrace(IReadOnlyList<AnalyzerFinding> findings, AsyncCostReport measured)
    {
        ArgumentNullException.ThrowIfNull(findings);
        ArgumentNullException.ThrowIfNull(measured);
        var keys = findings.SelectMany(f => f.CostMethodKeys.Prepend(f.MethodKey)).OfType<string>().Distinct(StringComparer.Ordinal).ToList();
        if (keys.Count == 0 || keys.Any(key => measured.Methods.Any(m => SameMethod(key, m.MethodKey)) || measured.MethodsThatRan.Any(ran => SameMethod(key, ran))))
        {
            return null;
        }
        var examples = string.Join(", ", keys.Take(2)) + (keys.Count > 2 ? ", …" : "");
        var elsewhere = measured.MethodsThatRan.Count > 0 ? "none among the methods the trace's method events name" : "the trace has no method events to name others";
        return new ReportWarning("sarif-unmatched", string.Create(CultureInfo.InvariantCulture,
            $"None of the {keys.Count} methods the SARIF log's {findings.Count} findings name ({examples}) appear in this run: no row, and {elsewhere}. "
            + $"The log is most likely another application's, or the run never reached the analyzed code; every finding reads 'not exercised'."));
    }

    /// <summary>A finding joined to its rows and timed, before it is ranked.</summary>
    private readonly record struct Joined(AnalyzerFinding Finding, MethodCost? Method, bool Exercised, FindingVerdict Verdict, string? Reason, FindingTime Time);

    private static string Capitalized(string text) => text.Length == 0 ? text : char.ToUpperInvariant(text[0]) + text[1..] + ".";

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

    /// <summary>The reason when the method returns a Task&lt;T&gt; that stays unattributed because several methods return that type.</summary>
    private static string? SharedTask(string key, AsyncCostReport measured) =>
        measured.UnattributedAllocations.FirstOrDefault(a => a.CandidateMethods.Any(c => SameMethod(key, c))) is { } shared
            ? string.Create(CultureInfo.InvariantCulture,
                $"Its {shared.TypeName} cannot be told from the same type returned by {shared.CandidateMethods.Count - 1} other method(s): {shared.Bytes.Value / 1_048_576:N1} MB of it stays unattributed.")
            : null;

    // A key ending in ".lambda" (ordinal unknown to the analyzer) stands for all of that member's lambdas.
    internal static bool SameMethod(string findingKey, string measuredKey) =>
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
    }}
