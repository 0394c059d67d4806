using System.Collections.Concurrent;

namespace StockPrices.Library;

/// <summary>
/// Quotes from a cache that a remote feed fills on first use: the service of the "performance characteristics of
/// async methods" write-up, with its async methods written the straightforward way. Every call after the first
/// completes synchronously, so what each method costs is the async machinery itself. StockPrices.Fixed applies the
/// analyzer's fixes to the same code.
/// </summary>
public sealed class StockPriceService(SimulatedPriceFeed feed)
{
    private readonly ConcurrentDictionary<string, decimal> _exchangeRates = new(StringComparer.Ordinal);
    private Dictionary<string, decimal>? _prices;

    // AC0003: starts by awaiting InitializeIfNeededAsync, which returns synchronously once the cache is filled,
    // then only does synchronous work; the state machine runs on every call for nothing. AC0004 on the await.
    public async ValueTask<decimal> GetPriceAsync(string symbol)
    {
        await InitializeIfNeededAsync();
        return PriceFromCache(symbol);
    }

    // AC0009: the hand-written fast path of the write-up, but the local function captures 'this', 'symbol',
    // 'shares' and 'initialization', so the closure is allocated on entry, fast path included. AC0004 inside.
    public ValueTask<decimal> GetPositionValueAsync(string symbol, int shares)
    {
        Task initialization = InitializeIfNeededAsync();
        if (initialization.IsCompletedSuccessfully)
        {
            return new ValueTask<decimal>(PriceFromCache(symbol) * shares);
        }

        return AwaitInitializationAsync();

        async ValueTask<decimal> AwaitInitializationAsync()
        {
            await initialization;
            return PriceFromCache(symbol) * shares;
        }
    }

    // AC0004 on both awaits.
    public async ValueTask<decimal> GetPriceInCurrencyAsync(string symbol, string currency)
    {
        decimal price = await GetPriceAsync(symbol);
        decimal rate = await GetExchangeRateAsync(currency);
        return decimal.Round(price * rate, 4);
    }

    // AC0002: private, returns a cached rate without suspending on almost every call, decimal has no cached
    // tasks, and its one caller awaits it once: each call allocates a Task<decimal> for nothing. AC0004 inside.
    private async Task<decimal> GetExchangeRateAsync(string currency)
    {
        if (_exchangeRates.TryGetValue(currency, out decimal rate))
        {
            return rate;
        }

        rate = await feed.GetExchangeRateAsync(currency);
        _exchangeRates[currency] = rate;
        return rate;
    }

    // The callee with a synchronous return path (the cache check) that AC0003 looks for. AC0004 on the await.
    private async Task InitializeIfNeededAsync()
    {
        if (_prices is not null)
        {
            return;
        }

        _prices = await feed.LoadPricesAsync();
    }

    private decimal PriceFromCache(string symbol) =>
        _prices!.TryGetValue(symbol, out decimal price)
            ? price
            : throw new ArgumentException($"No price for '{symbol}'.", nameof(symbol));
}
