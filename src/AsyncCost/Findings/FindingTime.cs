using System.Globalization;
using AsyncCost.Report;

namespace AsyncCost.Findings;

/// <summary>What a finding's time figure rests on.</summary>
public enum TimeBasis
{
    /// <summary>Nothing this run measured supports a figure: "not observable", never 0.</summary>
    NotObservable,

    /// <summary>The time the finding's blocking waits held their threads (hop pass: waits on tasks; cpu pass: any wait).</summary>
    TimeBlocked,

    /// <summary>The elapsed time of the awaited (or blocked-on) callees' suspending calls, summed: what the callers waited.</summary>
    CalleeElapsed,

    /// <summary>Thread-pool hops counted × what a hop costs (<see cref="BenchmarkedCosts.ThreadPoolHop"/>).</summary>
    Hops,

    /// <summary>Calls counted × what the rule's fix saves per call, as the benchmarks measured it (a state machine, a task, a closure).</summary>
    Calls,

    /// <summary>The elapsed time of the method holding a per-iteration finding's loop: what the loop costs that method's callers.
    /// Only 'compare' uses it, beside <see cref="CalleeElapsed"/>: a fix that runs the calls together leaves their sum as it was
    /// and shrinks this.</summary>
    LoopMethodElapsed,

    /// <summary>What a loop's own method waited on the finding's callees, one after another and together: the finding's own
    /// path of the call tree, which 'compare' measures a predicted saving on.</summary>
    WaitedOnCallees,

    /// <summary>A saving, predicted: per run of the awaited callees' calls one after another (an execution of the loop), their
    /// elapsed time less the longest of them, which is what running them together leaves.</summary>
    SavingIfTogether,
}

/// <summary>What a finding's time is per.</summary>
public enum TimeUnit
{
    /// <summary>Per operation of the measured run (every pass knew how many it did).</summary>
    Operation,

    /// <summary>Per second the passes stood for (a pass's recording, its windows' gaps included): operations unknown.</summary>
    SecondOfRecording,

    /// <summary>Over the whole recording: neither operations nor the passes' durations are known (a report built by hand).</summary>
    Recording,
}

/// <summary>
/// What one finding costs in time, with its 95 % bound and the measured basis it rests on: the one currency findings are
/// ranked in. <see cref="FindingTimes"/> computes it; the ranker sorts by <see cref="LowerBound"/>; renderers print it.
/// </summary>
public sealed record FindingTime
{
    /// <summary>Fewer events than this and a figure "rests on few events": its bound is no longer a normal one, and it ranks by
    /// the Poisson lower bound of its count (a count below 10 is known to ±62 % or worse at 95 %).</summary>
    public const int MinimumEvents = 10;

    /// <summary>What the figure rests on; <see cref="TimeBasis.NotObservable"/> when nothing measured supports one.</summary>
    public TimeBasis Basis { get; init; }

    /// <summary>Milliseconds per <see cref="Per"/>, with its 95 % bound; null when not observable.</summary>
    public Figure? Milliseconds { get; init; }

    /// <summary>What <see cref="Milliseconds"/> is per.</summary>
    public TimeUnit Per { get; init; }

    /// <summary>Events the figure rests on as the trace saw them (waits, calls timed, hops, allocation samples of calls, stack
    /// samples), before any scaling from a windowed pass's windows to the whole pass: what its Poisson bound counts.</summary>
    public double Events { get; init; }

    /// <summary>What <see cref="Events"/> are, in words ("waits", "calls").</summary>
    public string EventName { get; init; } = "events";

    /// <summary>True when the figure rests on fewer than <see cref="MinimumEvents"/> events: it says so, and ranks by what they prove.</summary>
    public bool FewEvents => Milliseconds is not null && Events < MinimumEvents;

    /// <summary>What the figure can prove, in milliseconds per <see cref="Per"/>: the ranking's key. The lower end of its 95 %
    /// interval, and never more than the Poisson lower bound its event count allows; for time blocked, the longest single wait
    /// left out (one wait can be an accident). 0 when not observable.</summary>
    public double LowerBound { get; init; }

    /// <summary>The basis in one sentence, with the measured figures it multiplies or adds.</summary>
    public required string Explanation { get; init; }

    /// <summary>The join keys of the methods whose rows the figure was taken from.</summary>
    public IReadOnlyList<string> MethodKeys { get; init; } = [];

    /// <summary>What fixing the finding is predicted to save, per the same unit, where that is not the cost itself: for an await
    /// in a loop, running each execution's calls together (<see cref="TimeBasis.SavingIfTogether"/>). Null where the fix
    /// removes the cost (time blocked, hops, calls): the saving is <see cref="Milliseconds"/>.</summary>
    public FindingTime? Saving { get; init; }

    /// <summary>For an await in a loop, the saving had the calls, run together, finished together (each execution's calls less
    /// their mean, not their longest): the top of the prediction, per the same unit. A trace of the calls one after another
    /// cannot tell how their latencies would overlap; <see cref="Saving"/> assumes they would not at all, this that they would
    /// fully (a shared timer tick, one connection's round trip). Null elsewhere.</summary>
    public Figure? SavingIfOverlapping { get; init; }

    /// <summary>What the ranking sorts by: the lower bound of the saving, which is the cost's where the fix removes the cost.</summary>
    public double SavingLowerBound => Saving?.LowerBound ?? LowerBound;
}

/// <summary>A method a finding's cost is spent in, and its row when a pass measured it.</summary>
/// <param name="Key">The join key the analyzer named.</param>
/// <param name="Row">Its row, or null when no pass saw it.</param>
public sealed record CostRow(string Key, MethodCost? Row);

/// <summary>
/// The one place that turns a finding's measured basis into time per operation (or per second of recording) with its bound,
/// and names the basis: time blocked for the blocking rules; the awaited callees' elapsed time for an await in a loop (hops ×
/// a hop's cost without it); the method's hops × a hop's cost for the other hop rules; calls × what the rule's fix saves per
/// call (benchmarked) for the allocation rules that have such a figure. Bytes are not priced: the allocation pass records
/// no GC events from which this process's cost per byte could be told.
/// </summary>
public static class FindingTimes
{
    // Two-sided 95 % Poisson lower limits for a count of 0..9 (χ²(0.025; 2n) / 2).
    private static readonly double[] PoissonLower = [0, 0.0253, 0.2422, 0.6186, 1.0899, 1.6235, 2.2019, 2.8144, 3.4538, 4.1154];

    /// <summary>The time of <paramref name="finding"/>.</summary>
    /// <param name="finding">The analyzer's finding.</param>
    /// <param name="own">The row of the method the finding is in, when a pass saw it.</param>
    /// <param name="costIn">The methods the analyzer says the cost is spent in (AsyncCostCostIn), with their rows; empty when it is the finding's own method.</param>
    /// <param name="measured">The report (its passes give the unit).</param>
    public static FindingTime Of(AnalyzerFinding finding, MethodCost? own, IReadOnlyList<CostRow> costIn, AsyncCostReport measured)
    {
        ArgumentNullException.ThrowIfNull(finding);
        ArgumentNullException.ThrowIfNull(costIn);
        ArgumentNullException.ThrowIfNull(measured);
        var scale = new TimeScale(measured);
        return finding.CostKind switch
        {
            FindingCostKind.Blocking => Blocked(finding, own, costIn, scale),
            FindingCostKind.Hops when costIn.Count > 0 => (Elapsed(costIn, scale) ?? HopsOf(costIn, scale)) with { Saving = SavingIfTogether(own, costIn, scale) },
            FindingCostKind.Hops => HopsOf(own is null ? [] : [new CostRow(own.MethodKey, own)], scale),
            FindingCostKind.Allocations => CallsOf(finding, own, scale),
            _ => NotObservable("the rule names no kind of cost (an older analyzer), so nothing says which figure its time rests on", scale),
        };
    }

    /// <summary>The elapsed time of <paramref name="own"/>, the method that holds a per-iteration finding's loop, on
    /// <paramref name="measured"/>'s unit (<see cref="TimeBasis.LoopMethodElapsed"/>).</summary>
    public static FindingTime OfLoopMethod(MethodCost? own, AsyncCostReport measured)
    {
        ArgumentNullException.ThrowIfNull(measured);
        var scale = new TimeScale(measured);
        return own?.ElapsedMilliseconds is { } elapsed
            ? Make(TimeBasis.LoopMethodElapsed, elapsed, elapsed.Samples, "calls timed", 0, scale, [own.MethodKey],
                Text($"elapsed time of the loop's own method, {own.DisplayName}: {own.SuspendingCalls?.Value ?? 0:N0} suspending call(s) × {Milliseconds(own.ElapsedPerCallMilliseconds?.Value ?? 0)} = {Milliseconds(elapsed.Value)} (hop pass); ")
                + "what the loop costs its callers, which running its iterations together shrinks")
            : NotObservable("the hop pass timed no call of the loop's own method", scale);
    }

    /// <summary>What <paramref name="own"/>, the method holding a per-iteration finding's loop, waited on the calls of
    /// <paramref name="calleeKeys"/> (one after another and together), on <paramref name="measured"/>'s unit
    /// (<see cref="TimeBasis.WaitedOnCallees"/>): the finding's own path, which a fix elsewhere in the method does not move.</summary>
    public static FindingTime WaitedOnCallees(MethodCost? own, IReadOnlyList<string> calleeKeys, AsyncCostReport measured)
    {
        ArgumentNullException.ThrowIfNull(calleeKeys);
        ArgumentNullException.ThrowIfNull(measured);
        var scale = new TimeScale(measured);
        var callees = own?.AwaitedCalls.Where(a => calleeKeys.Any(k => HotFindingsRanker.SameMethod(k, a.MethodKey))).ToList() ?? [];
        if (callees.Count == 0)
        {
            return NotObservable(own is null ? "no pass saw the loop's own method" : $"the hop pass saw {own.DisplayName} wait on none of its callees' calls", scale);
        }
        var waited = Figure.Sum(callees.Select(a => a.WaitedMilliseconds))!;
        var parts = string.Join(" + ", callees.Select(a => Text(
            $"{a.DisplayName}: {a.Runs.Value:N0} run(s) one after another, {a.Groups.Value:N0} group(s) together, {Milliseconds(a.WaitedMilliseconds.Value)}")));
        return Make(TimeBasis.WaitedOnCallees, waited, waited.Samples, "runs and groups", 0, scale, [own!.MethodKey],
            Text($"what {own.DisplayName} waited on its callees' calls: {parts} (hop pass)"));
    }

    // AC0007's waits (Sleep, WaitHandle, SemaphoreSlim...) are not task waits: only the cpu pass times them. AC0006's are:
    // the hop pass times each (TaskWaitBegin to End), the cpu pass samples them; without either, the blocked-on callee's
    // elapsed time is what the wait lasts at most, not what it cost, and is not used.
    private static FindingTime Blocked(AnalyzerFinding finding, MethodCost? own, IReadOnlyList<CostRow> costIn, TimeScale scale)
    {
        var taskWaits = finding.RuleId != "AC0007";
        if (taskWaits && own?.BlockedMilliseconds is { } blocked && own.BlockingWaits is { } waits)
        {
            var longest = own.LongestBlockedMilliseconds ?? 0;
            var on = costIn.Count > 0 ? $" on {string.Join(", ", costIn.Select(c => c.Key))}" : "";
            return Make(TimeBasis.TimeBlocked, blocked, waits.Samples, "waits", longest, scale, [own.MethodKey],
                Text($"time blocked{on}: {waits.Value:N0} wait(s) of {own.DisplayName} held their threads {blocked.Value:N1} ms in all (hop pass)")
                + (waits.Value > 1 ? Text($"; the longest, {longest:N1} ms, is left out of what it proves") : ""));
        }
        if (own?.WaitMilliseconds is { } sampled)
        {
            return Make(TimeBasis.TimeBlocked, sampled, sampled.Samples, "stack samples", 0, scale, [own.MethodKey], Text(
                $"time blocked: the cpu pass sampled {own.DisplayName} blocked in waits it made for ~{sampled.Value:N1} ms ({sampled.Samples:N0} samples)"));
        }
        return NotObservable(taskWaits
            ? "no pass timed its waits: the hop pass (time blocked on tasks) or the cpu pass (time in any wait) did not run or did not see the method"
            : "the hop pass times waits on tasks only; a Sleep or WaitHandle wait is timed by the cpu pass (--passes ...,cpu), which did not see the method", scale);
    }

    private static FindingTime? Elapsed(IReadOnlyList<CostRow> costIn, TimeScale scale)
    {
        var timed = costIn.Where(c => c.Row?.ElapsedMilliseconds is not null).ToList();
        if (timed.Count == 0)
        {
            return null;
        }
        var total = Figure.Sum(timed.Select(c => c.Row!.ElapsedMilliseconds))!;
                var parts = string.Join(" + ", timed.Select(c => Text(
            $"{c.Row!.DisplayName}: {c.Row.SuspendingCalls?.Value ?? 0:N0} suspending call(s) × {Milliseconds(c.Row.ElapsedPerCallMilliseconds?.Value ?? 0)}")));
        return Make(TimeBasis.CalleeElapsed, total, total.Samples, "calls timed", 0, scale, [.. timed.Select(c => c.Key)],
            Text($"elapsed time of the awaited calls, one after another: {parts} = {Milliseconds(total.Value)} (hop pass){Unseen(costIn)}; ")
            + "running them together saves this less the longest call of each execution of the loop (the saving)");
    }

    /// <summary>
    /// What running a loop's awaited calls together would save: the loop's own method's runs of awaits of the callees (the hop
    /// pass links each call to the call that awaited it), each run its calls' elapsed time less the longest. A callee whose
    /// calls never suspended saves nothing (its synchronous runs stay one after another); without runs or such a callee,
    /// not observable.
    /// </summary>
    private static FindingTime SavingIfTogether(MethodCost? own, IReadOnlyList<CostRow> costIn, TimeScale scale)
    {
        var awaited = own?.AwaitedCalls.Where(a => a.SavingIfTogetherMilliseconds is not null && costIn.Any(c => HotFindingsRanker.SameMethod(c.Key, a.MethodKey))).ToList() ?? [];
        if (awaited.Count == 0)
        {
            return own is not null && costIn.Any(c => c.Row is { SuspendingCalls.Value: 0 }) && costIn.All(c => c.Row?.SuspendingCalls is { Value: 0 } or null)
                ? Make(TimeBasis.SavingIfTogether, new Figure { Source = FigureSource.HopPass }, 0, "loop runs", 0, scale, [own.MethodKey],
                    "no saving: the awaited calls never suspended (hop pass), so running them together overlaps nothing")
                : NotObservable(own is null
                    ? "no pass saw the loop's own method, so which of the callees' calls ran in one execution of the loop is not known"
                    : $"the hop pass saw {own.DisplayName} await none of its callees' calls one after another", scale);
        }
        var saving = Figure.Sum(awaited.Select(a => a.SavingIfTogetherMilliseconds))!;
        var overlapping = Figure.Sum(awaited.Select(a => a.SavingIfOverlappingMilliseconds));
        var parts = string.Join(" + ", awaited.Select(a => Text(
            $"{a.Runs.Value:N0} run(s) of {a.CallsPerRun:N1} call(s) of {a.DisplayName}, {Milliseconds(a.SequentialMilliseconds!.Value / Math.Max(a.Runs.Value, 1))} one after another less the longest, {Milliseconds(a.SavingIfTogetherPerRunMilliseconds!.Value)} ± {Milliseconds(a.SavingIfTogetherPerRunMilliseconds.ErrorBound)} a run")));
        var predicted = Make(TimeBasis.SavingIfTogether, saving, awaited.Sum(a => a.SavingIfTogetherPerRunMilliseconds!.Samples), "loop runs", 0, scale, [own!.MethodKey],
            Text($"running each execution of the loop's calls together, as {own.DisplayName} awaited them: {parts} = {Milliseconds(saving.Value)} (hop pass)")
            + (overlapping is null ? "" : Text($"; up to {Milliseconds(overlapping.Value)} if the calls, run together, finish together (less the mean call, not the longest)")));
        return predicted with { SavingIfOverlapping = overlapping?.Per(scale.Divisor(overlapping.Source)) };
    }

    private static FindingTime HopsOf(IReadOnlyList<CostRow> rows, TimeScale scale)
    {
        var counted = rows.Where(c => c.Row?.Hops is not null).ToList();
        if (counted.Count == 0)
        {
            return NotObservable(rows.Count == 0 || rows.All(r => r.Row is null)
                ? "no pass saw the method its cost is in" + Unseen(rows)
                : "no hop pass ran, so neither its callees' elapsed time nor their hops were measured", scale);
        }
        var hops = Figure.Sum(counted.Select(c => c.Row!.Hops))!;
        var hop = BenchmarkedCosts.ThreadPoolHop;
        var names = string.Join(", ", counted.Select(c => c.Row!.DisplayName));
        return Make(TimeBasis.Hops, Times(hops, hop), hops.Samples, "hops", 0, scale, [.. counted.Select(c => c.Key)], Text(
            $"{hops.Value:N0} thread-pool hops of {names} (hop pass){Unseen(rows)} × {hop.Microseconds:N3} µs ± {hop.ErrorBound:N3} a hop ({hop.Benchmark})"));
    }

    private static FindingTime CallsOf(AnalyzerFinding finding, MethodCost? own, TimeScale scale)
    {
        var saved = finding.RuleId switch
        {
            "AC0002" => BenchmarkedCosts.CompletedTask,
            "AC0003" or "AC0008" => BenchmarkedCosts.SynchronousStateMachine,
            "AC0009" => BenchmarkedCosts.Closure,
            _ => null,
        };
        if (saved is null)
        {
            return NotObservable("its cost is bytes, and this run cannot price a byte: the allocation pass records no GC events from which the process's collection time per byte could be told", scale);
        }
        if (own?.Calls is not { } calls)
        {
            return NotObservable("no pass counted its calls (a call that completes synchronously without allocating is invisible to EventPipe)", scale);
        }
        return Make(TimeBasis.Calls, Times(calls, saved), calls.Samples, "calls seen", 0, scale, [own.MethodKey], Text(
            $"{calls.Value:N0} calls of {own.DisplayName} × {saved.Microseconds:N3} µs ± {saved.ErrorBound:N3}, {saved.What} ({saved.Benchmark})"));
    }

    private static string Unseen(IReadOnlyList<CostRow> rows) =>
        rows.Where(r => r.Row is null).Select(r => r.Key).ToList() is { Count: > 0 } unseen
            ? $"; no pass saw {string.Join(", ", unseen)} (not counted)"
            : "";

    // A count (per recording) times a benchmarked microsecond figure: milliseconds, the relative bounds in quadrature.
    private static Figure Times(Figure count, UnitCost unit)
    {
        var value = count.Value * unit.Microseconds / 1000;
        var relative = Math.Sqrt((count.RelativeError * count.RelativeError) + Math.Pow(unit.ErrorBound / unit.Microseconds, 2));
        return new Figure { Value = value, ErrorBound = value * relative, Samples = count.Samples, Sampled = true, Source = count.Source };
    }

    private static FindingTime Make(TimeBasis basis, Figure total, double events, string eventName, double leaveOut, TimeScale scale, IReadOnlyList<string> keys, string explanation)
    {
        var divisor = scale.Divisor(total.Source);
        return new FindingTime
        {
            Basis = basis,
            Milliseconds = total.Per(divisor),
            Per = scale.Unit,
            Events = events,
            EventName = eventName,
            LowerBound = Provable(total, events, leaveOut) / divisor,
            MethodKeys = keys,
            Explanation = explanation + scale.Describe(total.Source),
        };
    }

    /// <summary>What a total resting on <paramref name="events"/> events proves: the lower end of its own 95 % interval, and no
    /// more than the Poisson lower bound of its count allows (the figure scaled by that bound over the count); one event of
    /// <paramref name="leaveOut"/> (the longest wait) is not counted as proof.</summary>
    internal static double Provable(Figure total, double events, double leaveOut)
    {
        var value = total.Value - leaveOut;
        var count = Math.Floor(events - (leaveOut > 0 ? 1 : 0));
        if (count <= 0 || value <= 0)
        {
            return 0;
        }
        var byCount = count < FindingTime.MinimumEvents ? PoissonLower[(int)count] / count : 1 - (Figure.StandardErrors / Math.Sqrt(count));
        var byBound = 1 - total.RelativeError;
        return value * Math.Max(0, Math.Min(byCount, byBound));
    }

    private static FindingTime NotObservable(string why, TimeScale scale) => new()
    {
        Basis = TimeBasis.NotObservable,
        Per = scale.Unit,
        Explanation = "not observable: " + why,
    };

    private static string Text(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);

    // A time in the explanation: milliseconds, or microseconds below one.
    internal static string Milliseconds(double ms) => ms >= 1 || ms == 0 ? Text($"{ms:N1} ms") : Text($"{ms * 1000:N1} µs");

    /// <summary>What a report's times are per: operations when every pass knew its own, else the seconds each pass stood for.</summary>
    internal sealed class TimeScale
    {
        private readonly AsyncCostReport _report;

        public TimeScale(AsyncCostReport report)
        {
            _report = report;
            Unit = report.Passes.Count == 0 ? TimeUnit.Recording
                : report.Passes.All(p => p.Operations > 0) ? TimeUnit.Operation
                : report.Passes.All(p => p.Duration > TimeSpan.Zero) ? TimeUnit.SecondOfRecording
                : TimeUnit.Recording;
        }

        public TimeUnit Unit { get; }

        /// <summary>The operations, or seconds, the figures of a pass stand for (a windowed pass's counts stand for its gaps too).</summary>
        public double Divisor(FigureSource source) => Unit switch
        {
            TimeUnit.Operation when PassBasis.Operations(_report, source) is { } operations => operations,
            TimeUnit.SecondOfRecording when PassBasis.PassOf(_report, source) is not null => PassBasis.Seconds(_report, source),
            _ => 1,
        };

        public string Describe(FigureSource source) => Unit switch
        {
            TimeUnit.Operation => Text($"; per {PassBasis.OperationNoun(_report)}: ÷ {Divisor(source):N0} {PassBasis.OperationNoun(_report)}s"),
            TimeUnit.SecondOfRecording => Text($"; per second: ÷ {Divisor(source):N1} s the pass stood for (operations unknown)"),
            _ => "",
        } + (source == FigureSource.HopPass && _report.Passes.Any(p => p.Pass == MeasurementPasses.Hops && p.Unrecorded > TimeSpan.Zero)
            // A window's waits and calls last longer than the untraced process's (its TPL events slow it): HopScale scales
            // times by seconds, not work items, which holds for waits that slow with the process and not for those that don't.
            ? "; timed in the hop pass's windows and scaled by time, as tracing slows the process there (warning hop-windows): a wait or call that does not slow with the process (a timer, a remote service) reads low by up to that slowdown"
            : "");
    }
}
