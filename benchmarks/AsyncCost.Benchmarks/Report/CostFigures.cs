namespace AsyncCost.Benchmarks.Report;

/// <summary>
/// The figures the analyzer quotes, each derived from one named benchmark row (the same derivations the seeds use:
/// a suspending await = the "_Await" sync-over-async row minus its synchronous twin, and so on).
/// </summary>
public sealed class CostFigures
{
    public const string StockPrices = "StockPricesBenchmarks";
    public const string ContextSwitches = "ContextSwitchBenchmarks";
    public const string WaiterMemory = "WaiterMemoryBenchmarks";

    /// <summary>Name (a CostModel constant) → (value, unit kind, how it was derived).</summary>
    public IReadOnlyList<CostFigure> All { get; }

    public IEnumerable<string> Missing => All.Where(f => f.Value is null).Select(f => f.Name);

    public bool IsComplete => All.All(f => f.Value is not null);

    private CostFigures(IReadOnlyList<CostFigure> all) => All = all;

    public CostFigure this[string name] => All.Single(f => f.Name == name);

    public static CostFigures From(BenchmarkExports exports)
    {
        double? Allocated(string type, string method, params string[] parameters) =>
            exports.Find(type, method, null, parameters)?.AllocatedBytesPerOperation;
        double? Mean(string type, string method, params string[] parameters) =>
            exports.Find(type, method, null, parameters)?.MeanMicroseconds;
        double? Difference(double? a, double? b) => a is { } x && b is { } y ? x - y : null;

        var blocked = exports.Find(WaiterMemory, "BlockedThreads", null, "Waiters=131072");
        var pending = exports.Find(WaiterMemory, "PendingAwaits", null, "Waiters=131072");
        return new CostFigures(
        [
            new("SuspendingAwaitBytes", CostUnit.Bytes,
                Difference(Allocated(StockPrices, "GetStockPriceFor_Await"), Allocated(StockPrices, "GetStockPriceFor")),
                "Heap bytes of one await that suspends (Task.Yield) in an async Task method, sync-over-async: StockPricesBenchmarks GetStockPriceFor_Await − GetStockPriceFor, Allocated."),
            new("ThreadPoolHop", CostUnit.Microseconds,
                Mean(ContextSwitches, "AsyncWithYield", "WorkIterations=0"),
                "Time of one thread-pool hop (await Task.Yield) per unit: ContextSwitchBenchmarks 'Async w/ yield', 0 iterations of work, Mean."),
            new("CompletedTaskBytes", CostUnit.Bytes,
                Difference(Allocated(StockPrices, "GetStockPriceForAsync"), Allocated(StockPrices, "GetStockPriceFor")),
                "Bytes of the Task<decimal> a synchronously completing async method allocates: StockPricesBenchmarks GetStockPriceForAsync − GetStockPriceFor, Allocated."),
            new("ThreadSwitch", CostUnit.Microseconds,
                Mean(ContextSwitches, "ThreadSwitches", "WorkIterations=0"),
                "Time of one blocking hand-off between threads (AutoResetEvent, Environment.ProcessorCount threads) per unit: ContextSwitchBenchmarks 'Thread switches', 0 iterations of work, Mean."),
            new("ClosureBytes", CostUnit.Bytes,
                Difference(Allocated(StockPrices, "GetStockPriceWithCapturingFastPath"), Allocated(StockPrices, "GetStockPriceWithFastPath")),
                "Bytes of the display class a capturing local function allocates on entry, fast path included: StockPricesBenchmarks GetStockPriceWithCapturingFastPath − GetStockPriceWithFastPath, Allocated."),
            new("SynchronousStateMachineTime", CostUnit.Microseconds,
                Difference(Mean(StockPrices, "GetStockPriceWithValueTaskAsync"), Mean(StockPrices, "GetStockPriceWithFastPath")),
                "Time of the async state machine of a method that completes without suspending (start it, await a completed task, set the result), what AC0003's fast path skips: StockPricesBenchmarks GetStockPriceWithValueTaskAsync − GetStockPriceWithFastPath, Mean."),
            new("BlockedThreadBytes", CostUnit.Bytes,
                blocked?.Metric("RssBytesPerWaiter"),
                "Resident memory of one blocked thread: WaiterMemoryBenchmarks 'Blocked threads' (2^17 requested, capped by the machine), RSS per waiter."),
            new("PendingAwaitBytes", CostUnit.Bytes,
                pending?.AllocatedBytesPerOperation is { } bytes ? bytes / Published.HandOff.Waiters : null,
                "Managed bytes of one pending await of a TaskCompletionSource (state-machine box + TaskCompletionSource + Task + array slots): WaiterMemoryBenchmarks 'Pending awaits' 2^17, Allocated / 2^17."),
        ]);
    }
}

public enum CostUnit
{
    Bytes,
    Microseconds,
}

/// <summary>One quoted figure: its CostModel constant name, value, unit and derivation.</summary>
public sealed record CostFigure(string Name, CostUnit Unit, double? Value, string Derivation)
{
    /// <summary>As the analyzer messages quote it: "~96 B", "~0.41 µs".</summary>
    public string Quoted => Value is not { } v ? "n/a"
        : Unit == CostUnit.Bytes ? Format.ApproximateBytes(v) : Format.ApproximateMicroseconds(v);
}
