using System.ComponentModel;

namespace AsyncCost.Report;

/// <summary>
/// One measured quantity: a value, its error bound (half-width of a ~95 % interval; 0 for exact counts),
/// the number of events behind it, and the pass it came from.
/// </summary>
public sealed record Figure
{
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

    /// <summary>Relative error bound (ErrorBound / Value), 0 when the value is 0.</summary>
    public double RelativeError => Value == 0 ? 0 : ErrorBound / Value;

    /// <summary>An exact count.</summary>
    public static Figure Exact(double value, FigureSource source) => new() { Value = value, Samples = (long)value, Source = source };
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

    /// <summary>Calls seen: suspending calls counted from state-machine boxes (allocation pass) or box creations (hop pass),
    /// null when no pass could count them. Calls that complete synchronously without allocating are invisible to EventPipe.</summary>
    public Figure? Calls { get; init; }

    /// <summary>Calls that suspended, counted exactly from box creations in the hop pass (TraceOperationBegin); null without a hop pass.</summary>
    public Figure? SuspendingCalls { get; init; }

    /// <summary>Estimated bytes allocated by the method's async machinery (allocation pass), null when that pass did not run.</summary>
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

    /// <summary>Bytes per call, when bytes and calls come from the same pass and calls &gt; 0.</summary>
    public double? BytesPerCall => Bytes is not null && Calls is { Value: > 0 } && Calls.Source == Bytes.Source ? Bytes.Value / Calls.Value : null;

    /// <summary>Objects per call, when objects and calls come from the same pass and calls &gt; 0.</summary>
    public double? ObjectsPerCall => Objects is not null && Calls is { Value: > 0 } && Calls.Source == Objects.Source ? Objects.Value / Calls.Value : null;

    /// <summary>Hops per suspending call (both from the hop pass), when it had any.</summary>
    public double? HopsPerCall => Hops is not null && SuspendingCalls is { Value: > 0 } ? Hops.Value / SuspendingCalls.Value : null;

    /// <summary>This method's share of all attributed async allocation bytes (0..1), null without an allocation pass.</summary>
    public double? ShareOfAsyncBytes { get; init; }

    /// <summary>The allocated types behind <see cref="Bytes"/>, largest first.</summary>
    public IReadOnlyList<TypeAllocation> Allocations { get; init; } = [];

    /// <summary>Several rows as one (the lambdas of one member, the methods of one assembly): counts and bytes add, and so do
    /// the variances of independent sampled estimates (error bounds add in quadrature).</summary>
    public static MethodCost Combine(IReadOnlyList<MethodCost> rows, string key, string displayName)
    {
        ArgumentNullException.ThrowIfNull(rows);
        return new()
        {
            MethodKey = key,
            DisplayName = displayName,
            Assembly = rows.Select(m => m.Assembly).Distinct().Count() == 1 ? rows[0].Assembly : null,
            Origin = rows.Count > 0 ? rows[0].Origin : MethodOrigin.User,
            Calls = rows.Select(m => m.Calls).Aggregate(Add),
            SuspendingCalls = rows.Select(m => m.SuspendingCalls).Aggregate(Add),
            Bytes = rows.Select(m => m.Bytes).Aggregate(Add),
            Objects = rows.Select(m => m.Objects).Aggregate(Add),
            Hops = rows.Select(m => m.Hops).Aggregate(Add),
            BlockingWaits = rows.Select(m => m.BlockingWaits).Aggregate(Add),
            BlockedMilliseconds = rows.Select(m => m.BlockedMilliseconds).Aggregate(Add),
            ShareOfAsyncBytes = rows.Any(m => m.ShareOfAsyncBytes is not null) ? rows.Sum(m => m.ShareOfAsyncBytes ?? 0) : null,
            Allocations = [.. rows.SelectMany(m => m.Allocations)],
        };
    }

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

    /// <summary>Voluntary context switches over all threads (blocking: waits, sleeps, I/O).</summary>
    public long? VoluntaryContextSwitches { get; init; }

    /// <summary>Involuntary context switches over all threads (preemption).</summary>
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
