using System.Globalization;
using AsyncCost.Report;

namespace AsyncCost.Findings;

/// <summary>What became of a finding's time in a second run (its fix), judged by the two figures' 95 % bounds.</summary>
public enum TimeChange
{
    /// <summary>The second run's figure, at the top of its bound, is at most <see cref="FindingTimeChanges.GoneFraction"/> of
    /// what the first run's proved; or the pass that measured it ran again and saw none of the methods it was taken from.</summary>
    Gone,

    /// <summary>Smaller beyond both bounds and the threshold.</summary>
    Reduced,

    /// <summary>Within the noise (the bounds overlap) or the threshold.</summary>
    Unchanged,

    /// <summary>Larger beyond both bounds and the threshold.</summary>
    Increased,

    /// <summary>The second run has no figure on the same basis (its pass did not run, or the figure rests on another basis or pass).</summary>
    NotObservable,
}

/// <summary>
/// A finding's predicted saving against the saving the second run measured on the finding's own path: what the loop's method
/// waited on the finding's callees before, less after (<see cref="FindingTimes.WaitedOnCallees"/>), so that another fix in
/// the same method is not credited to it.
/// </summary>
public sealed class SavingCheck
{
    /// <summary>The first run's prediction, per the findings' unit, with its 95 % bound: the calls' latencies independent
    /// when run together.</summary>
    public required Figure Predicted { get; init; }

    /// <summary>The top of the prediction: the calls, run together, finishing together; null where not predicted.</summary>
    public Figure? PredictedIfOverlapping { get; init; }

    /// <summary>The saving measured on the finding's path, the two runs' bounds in quadrature; null when either run has no figure.</summary>
    public Figure? Measured { get; init; }

    /// <summary>True when the measured saving's 95 % interval meets the prediction's, from the bottom of
    /// <see cref="Predicted"/>'s to the top of <see cref="PredictedIfOverlapping"/>'s; null when not measured.</summary>
    public bool? WithinPrediction { get; init; }

    /// <summary>How the measurement was taken, or why it was not.</summary>
    public required string Explanation { get; init; }
}

/// <summary>One ranked finding of a first run and its time basis measured again in a second run, by <see cref="FindingTimes"/>.</summary>
public sealed class FindingTimeChange
{
    /// <summary>The finding as the first run ranked and timed it.</summary>
    public required HotFinding Before { get; init; }

    /// <summary>The same finding's time in the second run: the same analyzer finding, its cost-in methods looked up there.</summary>
    public required FindingTime After { get; init; }

    /// <summary>What became of the time.</summary>
    public TimeChange Change { get; init; }

    /// <summary>For a finding with a predicted saving (the first of its rows): that prediction against the saving measured on
    /// the finding's own path; null otherwise.</summary>
    public SavingCheck? Saving { get; init; }

    /// <summary>Why, in one sentence.</summary>
    public required string Reason { get; init; }

    /// <summary>The two figures' difference, when the second run has a figure on the same basis.</summary>
    public FigureDifference? Difference => Change != TimeChange.NotObservable && After.Milliseconds is { } after ? new FigureDifference(Before.Time.Milliseconds!, after) : null;
}

/// <summary>
/// A finding's time before and after a change, for 'compare'. A fixed twin's own findings differ from the original's (the
/// analyzer reports nothing where the fix is), so the join takes the first run's findings and looks their methods up in
/// the second run; both times come from <see cref="FindingTimes"/>, never from a second computation. Summing the rows'
/// elapsed times would count nested calls twice; a finding's own basis does not.
/// </summary>
public static class FindingTimeChanges
{
    /// <summary>"Gone": what is left, at the top of its 95 % bound, is at most this share of what the first run's figure
    /// proved (the lower end it ranked by): at least 95 % of the time went, beyond doubt.</summary>
    public const double GoneFraction = 0.05;

    /// <summary>
    /// Each finding of <paramref name="before"/> that had a time figure, in its rank, with the same finding timed in
    /// <paramref name="after"/>. Both reports must be on one basis (operations known in both, or in neither): a time per
    /// operation is not compared with one per second.
    /// </summary>
    /// <param name="findings">The analyzer findings of the first run's code.</param>
    /// <param name="before">The first run.</param>
    /// <param name="after">The second run (the fix).</param>
    /// <param name="threshold">The smallest relative change named (0.10: 10 %), beyond the figures' own bounds.</param>
    public static IReadOnlyList<FindingTimeChange> Between(IReadOnlyList<AnalyzerFinding> findings, AsyncCostReport before, AsyncCostReport after, double threshold)
    {
        ArgumentNullException.ThrowIfNull(findings);
        ArgumentNullException.ThrowIfNull(before);
        ArgumentNullException.ThrowIfNull(after);
        var again = HotFindingsRanker.Rank(findings, after).Findings
            .ToDictionary(f => f.Finding, (IEqualityComparer<AnalyzerFinding>)ReferenceEqualityComparer.Instance);
        return [.. HotFindingsRanker.Rank(findings, before).Findings
            .Where(f => f.Time.Milliseconds is not null)
            .SelectMany(f => WithLoopMethod(f, again[f.Finding], before, after)
                .Select((pair, index) => Judge(pair.Before, pair.After, after, threshold, index == 0 ? CheckSaving(f, again[f.Finding], before, after) : null)))];
    }

    /// <summary>The finding's predicted saving against what its own path (the loop's method waiting on its callees) lost from
    /// the first run to the second; null for a finding without a predicted saving.</summary>
    private static SavingCheck? CheckSaving(HotFinding before, HotFinding after, AsyncCostReport beforeRun, AsyncCostReport afterRun)
    {
        if (before.Time.Saving is not { Basis: TimeBasis.SavingIfTogether, Milliseconds: { } predicted } saving)
        {
            return null;
        }
        var top = saving.SavingIfOverlapping;
        var keys = before.Finding.CostMethodKeys;
        var was = FindingTimes.WaitedOnCallees(before.Method, keys, beforeRun);
        var now = FindingTimes.WaitedOnCallees(after.Method, keys, afterRun);
        if (was.Milliseconds is not { } waited || now.Milliseconds is not { } waits || was.Per != now.Per)
        {
            return new SavingCheck
            {
                Predicted = predicted,
                PredictedIfOverlapping = top,
                Explanation = "Not measured: " + (was.Milliseconds is null ? was.Explanation : now.Milliseconds is null ? now.Explanation : "the two runs' times are per different units."),
            };
        }
        var measured = new Figure
        {
            Value = waited.Value - waits.Value,
            ErrorBound = Math.Sqrt((waited.ErrorBound * waited.ErrorBound) + (waits.ErrorBound * waits.ErrorBound)),
            Samples = Math.Min(waited.Samples, waits.Samples),
            Sampled = true,
            Source = FigureSource.HopPass,
        };
        var low = predicted.Value - predicted.ErrorBound;
        var high = top is null ? predicted.Value + predicted.ErrorBound : Math.Max(top.Value + top.ErrorBound, predicted.Value + predicted.ErrorBound);
        var within = measured.Value + measured.ErrorBound >= low && measured.Value - measured.ErrorBound <= high;
        return new SavingCheck
        {
            Predicted = predicted,
            PredictedIfOverlapping = top,
            Measured = measured,
            WithinPrediction = within,
            Explanation = Text($"What the loop's method waited on {string.Join(", ", keys)}: {FindingTimes.Milliseconds(waited.Value)} before, {FindingTimes.Milliseconds(waits.Value)} after; saved {FindingTimes.Milliseconds(measured.Value)} ± {FindingTimes.Milliseconds(measured.ErrorBound)}, ")
                + (within ? "within" : "outside") + Text($" the predicted {FindingTimes.Milliseconds(predicted.Value)} ± {FindingTimes.Milliseconds(predicted.ErrorBound)}")
                + (top is null ? "." : Text($" to {FindingTimes.Milliseconds(top.Value)} ± {FindingTimes.Milliseconds(top.ErrorBound)} (the calls finishing together).")),
        };
    }

    /// <summary>
    /// The finding's own time in both runs and, for a per-iteration finding timed by its callees' elapsed time whose loop's
    /// method was timed too, that method's elapsed time in both: a fix that runs the calls together (Task.WhenAll) leaves the
    /// callees' sum as it was, and shortens the method that waited for them one after another.
    /// </summary>
    private static IEnumerable<(HotFinding Before, FindingTime After)> WithLoopMethod(HotFinding before, HotFinding after, AsyncCostReport beforeRun, AsyncCostReport afterRun)
    {
        yield return (before, after.Time);
        if (before.Time.Basis == TimeBasis.CalleeElapsed && before.Method?.ElapsedMilliseconds is not null)
        {
            yield return (before with { Time = FindingTimes.OfLoopMethod(before.Method, beforeRun) }, FindingTimes.OfLoopMethod(after.Method, afterRun));
        }
    }

    private static FindingTimeChange Judge(HotFinding before, FindingTime after, AsyncCostReport afterRun, double threshold, SavingCheck? saving)
    {
        var was = before.Time.Milliseconds!;
        FindingTimeChange Change(TimeChange change, string reason) => new() { Before = before, After = after, Change = change, Reason = reason, Saving = saving };
        if (after.Milliseconds is not { } now)
        {
            return Unseen(before.Time, afterRun) is { } unseen
                ? Change(was.Value > 0 ? TimeChange.Gone : TimeChange.Unchanged, unseen)
                : Change(TimeChange.NotObservable, "The second run has no figure for it: " + after.Explanation);
        }
        if (after.Basis != before.Time.Basis || now.Source != was.Source || after.Per != before.Time.Per)
        {
            return Change(TimeChange.NotObservable, "The second run's figure rests on another basis or pass, which is not compared: " + after.Explanation);
        }
        if (before.Time.LowerBound > 0 && now.Value + now.ErrorBound <= GoneFraction * before.Time.LowerBound)
        {
            return Change(TimeChange.Gone, Text(
                $"What is left, {FindingTimes.Milliseconds(now.Value + now.ErrorBound)} at most, is under {GoneFraction:P0} of the {FindingTimes.Milliseconds(before.Time.LowerBound)} the first run proved."));
        }
        var difference = new FigureDifference(was, now);
        return !difference.IsChangeBeyond(threshold)
            ? Change(TimeChange.Unchanged, Text($"The two figures are within each other's bounds or {threshold:P0} of each other."))
            : now.Value < was.Value
                ? Change(TimeChange.Reduced, Text($"Smaller beyond both 95 % bounds and the {threshold:P0} threshold."))
                : Change(TimeChange.Increased, Text($"Larger beyond both 95 % bounds and the {threshold:P0} threshold."));
    }

    /// <summary>
    /// Why the second run has no figure because it has no row for the methods the first run's figure was taken from, while
    /// the pass that measured them ran: no call of theirs did what that pass sees. Null when the pass did not run there, or
    /// a row is there (the figure is missing for another reason).
    /// </summary>
    private static string? Unseen(FindingTime before, AsyncCostReport after)
    {
        var pass = before.Milliseconds!.Source.Pass();
        var keys = before.MethodKeys;
        if (pass == MeasurementPasses.None || keys.Count == 0 || after.Passes.All(p => p.Pass != pass)
            || after.Methods.Any(m => keys.Any(k => HotFindingsRanker.SameMethod(k, m.MethodKey))))
        {
            return null;
        }
        var names = string.Join(", ", keys);
        var ran = after.MethodsThatRan.Count == 0 ? "" : keys.Any(k => after.MethodsThatRan.Any(m => HotFindingsRanker.SameMethod(k, m)))
            ? " (its method events say it ran: no call of it did what the pass sees)"
            : " (its method events do not name it: it was never called)";
        return $"The second run's {PassName(pass)} ran and saw no call of {names}{ran}.";
    }

    private static string PassName(MeasurementPasses pass) => pass switch
    {
        MeasurementPasses.Allocations => "allocation pass",
        MeasurementPasses.Hops => "hop pass",
        _ => "cpu pass",
    };

    private static string Text(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
