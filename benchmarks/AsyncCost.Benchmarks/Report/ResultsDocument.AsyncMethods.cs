using System.Text;

namespace AsyncCost.Benchmarks.Report;

/// <summary>Seed 003: the performance characteristics of async methods (StockPrices).</summary>
public sealed partial class ResultsDocument
{
    private const string StockPricesType = "StockPricesBenchmarks";

    private static readonly string[] NewSinceRows =
    [
        "GetStockPriceWithFastPath", "GetStockPriceWithCapturingFastPath", "GetStockPricePoolingValueTaskAsync", "GetStockPricePoolingValueTaskAsync_Await",
    ];

    private void AsyncMethodsSection(StringBuilder text)
    {
        text.AppendLine("## 003 — The performance characteristics of async methods");
        text.AppendLine();
        text.AppendLine("Suite: `AsyncMethods/StockPricesBenchmarks`: the write-up's three tables in one run (each published table extends the previous");
        text.AppendLine("one around the same baseline, GetStockPriceFor), plus what is new since. Published on .NET Core 2.x-era hardware; the Scaled");
        text.AppendLine("(ratio to GetStockPriceFor) columns are the ones to compare across machines.");
        text.AppendLine();
        var baseline = main.Find(StockPricesType, "GetStockPriceFor");
        text.AppendLine("| table | method | Mean µs published | here | here ÷ published | within 2× | Scaled published | here | Allocated B published | here | why they differ |");
        text.AppendLine("| ---: | --- | ---: | ---: | ---: | :---: | ---: | ---: | ---: | ---: | --- |");
        foreach (var row in Published.StockPrices)
        {
            var here = main.Find(StockPricesType, row.Method);
            var scaled = here is not null && baseline is not null ? here.MeanNanoseconds / baseline.MeanNanoseconds : (double?)null;
            text.Line($"| {row.Table} | {row.Method} | {Compare("003", $"table {row.Table} {row.Method}, Mean µs", row.MeanMicroseconds, here?.MeanMicroseconds, "µs")} | {Format.Number(row.Scaled)} | {Format.Number(scaled)} | {Format.Number(row.AllocatedBytes)} | {Format.Number(here?.AllocatedBytesPerOperation)} | {StockPricesWhy(row.Method)} |");
        }
        text.AppendLine();

        var awaitTime = Difference(main.Find(StockPricesType, "GetStockPriceFor_Await")?.MeanMicroseconds, baseline?.MeanMicroseconds);
        var awaitBytes = figures["SuspendingAwaitBytes"].Value;
        var taskBytes = figures["CompletedTaskBytes"].Value;
        text.AppendLine("The write-up's summary figures, derived the way it derives them:");
        text.AppendLine();
        text.AppendLine("| figure | published | here | here ÷ published | within 2× | why they differ |");
        text.AppendLine("| --- | ---: | ---: | ---: | :---: | --- |");
        var hop = figures["ThreadPoolHop"].Value;
        text.Line($"| time of one unfinished await, µs (GetStockPriceFor_Await − GetStockPriceFor) | {Compare("003", "unfinished await, µs", Published.UnfinishedAwaitMicroseconds, awaitTime, "µs")} | {(awaitTime > Published.UnfinishedAwaitMicroseconds ? "Slower here although the hop itself is cheap (a Task.Yield hop without a blocked caller, seed 000's \"Async w/ yield\", is " + Format.Number(hop) + " µs): the caller blocks, so each call also puts a thread to sleep and wakes it, two context switches on 2 vCPUs shared with other jobs." : "A Task.Yield hop through the pool while the caller blocks: a pool dispatch plus putting the caller to sleep and waking it, cheaper on .NET 10 and this CPU.")} |");
        text.Line($"| bytes of one unfinished await (same rows, Allocated) | {Compare("003", "unfinished await, bytes", Published.UnfinishedAwaitBytes, awaitBytes, "B")} | Since .NET Core 2.1 the state machine lives in one box that is also the method's Task (AsyncStateMachineBox), instead of a boxed state machine, a Task, an MoveNext delegate and a runner. |");
        text.Line($"| Task<decimal> of a synchronously completing async method, bytes | {Compare("003", "Task<decimal> bytes", Published.CompletedTaskOfDecimalBytes, taskBytes, "B")} | The Task<TResult> object: header, state, fields and the 16-byte decimal; its layout is nearly the same today. |");
        text.AppendLine();

        text.AppendLine("New since the write-up (no published figure):");
        text.AppendLine();
        text.AppendLine("| method | Mean µs | Scaled | Allocated B | work items/op | what it shows |");
        text.AppendLine("| --- | ---: | ---: | ---: | ---: | --- |");
        foreach (var method in NewSinceRows)
        {
            var here = main.Find(StockPricesType, method);
            var scaled = here is not null && baseline is not null ? here.MeanNanoseconds / baseline.MeanNanoseconds : (double?)null;
            text.Line($"| {method} | {Format.Number(here?.MeanMicroseconds)} | {Format.Number(scaled)} | {Format.Number(here?.AllocatedBytesPerOperation)} | {Format.Number(here?.Metric("WorkItems"))} | {NewSinceWhat(method)} |");
        }
        text.AppendLine();

        text.AppendLine("Suite `AsyncMethods/CachedTaskBenchmarks`, the runtime's cached tasks (published: the same instance for Task<bool> and Task<int> in [-1, 9),");
        text.AppendLine("a new Task otherwise):");
        text.AppendLine();
        text.AppendLine("| result | Allocated B per call here | cached here |");
        text.AppendLine("| --- | ---: | :---: |");
        foreach (var (method, label) in new[]
        {
            ("TaskOfBool", "Task<bool> true"), ("TaskOfIntMinusOne", "Task<int> -1"), ("TaskOfIntEight", "Task<int> 8"),
            ("TaskOfIntNine", "Task<int> 9"), ("TaskOfIntMinusTwo", "Task<int> -2"), ("TaskOfDecimal", "Task<decimal> 42"),
        })
        {
            var bytes = main.Find("CachedTaskBenchmarks", method)?.AllocatedBytesPerOperation;
            text.Line($"| {label} | {Format.Number(bytes)} | {(bytes is null ? "n/a" : bytes == 0 ? "yes" : "no")} |");
        }
        text.AppendLine();
    }

    private static double? Difference(double? a, double? b) => a is { } x && b is { } y ? x - y : null;

    private static string StockPricesWhy(string method) => method switch
    {
        "GetPricesDirectlyFromCache" or "GetStockPriceFor" =>
            "A linear search of 101 (string, decimal) pairs: string equality is vectorized and the loop cheaper on .NET 10 and this CPU.",
        "GetStockPriceForAsync" =>
            "The search plus a synchronously completing async method: a struct state machine on the stack and an 88-byte-class Task<decimal>.",
        "GetStockPriceWithValueTaskAsync" =>
            "As Task<decimal>, without the Task allocation.",
        "GetStockPriceFor_Await" =>
            "Sync over async with one Task.Yield: a pool hop while the caller blocks (SpinThenBlockingWait).",
        "GetStockPriceForAsync_Await" or "GetStockPriceWithValueTaskAsync_Await" =>
            "Two suspending async methods and a blocking wait: the state-machine boxes replace the old box + Task + delegate + runner per await.",
        _ => "",
    };

    private static string NewSinceWhat(string method) => method switch
    {
        "GetStockPriceWithFastPath" => "The IsCompletedSuccessfully fast path (AC0003's fix): no state machine at all when the initializer is done.",
        "GetStockPriceWithCapturingFastPath" => "The same fast path with a capturing local function (AC0009): the closure is allocated on entry, fast path included.",
        "GetStockPricePoolingValueTaskAsync" => "PoolingAsyncValueTaskMethodBuilder when the call completes synchronously: nothing to pool, same as ValueTask.",
        "GetStockPricePoolingValueTaskAsync_Await" => "Pooling builder when the call suspends: the outer box comes from a per-thread pool (awaited by BenchmarkDotNet, not blocked on).",
        _ => "",
    };
}
