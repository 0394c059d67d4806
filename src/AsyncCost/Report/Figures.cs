using System.ComponentModel;

namespace AsyncCost.Report;

/// <summary>
/// One measured quantity: a value, its error bound (half-width of a ~95 % interval; 0 for exact counts),
/// the number of events behind it, and the pass it came from. An estimate's bound comes from its sampling model: an
/// allocation sample stands for ~100 KB of allocations, so a figure made of n samples is a Poisson-like count whose
/// relative standard error is about 1/√n (the Horvitz–Thompson variance of the allocation computer gives exactly that for
/// one object size); the bound is 1.96 standard errors, a 95 % confidence level. Exact counts (every event seen) have none.
/// </summary>
public sealed record Figure
{
    /// <summary>The confidence level of every <see cref="ErrorBound"/>.</summary>
    public const double ConfidenceLevel = 0.95;

    /// <summary>Standard errors per bound at <see cref="ConfidenceLevel"/> (normal approximation).</summary>
    public const double StandardErrors = 1.96;

    /// <summary>The estimate (or exact count).</summary>
    public double Value { get; init; }

    /// <summary>± bound at ~95 % confidence, in the same unit as <see cref="Value"/>; 0 when exact.</summary>
    public double ErrorBound { get; init; }

    /// <summary>Events (samples) behind the figure.</summary>
    public long Samples { get; init; }

    /// <summary>True for sampled estimates, false for exact counts.</summary>
    public bool Sampled { get; init; }

    /// <summary>The pass the figure came from.</summary>
    public FigureSource Source { get; init; }

    /// <summary>Exact (every event counted) or estimate (from samples or scaled from windows; see <see cref="ErrorBound"/>).</summary>
    public FigureKind Kind => Sampled ? FigureKind.Estimate : FigureKind.Exact;

    /// <summary>Relative error bound (ErrorBound / Value), 0 when the value is 0.</summary>
    public double RelativeError => Value == 0 ? 0 : ErrorBound / Value;

    /// <summary>An exact count.</summary>
    public static Figure Exact(double value, FigureSource source) => new() { Value = value, Samples = (long)value, Source = source };

    /// <summary>This figure divided by a positive number (per operation, per second): the same kind, the bound scaled alike.</summary>
    public Figure Per(double divisor) => this with { Value = Value / divisor, ErrorBound = ErrorBound / divisor };

    /// <summary>
    /// The sum of independent figures (missing ones skipped; null when all are): the values add, and so do the variances,
    /// so the bounds add in quadrature; an estimate when any part is.
    /// </summary>
    public static Figure? Sum(IEnumerable<Figure?> figures) => figures.Aggregate((Figure?)null, (sum, figure) => (sum, figure) switch
    {
        (null, _) => figure,
        (_, null) => sum,
        _ => sum with
        {
            Value = sum.Value + figure.Value,
            Samples = sum.Samples + figure.Samples,
            ErrorBound = Math.Sqrt((sum.ErrorBound * sum.ErrorBound) + (figure.ErrorBound * figure.ErrorBound)),
            Sampled = sum.Sampled || figure.Sampled,
        },
    });

    /// <summary>
    /// A ratio of two figures measured independently (a per-call figure of combined rows): its relative bound is the two
    /// relative bounds added in quadrature (first-order error propagation), an estimate when either side is; null when the
    /// denominator is not positive.
    /// </summary>
    public static Figure? Ratio(Figure? numerator, Figure? denominator)
    {
        if (numerator is null || denominator is not { Value: > 0 })
        {
            return null;
        }
        var value = numerator.Value / denominator.Value;
        var relative = Math.Sqrt((numerator.RelativeError * numerator.RelativeError) + (denominator.RelativeError * denominator.RelativeError));
        return new Figure
        {
            Value = value,
            ErrorBound = relative * value,
            Samples = Math.Min(numerator.Samples, denominator.Samples),
            Sampled = numerator.Sampled || denominator.Sampled,
            Source = numerator.Source,
        };
    }
}

/// <summary>
/// One quantity in two runs (before and after a change): the ratio after/before with its bound, and whether the difference
/// is inside the noise. The bounds are each figure's own (95 %); two exact figures have none, so any difference between them
/// is real for those runs, but a rerun of the same code differs by a few percent too (background work, timing), which no
/// bound measures: <see cref="IsChange"/> also asks for <see cref="RunToRunTolerance"/>.
/// </summary>
/// <param name="Before">The first run's figure.</param>
/// <param name="After">The second run's figure.</param>
public sealed record FigureDifference(Figure Before, Figure After)
{
    /// <summary>The smallest relative difference named as a change. Two runs of the same sample differ by up to ~5 % in
    /// exact counts (context switches, work items; measured with ChattyPipeline run twice), so 10 % leaves a margin.</summary>
    public const double RunToRunTolerance = 0.10;

    /// <summary>True when both figures come from the same kind of pass: the hop pass's TPL tracing changes what a process
    /// allocates, so bytes from it are not comparable with bytes from the allocation pass.</summary>
    public bool Comparable => Before.Source == After.Source;

    /// <summary>True when the runs differ beyond doubt: comparable, outside the noise, and by at least <see cref="RunToRunTolerance"/>.</summary>
    public bool IsChange => IsChangeBeyond(RunToRunTolerance);

    /// <summary>True when the runs differ beyond doubt and by a relative threshold (0.10: 10 %): comparable, outside the noise,
    /// and after/before at least 1 + threshold or at most 1 / (1 + threshold) (one run's figure that much above the other's,
    /// either way); from a before of zero, any after outside the noise.</summary>
    public bool IsChangeBeyond(double threshold) => Comparable && !WithinNoise
        && (Ratio is { } ratio ? ratio >= 1 + threshold || ratio <= 1 / (1 + threshold) : After.Value > 0);

    /// <summary>After / before, null when before is not positive.</summary>
    public double? Ratio => Before.Value > 0 ? After.Value / Before.Value : null;

    /// <summary>The ratio's relative bound: the two relative bounds added in quadrature (first-order error propagation).</summary>
    public double RatioRelativeBound => Math.Sqrt((Before.RelativeError * Before.RelativeError) + (After.RelativeError * After.RelativeError));

    /// <summary>True when the two figures' intervals overlap (value ± bound): the runs may not differ at all.</summary>
    public bool WithinNoise => Math.Abs(After.Value - Before.Value) <= Before.ErrorBound + After.ErrorBound;

    /// <summary>True when either figure is an estimate.</summary>
    public bool Estimated => Before.Sampled || After.Sampled;
}

/// <summary>Figures of a whole report, derived from its rows.</summary>
public static class ReportFigures
{
    /// <summary>The time the cpu pass sampled threads in the method, running and blocked in waits; null without a cpu pass.</summary>
    public static Figure? SampledTime(MethodCost method)
    {
        ArgumentNullException.ThrowIfNull(method);
        return Figure.Sum([method.CpuMilliseconds, method.WaitMilliseconds]);
    }

    /// <summary>At 95 % confidence, a Poisson count that saw nothing stands for fewer than ln 20 ≈ 3 events.</summary>
    private const double ZeroCountUpperBound = 3.0;

    /// <summary>
    /// Bytes allocated by all user async methods: the sum of their estimates (bounds in quadrature). When an allocation pass
    /// sampled none of them, zero, with the bound of a count that saw nothing: fewer than 3 samples' worth (~300 KB), which is
    /// not the same as "none". Null without an allocation pass.
    /// </summary>
    public static Figure? AsyncMethodBytes(AsyncCostReport report)
    {
        ArgumentNullException.ThrowIfNull(report);
        return Figure.Sum(report.Methods.Select(m => m.Bytes)) ?? UnsampledBytes(report);
    }

    /// <summary>The bytes of code the allocation pass drew no sample from: zero, with the bound of a count that saw nothing
    /// (fewer than 3 samples' worth, ~300 KB over the pass). Null without an allocation pass.</summary>
    public static Figure? UnsampledBytes(AsyncCostReport report)
    {
        ArgumentNullException.ThrowIfNull(report);
        return report.Passes.Any(p => p.AllocationEvent is not null)
            ? new Figure { Value = 0, ErrorBound = ZeroCountUpperBound / Events.KnownEvents.AllocationSamplingProbability, Sampled = true, Source = FigureSource.AllocationPass }
            : null;
    }
}

/// <summary>How a figure was obtained.</summary>
public enum FigureKind
{
    /// <summary>Every event was counted: the figure is exact for what was recorded.</summary>
    Exact,

    /// <summary>Estimated from samples (or scaled from windows): read it with its error bound.</summary>
    Estimate,
}

/// <summary>The kind of allocation an async method caused.</summary>
public enum AllocationKind
{
    /// <summary>The heap box of the state machine (allocated on the first await that suspends).</summary>
    StateMachineBox,

    /// <summary>A Task/Task&lt;T&gt; result object (e.g. a synchronously completed method with an uncached result).</summary>
    Task,

    /// <summary>A closure (compiler display class) capturing locals or parameters.</summary>
    Closure,

    /// <summary>A delegate.</summary>
    Delegate,

    /// <summary>Anything else attributed to the method.</summary>
    Other,

    /// <summary>The state machine object itself, when the compiler made it a class: in a Debug build (one per call, beside
    /// its box or task) and for an async iterator (the enumerator, one per enumeration). Not a call count.</summary>
    StateMachine,
}

/// <summary>Sampled allocations of one type.</summary>
public sealed class TypeAllocation
{
    /// <summary>The runtime type name as the event reported it.</summary>
    public required string TypeName { get; init; }

    /// <summary>What the type is for the async method (box, task, closure...).</summary>
    public AllocationKind Kind { get; init; }

    /// <summary>Estimated bytes allocated.</summary>
    public required Figure Bytes { get; init; }

    /// <summary>Estimated objects allocated.</summary>
    public required Figure Objects { get; init; }

    /// <summary>For an unattributed Task&lt;T&gt;: the join keys of the async methods returning that type, any of which may have
    /// allocated it (the trace cannot tell them apart); empty otherwise.</summary>
    public IReadOnlyList<string> CandidateMethods { get; init; } = [];
}

/// <summary>Sampled allocations made by one method that is not async (a plain method, a lambda, an iterator's caller),
/// read from the allocation samples' stacks: never an async method's row.</summary>
public sealed class PlainMethodAllocations
{
    /// <summary>The method as its stack frame names it ("Ns.Type.Method", nested types joined with '+', no signature).</summary>
    public required string Method { get; init; }

    /// <summary>Estimated bytes it allocated (its own frame innermost among the application's).</summary>
    public required Figure Bytes { get; init; }

    /// <summary>Estimated objects it allocated.</summary>
    public required Figure Objects { get; init; }

    /// <summary>The allocated types behind <see cref="Bytes"/>, largest first.</summary>
    public IReadOnlyList<TypeAllocation> Allocations { get; init; } = [];
}

/// <summary>Costs of one user async method, async local function or async lambda.</summary>
public sealed class MethodCost
{
    /// <summary>The join key: namespace-qualified, nested types joined with '.', no generic arguments or arity (e.g. "Ns.Outer.Inner.GetAsync").
    /// An async local function adds its name ("Ns.Program.Main.Local"), an async lambda "lambda#k" with k the compiler's lambda ordinal
    /// within the member ("Ns.Program.Main.lambda#2"). Matches the analyzer's SARIF property "AsyncCostMethod".</summary>
    [Description(MethodKeyDescription)]
    public required string MethodKey { get; init; }

    /// <summary>The key's definition, as the JSON schema states it.</summary>
    public const string MethodKeyDescription =
        "Join key shared with the AsyncCost analyzers (SARIF result property 'AsyncCostMethod'): Namespace.Outer.Inner.Member, no generic arity or arguments "
        + "(property accessors get_X/set_X, top-level statements <Main>$). An async local function adds '.Name' (Ns.Program.Main.Local); an async lambda adds "
        + "'.lambda#k', k being the compiler's lambda ordinal within the member (the k in the generated name <Main>b__0_k). An analyzer key ending in '.lambda' "
        + "(ordinal not knowable from source) joins all of that member's lambdas.";

    /// <summary>A readable name for display (e.g. "Ns.Cache&lt;T&gt;.GetAsync", "Ns.Program.Main.Local").</summary>
    public required string DisplayName { get; init; }

    /// <summary>The assembly holding the method (file name without extension, e.g. "System.Net.Http"), when the trace's
    /// method and module events tell; null when they do not (a trace without method rundown, an in-process session).</summary>
    public string? Assembly { get; init; }

    /// <summary>Whether the method is the application's own code or the framework's or a library's (see <see cref="MethodOrigin"/>).</summary>
    public MethodOrigin Origin { get; init; }

    /// <summary>Calls of the method, on the report's <see cref="AsyncCostReport.RowBasis"/>, so that calls × <see cref="BytesPerCall"/>
    /// = <see cref="Bytes"/> within their bounds. On one run (a launched command), the hop pass's exact count where it saw
    /// every call (a continuous pass that lost no events saw every box created, and the allocation pass saw none of its
    /// calls complete synchronously, which the hop pass cannot count). Otherwise, and always when the passes recorded
    /// different slices of time (attached), the allocation pass's estimate (<see cref="SampledCalls"/>), or the hop pass's
    /// count when no call was sampled; null when no pass could count them. Calls that complete synchronously without
    /// allocating are invisible to EventPipe. An async iterator's calls are its MoveNextAsync calls that suspended (its
    /// estimate is the allocation pass's boxes times the hop pass's calls per box; null without a hop pass).</summary>
    [Description("Calls of the method on the report's rowBasis, so that calls x bytesPerCall = bytes within their bounds: on 'run', exact (kind 'exact') when the hop pass counted every one of them; else the allocation pass's estimate (kind 'estimate', see errorBound); null when no pass could count them (calls that completed synchronously without allocating a box or task): not observable, never 0.")]
    public Figure? Calls { get; init; }

    /// <summary>Calls estimated from the allocation samples of the method's boxes and result tasks (one per call), the
    /// denominator of <see cref="BytesPerCall"/> and <see cref="ObjectsPerCall"/>; null without an allocation pass.</summary>
    public Figure? SampledCalls { get; init; }

    /// <summary>Calls that suspended, counted exactly from box creations in the hop pass (TraceOperationBegin); null without a hop pass.</summary>
    public Figure? SuspendingCalls { get; init; }

    /// <summary>Estimated bytes allocated by the method's async machinery (allocation pass), null when that pass did not run.
    /// On one run whose calls the hop pass counted, <see cref="BytesPerCall"/> times those calls (the ratio estimator of a total
    /// whose calls are known, with its narrower bound).</summary>
    public Figure? Bytes { get; init; }

    /// <summary>Estimated objects allocated (allocation pass), null when that pass did not run.</summary>
    public Figure? Objects { get; init; }

    /// <summary>Thread-pool hops: continuations of this method queued to the pool (hop pass), null when that pass did not run.</summary>
    public Figure? Hops { get; init; }

    /// <summary>Blocking waits this method made: Wait, Result or GetAwaiter().GetResult() on an incomplete task while it ran
    /// (TaskWaitBegin with a synchronous wait, on the thread it had resumed on; hop pass), null when that pass did not run.</summary>
    public Figure? BlockingWaits { get; init; }

    /// <summary>Milliseconds its blocking waits held their threads (hop pass), null when that pass did not run.</summary>
    public Figure? BlockedMilliseconds { get; init; }

    /// <summary>The longest single blocking wait (hop pass), in milliseconds: a time resting on the waits leaves it out of what
    /// it can prove (<c>FindingTime</c>). Null without a hop pass or when the method made no blocking wait.</summary>
    [Description("The longest single blocking wait the hop pass saw the method make, in milliseconds; null without one.")]
    public double? LongestBlockedMilliseconds { get; init; }

    /// <summary>Milliseconds threads spent in the method (its own code and the synchronous code it calls, up to the next
    /// async method) and not blocked in a wait: stack samples of the CPU pass times their interval, an estimate. A thread
    /// the OS had not scheduled counts too (the profiler samples threads, not CPUs). Calls that complete synchronously
    /// without allocating are seen here and nowhere else. Null without a CPU pass.</summary>
    [Description("Milliseconds threads spent in the method and not blocked in a wait (CPU pass: stack samples x their interval; an estimate, see errorBound).")]
    public Figure? CpuMilliseconds { get; init; }

    /// <summary>Milliseconds threads spent in the method blocked in a wait it made: Monitor, WaitHandle, ManualResetEventSlim,
    /// SemaphoreSlim, Task.Wait/Result/GetResult, Thread.Sleep/Join (CPU pass), null without one.</summary>
    [Description("Milliseconds threads spent in the method blocked in a wait it made: Monitor, WaitHandle, Task.Wait/Result/GetResult... (CPU pass; an estimate).")]
    public Figure? WaitMilliseconds { get; init; }

    /// <summary>Bytes per call: <see cref="Bytes"/> over <see cref="SampledCalls"/>, both from the same samples, so its bound
    /// is the ratio estimator's, usually far narrower than either's; null without sampled calls.</summary>
    public Figure? BytesPerCall { get; init; }

    /// <summary>Objects per call, as <see cref="BytesPerCall"/>.</summary>
    public Figure? ObjectsPerCall { get; init; }

    /// <summary>Hops per suspending call (both from the hop pass, counted in the same windows, so exact), when it had any.</summary>
    public Figure? HopsPerCall { get; init; }

    /// <summary>
    /// Milliseconds callers waited on this method's calls that suspended, summed: each call from when it was called (its
    /// synchronous first segment included, from the thread's previous TPL event: <see cref="Computers.HopComputer"/>) to its
    /// completion (TraceOperationEnd). On the hop pass's basis, like <see cref="Hops"/>: <see cref="SuspendingCalls"/> ×
    /// <see cref="ElapsedPerCallMilliseconds"/>, exact when every call was timed, else an estimate (calls pending at a
    /// window's edge, or between windows, at the timed calls' mean). Null when no call was timed (a method that never
    /// suspended: what its callers waited no hop-pass event tells), without a hop pass, and for an async iterator (its box
    /// spans an enumeration, not a call).
    /// </summary>
    [Description("Milliseconds callers waited on the method's suspending calls, summed (hop pass: from the call, its synchronous first segment included, to its completion): suspendingCalls x elapsedPerCallMilliseconds, exact when every call was timed, else an estimate (see errorBound). Null (not observable) when no call was timed, a method that never suspended included, without a hop pass, and for an async iterator.")]
    public Figure? ElapsedMilliseconds { get; init; }

    /// <summary>
    /// Mean milliseconds from a suspending call's start (its synchronous first segment included) to its completion, over the
    /// calls that both began and
    /// completed inside one stream of the hop pass (a window, or the whole recording), ± the 95 % Student-t interval from the
    /// calls' own spread (wide for few calls; one call's bound is its value). Calls pending at a window's edge are not
    /// timed, and the longer a call the likelier it straddles an edge: where calls last a sizeable part of a window the mean
    /// is low (warning <c>elapsed-pending</c>); the bound then also reaches the mean that counts each pending call at what it
    /// had lasted when its stream ended. Null when no suspending call completed inside the recording.
    /// </summary>
    [Description("Mean milliseconds from a suspending call's start to its completion (hop pass), its synchronous first segment included (timed from the thread's previous TPL event), over the calls timed inside the recording, with a 95 % Student-t bound from their spread. Null (not observable) when no call was timed, a method that never suspended included.")]
    public Figure? ElapsedPerCallMilliseconds { get; init; }

    /// <summary>The timed calls' elapsed time as a distribution: <see cref="ElapsedPerCallMilliseconds"/> as its mean, beside
    /// the 50th, 90th and 99th percentiles with their 95 % intervals and the calls behind them (scaled like the mean in a
    /// windowed hop pass); null when the mean is.</summary>
    [Description("The timed calls' elapsed time as a distribution: mean (elapsedPerCallMilliseconds) beside p50, p90 and p99 with their 95 % distribution-free intervals and the calls timed (samples); null when no call was timed.")]
    public TimeDistribution? ElapsedDistribution { get; init; }

    /// <summary>This method's share of all attributed async allocation bytes (0..1), null without an allocation pass.</summary>
    public double? ShareOfAsyncBytes { get; init; }

    /// <summary>The allocated types behind <see cref="Bytes"/>, largest first.</summary>
    public IReadOnlyList<TypeAllocation> Allocations { get; init; } = [];

    /// <summary>The callees this method awaited one after another (hop pass), most time first: its branches of the async
    /// call tree, with what running each run of them together would save.</summary>
    [Description("The callees this method awaited one after another (hop pass), most time first: its branches of the async call tree, with what running each run of them together would save. Empty without a hop pass.")]
    public IReadOnlyList<AwaitedCall> AwaitedCalls { get; init; } = [];

    /// <summary>Several rows as one (the lambdas of one member, the methods of one assembly): counts and bytes add, and so do
    /// the variances of independent sampled estimates (error bounds add in quadrature); per-call figures are the sums' ratios.</summary>
    public static MethodCost Combine(IReadOnlyList<MethodCost> rows, string key, string displayName)
    {
        ArgumentNullException.ThrowIfNull(rows);
        var sampledCalls = Figure.Sum(rows.Select(m => m.SampledCalls));
        var suspendingCalls = Figure.Sum(rows.Select(m => m.SuspendingCalls));
        var bytes = Figure.Sum(rows.Select(m => m.Bytes));
        var objects = Figure.Sum(rows.Select(m => m.Objects));
        var hops = Figure.Sum(rows.Select(m => m.Hops));
        // A sum of calls or a ratio over them holds only when every row has them: one row whose calls no pass could count
        // (completed synchronously, allocating no box or task) makes the group's calls not observable, not a partial count
        // that its bytes would be divided by.
        var callsKnown = rows.All(m => m.Calls is not null);
        var sampledCallsCover = rows.All(m => m.Bytes is null || m.SampledCalls is not null);
        return new()
        {
            MethodKey = key,
            DisplayName = displayName,
            Assembly = rows.Select(m => m.Assembly).Distinct().Count() == 1 ? rows[0].Assembly : null,
            Origin = rows.Count > 0 ? rows[0].Origin : MethodOrigin.User,
            Calls = callsKnown ? Figure.Sum(rows.Select(m => m.Calls)) : null,
            SampledCalls = sampledCalls,
            SuspendingCalls = suspendingCalls,
            Bytes = bytes,
            Objects = objects,
            BytesPerCall = sampledCallsCover ? Figure.Ratio(bytes, sampledCalls) : null,
            ObjectsPerCall = sampledCallsCover ? Figure.Ratio(objects, sampledCalls) : null,
            Hops = hops,
            HopsPerCall = Figure.Ratio(hops, suspendingCalls),
            BlockingWaits = Figure.Sum(rows.Select(m => m.BlockingWaits)),
            BlockedMilliseconds = Figure.Sum(rows.Select(m => m.BlockedMilliseconds)),
            LongestBlockedMilliseconds = rows.Max(m => m.LongestBlockedMilliseconds),
            ElapsedMilliseconds = Figure.Sum(rows.Select(m => m.ElapsedMilliseconds)),
            ElapsedPerCallMilliseconds = ElapsedTime.PerCallOf(rows.Select(m => (m.ElapsedPerCallMilliseconds, m.SuspendingCalls))),
            // Percentiles of rows timed apart do not combine from their own: one row's distribution, or none.
            ElapsedDistribution = rows.Count == 1 ? rows[0].ElapsedDistribution : null,
            CpuMilliseconds = Figure.Sum(rows.Select(m => m.CpuMilliseconds)),
            WaitMilliseconds = Figure.Sum(rows.Select(m => m.WaitMilliseconds)),
            ShareOfAsyncBytes = rows.Any(m => m.ShareOfAsyncBytes is not null) ? rows.Sum(m => m.ShareOfAsyncBytes ?? 0) : null,
            Allocations = [.. rows.SelectMany(m => m.Allocations)],
            AwaitedCalls = [.. rows.SelectMany(m => m.AwaitedCalls)],
        };
    }
}

/// <summary>
/// A callee a method called, from the hop pass: a branch of the async call tree. The awaiting call's box named in the callee's
/// TaskWaitBegin links a call it awaited directly to it; a call made while its box ran and not awaited directly by any box
/// (Task.WhenAll, a task kept for later) was started by it. A run is the calls awaited one after another with no other
/// suspension of the caller between them (one execution of the loop that made them); a group, the calls started in one
/// run of the caller's thread, which ran together. Only timed calls count.
/// </summary>
public sealed class AwaitedCall
{
    /// <summary>The callee's join key.</summary>
    public required string MethodKey { get; init; }

    /// <summary>The callee's name as printed.</summary>
    public required string DisplayName { get; init; }

    /// <summary>Runs (loop executions) on the hop pass's basis, like its calls: exact in a continuous pass, else scaled.</summary>
    [Description("Runs of the callee's calls awaited one after another (each an execution of the loop that made them), on the hop pass's basis.")]
    public required Figure Runs { get; init; }

    /// <summary>Groups of the callee's calls started together, on the hop pass's basis.</summary>
    [Description("Groups of the callee's calls started together in one run of the caller (Task.WhenAll), on the hop pass's basis.")]
    public required Figure Groups { get; init; }

    /// <summary>The mean number of the callee's timed calls in a group.</summary>
    [Description("The mean number of the callee's timed calls in a group started together.")]
    public double CallsPerGroup { get; init; }

    /// <summary>Milliseconds from each group's first call's start to its last call's end, the mean per group times the groups:
    /// what the caller waited on the calls it ran together.</summary>
    [Description("Milliseconds from each group's first call's start to its last call's end (what the caller waited on the calls it ran together): the mean per group times the groups. Null without groups.")]
    public Figure? TogetherMilliseconds { get; init; }

    /// <summary>What the caller waited on the callee's calls in all: one after another, and together.</summary>
    [Description("Milliseconds the caller waited on the callee's calls in all: sequentialMilliseconds + togetherMilliseconds.")]
    public required Figure WaitedMilliseconds { get; init; }

    /// <summary>The mean number of the callee's timed calls in a run.</summary>
    [Description("The mean number of the callee's timed calls in a run.")]
    public double CallsPerRun { get; init; }

    /// <summary>Milliseconds the caller waited on those calls, one after another, over its runs: the mean per run (scaled like
    /// elapsed time) times the runs.</summary>
    [Description("Milliseconds the caller waited on the callee's calls one after another over the runs (their elapsed time): the mean per run times the runs. Null without runs.")]
    public Figure? SequentialMilliseconds { get; init; }

    /// <summary>Per run, its calls' elapsed time less the longest of them: what running the run's calls together would have
    /// saved, each taking as long as it did. The mean per run with its Student-t bound from the runs' spread.</summary>
    [Description("Per run, the calls' elapsed time less the longest of them (what running them together would save, each taking as long as it did): the mean per run, with a 95 % Student-t bound from the runs' spread.")]
    public Figure? SavingIfTogetherPerRunMilliseconds { get; init; }

    /// <summary><see cref="SavingIfTogetherPerRunMilliseconds"/> × <see cref="Runs"/>: the predicted saving over the recording,
    /// its bound the mean's bound times the runs (what another run of the same work would save, not only this one's sum).</summary>
    [Description("The predicted saving over the recording: the mean per run times the runs, its bound the mean's bound times the runs.")]
    public Figure? SavingIfTogetherMilliseconds { get; init; }

    /// <summary>Per run, the calls' elapsed time less their mean: the saving had the calls, run together, finished together
    /// (latencies that move as one). With <see cref="SavingIfTogetherMilliseconds"/> it bounds the prediction: a sequential
    /// trace cannot tell how the calls' latencies would overlap.</summary>
    [Description("Per run, the calls' elapsed time less their mean (what running them together saves if they finish together): the mean per run times the runs, its bound the mean's bound times the runs. With savingIfTogetherMilliseconds it bounds the prediction.")]
    public Figure? SavingIfOverlappingMilliseconds { get; init; }
}

/// <summary>Whose code an async method is: reports show the application's own methods first and group the rest by assembly.</summary>
public enum MethodOrigin
{
    /// <summary>The application's own code: any assembly that is neither in the runtime's shared framework directory nor named System.* or Microsoft.*.</summary>
    User,

    /// <summary>The framework or a library: an assembly loaded from the runtime's shared framework directory (System.*, Kestrel,
    /// HttpClient), or named System.* or Microsoft.* (the framework's NuGet packages); without module events, a type in a System or Microsoft namespace.</summary>
    Framework,
}

/// <summary>Whole-process figures for the session.</summary>
public sealed class ProcessTotals
{
    /// <summary>Bytes allocated by the whole process (System.Runtime alloc-rate summed, or the sampled estimate when counters are missing).</summary>
    public Figure? AllocatedBytes { get; init; }

    /// <summary>Thread-pool work items completed (System.Runtime threadpool-completed-items-count summed).</summary>
    public Figure? CompletedWorkItems { get; init; }

    /// <summary>Monitor lock contentions (System.Runtime monitor-lock-contention-count summed).</summary>
    public Figure? LockContentions { get; init; }

    /// <summary>Largest thread-pool queue length seen.</summary>
    public double? MaxThreadPoolQueueLength { get; init; }

    /// <summary>Largest thread-pool thread count seen.</summary>
    public double? MaxThreadPoolThreads { get; init; }

    /// <summary>Voluntary context switches over all threads (blocking: waits, sleeps, I/O): a count that moves with the
    /// machine's load (a thread that spins before blocking blocks less on idle cores), not a cost with a bound.</summary>
    [Description("Voluntary context switches over all threads (/proc): a count that moves with the machine's load, not a cost with an error bound.")]
    public long? VoluntaryContextSwitches { get; init; }

    /// <summary>Involuntary context switches over all threads (preemption): they move with the machine's load.</summary>
    [Description("Involuntary context switches over all threads (/proc, preemption): a count that moves with the machine's load, not a cost with an error bound.")]
    public long? InvoluntaryContextSwitches { get; init; }

    /// <summary>Thread-pool continuations queued (hop pass), all methods together.</summary>
    public Figure? Hops { get; init; }
}

/// <summary>Context switches of one OS thread over the session.</summary>
public sealed class ThreadSwitches
{
    /// <summary>The OS thread id (Linux TID; equals the EventPipe thread id on Linux).</summary>
    public int ThreadId { get; init; }

    /// <summary>The thread name (/proc comm, cut to 15 bytes by the kernel).</summary>
    public string Name { get; init; } = "";

    /// <summary>A coarse class for grouping: "main", "threadpool", "gc", "runtime", "other".</summary>
    public string ThreadClass { get; init; } = "other";

    /// <summary>Voluntary switches (the thread blocked).</summary>
    public long Voluntary { get; init; }

    /// <summary>Involuntary switches (the thread was preempted).</summary>
    public long Involuntary { get; init; }

    /// <summary>True when the thread exited during the session (figures are its last seen values).</summary>
    public bool Exited { get; init; }
}

/// <summary>Something the reader of a report should know.</summary>
/// <param name="Code">A stable identifier, e.g. "allocation-fallback", "low-samples", "tpl-observer-effect".</param>
/// <param name="Message">One readable sentence.</param>
public sealed record ReportWarning(string Code, string Message);
