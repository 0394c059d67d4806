using AsyncCost.Attribution;
using AsyncCost.Report;

namespace AsyncCost.Testing;

/// <summary>What a measured operation cost, per operation and per async method (see <see cref="AsyncCostMeasurement"/>).</summary>
public sealed class MeasuredCost
{
    internal MeasuredCost(AsyncCostReport report, long operations, long allocationOperations, double bytesCeiling, bool bytesCeilingIsThreadCount,
        IReadOnlySet<string> declaredMethods)
    {
        _declaredMethods = declaredMethods;
        Report = report;
        Operations = operations;
        AllocationOperations = allocationOperations;
        BytesCeilingPerOperation = bytesCeiling;
        BytesCeilingIsThreadCount = bytesCeilingIsThreadCount;
        Methods = [.. report.Methods.Select(PerOperation)];
    }

    /// <summary>The join keys of every method the process's own assemblies declare: a name among none of them is misspelt.</summary>
    private readonly IReadOnlySet<string> _declaredMethods;

    /// <summary>The report of the allocation and hop passes, as the CLI builds it: totals over each pass's operations.</summary>
    public AsyncCostReport Report { get; }

    /// <summary>Operations run by the hop pass and by each of the exact pass's two runs.</summary>
    public long Operations { get; }

    /// <summary>Operations run by the allocation pass (enough for about 1,000 samples, within the limits); 0 when the exact pass
    /// counted no byte at all, so no method can have allocated one.</summary>
    public long AllocationOperations { get; }

    /// <summary>Bytes allocated per operation by the GC's exact count: by the calling thread when every operation completed
    /// synchronously (see <see cref="BytesCeilingIsThreadCount"/>), by the whole process otherwise (then tests running in
    /// parallel add theirs). No method's bytes per operation exceed it.</summary>
    public double BytesCeilingPerOperation { get; }

    /// <summary>True when <see cref="BytesCeilingPerOperation"/> is the calling thread's count, unaffected by other threads.</summary>
    public bool BytesCeilingIsThreadCount { get; }

    /// <summary>Every async method the passes saw, per operation.</summary>
    public IReadOnlyList<MethodCostPerOperation> Methods { get; }

    /// <summary>One method's figures per operation, by method key ("Ns.Type.Method", as the analyzer's SARIF names it) or display
    /// name. A method of the process's assemblies that the passes never saw cost nothing they could see: 0 hops and waits
    /// (every event was counted), and 0 bytes within the bound of a sample that was never drawn.</summary>
    /// <exception cref="AsyncCostBudgetException">No method is called so, in the passes or in the process's assemblies: the
    /// message says "no such method" and gives the nearest names, so a misspelt budget fails instead of passing.</exception>
    public MethodCostPerOperation Method(string method)
    {
        ArgumentNullException.ThrowIfNull(method);
        return Methods.FirstOrDefault(m => m.MethodKey == method)
            ?? Methods.FirstOrDefault(m => m.DisplayName == method)
            ?? (_declaredMethods.Contains(method) ? Unseen(method) : throw new AsyncCostBudgetException(NoSuchMethod(method)));
    }

    /// <summary>Why a name is no method: none of the measured rows nor of the assemblies' methods has it; the nearest do.</summary>
    private string NoSuchMethod(string method)
    {
        var nearest = NearestNames.Of(method, Methods.Select(m => m.MethodKey).Concat(_declaredMethods));
        return $"AsyncCost budget: no such method {method}: no async method the passes saw and no method of this process's assemblies has that key "
            + "(Namespace.Type.Method, nested types joined with '.', as the analyzer's SARIF names it)"
            + (nearest.Count > 0 ? $". Nearest: {string.Join(", ", nearest)}." : ".");
    }

    /// <summary>Throws <see cref="AsyncCostBudgetException"/> naming the method, the figure, its bound and the budget when any
    /// figure of <paramref name="budget"/> is over it beyond its bound, or when the bound is too wide to tell.</summary>
    public void AssertWithin(string method, MethodBudget budget)
    {
        ArgumentNullException.ThrowIfNull(budget);
        var row = Method(method);
        var failures = budget.Check(row, this).ToList();
        if (failures.Count > 0)
        {
            throw new AsyncCostBudgetException(string.Join(Environment.NewLine, failures));
        }
    }

    private MethodCostPerOperation PerOperation(MethodCost method) => new()
    {
        MethodKey = method.MethodKey,
        DisplayName = method.DisplayName,
        Bytes = method.Bytes is { } bytes ? bytes.Per(AllocationOperations) : UnsampledBytes(),
        SharedTaskBytes = SharedTaskBytes(method.MethodKey),
        StateMachines = Figure.Sum(method.Allocations.Where(a => a.Kind is AllocationKind.StateMachineBox).Select(a => a.Objects))?.Per(AllocationOperations)
            ?? Figure.Exact(0, FigureSource.AllocationPass),
        Hops = (method.Hops ?? Figure.Exact(0, FigureSource.HopPass)).Per(Operations),
        BlockingWaits = (method.BlockingWaits ?? Figure.Exact(0, FigureSource.HopPass)).Per(Operations),
        SuspendingCalls = (method.SuspendingCalls ?? Figure.Exact(0, FigureSource.HopPass)).Per(Operations),
    };

    private MethodCostPerOperation Unseen(string method) => new()
    {
        MethodKey = method,
        DisplayName = method,
        Bytes = UnsampledBytes(),
        SharedTaskBytes = SharedTaskBytes(method),
        StateMachines = Figure.Exact(0, FigureSource.AllocationPass),
        Hops = Figure.Exact(0, FigureSource.HopPass),
        BlockingWaits = Figure.Exact(0, FigureSource.HopPass),
        SuspendingCalls = Figure.Exact(0, FigureSource.HopPass),
    };

    /// <summary>The Task&lt;T&gt; objects left unattributed because this method and others return that type: the method may have
    /// allocated any part of them.</summary>
    private Figure SharedTaskBytes(string methodKey) =>
        Figure.Sum(Report.UnattributedAllocations.Where(a => a.CandidateMethods.Contains(methodKey)).Select(a => a.Bytes))?.Per(AllocationOperations)
            ?? Figure.Exact(0, FigureSource.AllocationPass);

    /// <summary>A method without a sample: 0 bytes, up to what would go unsampled 95 % of the time (−ln 0.05 / p bytes over
    /// the pass, about 300 KB). Exact 0 when the exact pass counted no byte.</summary>
    private Figure UnsampledBytes() => AllocationOperations == 0
        ? Figure.Exact(0, FigureSource.AllocationPass)
        : new Figure { Value = 0, ErrorBound = -Math.Log(1 - Figure.ConfidenceLevel) / Events.KnownEvents.AllocationSamplingProbability / AllocationOperations, Sampled = true, Source = FigureSource.AllocationPass };
}

/// <summary>One async method's figures per operation of a measurement; each says whether it is exact or an estimate with its
/// bound (95 %).</summary>
public sealed record MethodCostPerOperation
{
    /// <summary>The method key ("Ns.Type.Method").</summary>
    public required string MethodKey { get; init; }

    /// <summary>A readable name.</summary>
    public required string DisplayName { get; init; }

    /// <summary>Bytes the method allocated per operation (its boxes, tasks, closures, delegates): sampled, with its bound.</summary>
    public required Figure Bytes { get; init; }

    /// <summary>Bytes per operation of Task&lt;T&gt; objects that several async methods return, this one among them, so the samples
    /// could not charge them to one (see the report's task-ambiguous warning): the method allocated between none and all of
    /// them, and a budget check counts them against it. 0 when its result type is its own.</summary>
    public required Figure SharedTaskBytes { get; init; }

    /// <summary>State-machine boxes it allocated per operation (calls that suspended and went to the heap): sampled.</summary>
    public required Figure StateMachines { get; init; }

    /// <summary>Thread-pool hops of its resumptions per operation: exact (every event counted).</summary>
    public required Figure Hops { get; init; }

    /// <summary>Blocking waits it made per operation (.Result, .Wait(), GetAwaiter().GetResult() on an incomplete task, while it
    /// ran after resuming; a wait before its first suspension is its caller's): exact.</summary>
    public required Figure BlockingWaits { get; init; }

    /// <summary>Calls that suspended, per operation: exact.</summary>
    public required Figure SuspendingCalls { get; init; }
}
