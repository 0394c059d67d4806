using AsyncCost.BenchmarkDotNet;
using AsyncCost.Benchmarks.Infrastructure;
using BenchmarkDotNet.Attributes;

// The seed's own shape: these ValueTasks are complete, or Task-backed (no pooling builder), where GetResult blocks
// like a Task's. The pooled one is awaited by BenchmarkDotNet instead.
#pragma warning disable CA2012

namespace AsyncCost.Benchmarks.AsyncMethods;

/// <summary>
/// Seed 003's three StockPrices tables in one suite (each published table extends the previous one around the same
/// baseline): methods that complete synchronously, then the same shapes when the initializer suspends once per call
/// (Task.Yield), plus what is new since: the IsCompleted fast path with and without a capturing local function, and
/// PoolingAsyncValueTaskMethodBuilder. Compiled a second time with runtime-handled async by
/// benchmarks/AsyncCost.Benchmarks.RuntimeAsync. The AsyncCost diagnoser adds, per case, the async methods' bytes, state
/// machines, hops and blocking waits per operation, measured in an extra run (its hop pass records the extra-statistics
/// iteration MemoryDiagnoser asks for).
/// </summary>
[MemoryDiagnoser]
[AsyncCostDiagnoser]
[FullRunJob]
[BenchmarkCategory(Category, BenchmarkConfig.SeedsCategory)]
public class StockPricesBenchmarks
{
    public const string Category = "003-async-methods";
    private const string Company = "MSFT";

    private readonly StockPrices _stockPrices = new(yieldOnCachedPath: false);
    private readonly StockPrices _stockPricesThatYield = new(yieldOnCachedPath: true);

    [GlobalSetup]
    public void WarmCaches()
    {
        _stockPrices.GetStockPriceForAsync(Company).GetAwaiter().GetResult();
        _stockPricesThatYield.GetStockPriceForAsync(Company).GetAwaiter().GetResult();
    }

    [Benchmark]
    public decimal GetPricesDirectlyFromCache() => _stockPrices.GetPriceFromCacheFor(Company);

    [Benchmark(Baseline = true)]
    public decimal GetStockPriceFor() => _stockPrices.GetStockPriceFor(Company);

    [Benchmark]
    public decimal GetStockPriceForAsync() => _stockPrices.GetStockPriceForAsync(Company).GetAwaiter().GetResult();

    [Benchmark]
    public decimal GetStockPriceWithValueTaskAsync() =>
        _stockPrices.GetStockPriceValueTaskForAsync(Company).GetAwaiter().GetResult();

    [Benchmark]
    public decimal GetStockPriceWithFastPath() => _stockPrices.GetStockPriceWithFastPath(Company).GetAwaiter().GetResult();

    [Benchmark]
    public decimal GetStockPriceWithCapturingFastPath() =>
        _stockPrices.GetStockPriceWithCapturingFastPath(Company).GetAwaiter().GetResult();

    [Benchmark]
    public decimal GetStockPricePoolingValueTaskAsync() =>
        _stockPrices.GetStockPricePoolingValueTaskForAsync(Company).GetAwaiter().GetResult();

    [Benchmark]
    public decimal GetStockPriceFor_Await() => _stockPricesThatYield.GetStockPriceFor(Company);

    [Benchmark]
    public decimal GetStockPriceForAsync_Await() =>
        _stockPricesThatYield.GetStockPriceForAsync(Company).GetAwaiter().GetResult();

    [Benchmark]
    public decimal GetStockPriceWithValueTaskAsync_Await() =>
        _stockPricesThatYield.GetStockPriceValueTaskForAsync(Company).GetAwaiter().GetResult();

    /// <summary>A pooled ValueTask must not be blocked on before it completes (its source would be reused), so
    /// BenchmarkDotNet awaits it: its blocking wait differs from the Task-based rows' GetAwaiter().GetResult().</summary>
    [Benchmark]
    public ValueTask<decimal> GetStockPricePoolingValueTaskAsync_Await() =>
        _stockPricesThatYield.GetStockPricePoolingValueTaskForAsync(Company);
}
