using System.Runtime.CompilerServices;

namespace AsyncCost.Benchmarks.AsyncMethods;

/// <summary>
/// Seed 003's price cache, written anew: a list of 101 prices searched linearly (so each call does some work), behind
/// the method shapes the write-up compares. With <c>yieldOnCachedPath</c> the initializer awaits Task.Yield even when
/// the cache is ready, so every call suspends once (the write-up's "_Await" variants).
/// </summary>
public sealed class StockPrices(bool yieldOnCachedPath)
{
    private const int Count = 100;
    private List<(string Name, decimal Price)>? _cache;

    /// <summary>Purely synchronous: synchronous initializer, then the search.</summary>
    public decimal GetPriceFromCacheFor(string companyId)
    {
        InitializeMapIfNeeded();
        return DoGetPriceFromCache(companyId);
    }

    /// <summary>Sync over async: blocks on the async initializer.</summary>
    public decimal GetStockPriceFor(string companyId)
    {
        InitializeMapIfNeededAsync().GetAwaiter().GetResult();
        return DoGetPriceFromCache(companyId);
    }

    /// <summary>async Task&lt;decimal&gt;: the uncached decimal result needs a Task allocation.</summary>
    public async Task<decimal> GetStockPriceForAsync(string companyId)
    {
        await InitializeMapIfNeededAsync();
        return DoGetPriceFromCache(companyId);
    }

    /// <summary>async ValueTask&lt;decimal&gt;: no allocation when it completes synchronously.</summary>
    public async ValueTask<decimal> GetStockPriceValueTaskForAsync(string companyId)
    {
        await InitializeMapIfNeededAsync();
        return DoGetPriceFromCache(companyId);
    }

    /// <summary>The IsCompleted fast path: not async; only an unfinished initializer goes through a static async local function.</summary>
    public ValueTask<decimal> GetStockPriceWithFastPath(string companyId)
    {
        var initialization = InitializeMapIfNeededAsync();
        if (initialization.IsCompletedSuccessfully)
            return new ValueTask<decimal>(DoGetPriceFromCache(companyId));
        return AwaitInitialization(this, initialization, companyId);

        static async ValueTask<decimal> AwaitInitialization(StockPrices prices, Task initialization, string companyId)
        {
            await initialization;
            return prices.DoGetPriceFromCache(companyId);
        }
    }

    /// <summary>The same fast path with a local function that captures the enclosing state: the compiler allocates the
    /// closure at method entry, fast path included.</summary>
    public ValueTask<decimal> GetStockPriceWithCapturingFastPath(string companyId)
    {
        var initialization = InitializeMapIfNeededAsync();
        if (initialization.IsCompletedSuccessfully)
            return new ValueTask<decimal>(DoGetPriceFromCache(companyId));
        return AwaitInitialization();

        async ValueTask<decimal> AwaitInitialization()
        {
            await initialization;
            return DoGetPriceFromCache(companyId);
        }
    }

    /// <summary>.NET 6+: the state machine box of a suspending call comes from a per-thread pool instead of the heap.</summary>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    public async ValueTask<decimal> GetStockPricePoolingValueTaskForAsync(string companyId)
    {
        await InitializeMapIfNeededAsync();
        return DoGetPriceFromCache(companyId);
    }

    private decimal DoGetPriceFromCache(string name)
    {
        foreach (var (entryName, price) in _cache!)
        {
            if (entryName == name)
                return price;
        }
        throw new InvalidOperationException($"Can't find price for '{name}'.");
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void InitializeMapIfNeeded()
    {
        if (_cache is null)
            _cache = CreateCache();
    }

    private async Task InitializeMapIfNeededAsync()
    {
        if (_cache is not null)
        {
            if (yieldOnCachedPath)
                await Task.Yield();
            return;
        }
        await Task.Delay(42); // stands in for the external source
        _cache = CreateCache();
    }

    private static List<(string Name, decimal Price)> CreateCache()
    {
        var cache = Enumerable.Range(1, Count).Select(n => (n.ToString(System.Globalization.CultureInfo.InvariantCulture), (decimal)n)).ToList();
        cache.Add(("MSFT", 42));
        return cache;
    }
}
