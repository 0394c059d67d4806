using BenchmarkDotNet.Attributes;

namespace AsyncCost.Benchmarks.Analyzers;

/// <summary>
/// The evidence for AC0009: a cache-hit fast path that returns a completed ValueTask, with the slow path in an
/// async local function that captures the method's parameter (and <c>this</c>) vs a static local function
/// that takes them as parameters. Only the fast path runs, so the difference in allocated bytes per call is
/// the display class the capturing version allocates on entry and never uses.
/// </summary>
[MemoryDiagnoser]
public class FastPathClosureBenchmark
{
    private readonly Dictionary<string, decimal> _prices = new(StringComparer.Ordinal);
    private string _symbol = "";

    [GlobalSetup]
    public void Setup()
    {
        _symbol = "CTSO";
        _prices[_symbol] = 420.17m;
    }

    [Benchmark(Baseline = true)]
    public ValueTask<decimal> StaticLocalFunction() => GetPriceStatic(_symbol);

    [Benchmark]
    public ValueTask<decimal> CapturingLocalFunction() => GetPriceCapturing(_symbol);

    private ValueTask<decimal> GetPriceCapturing(string symbol)
    {
        if (_prices.TryGetValue(symbol, out var price))
        {
            return new ValueTask<decimal>(price);
        }
        return Slow();

        async ValueTask<decimal> Slow()
        {
            await Task.Yield();
            return _prices[symbol] = 0m;
        }
    }

    private ValueTask<decimal> GetPriceStatic(string symbol)
    {
        if (_prices.TryGetValue(symbol, out var price))
        {
            return new ValueTask<decimal>(price);
        }
        return Slow(_prices, symbol);

        static async ValueTask<decimal> Slow(Dictionary<string, decimal> prices, string symbol)
        {
            await Task.Yield();
            return prices[symbol] = 0m;
        }
    }
}
