using System.Collections.Concurrent;

namespace StockPrices.Library;

/// <summary>
/// Quotes from a cache that a remote feed fills on first use: StockPrices' service after the analyzer's code fixes
/// (`dotnet format analyzers --diagnostics AC0002 AC0003 AC0004 AC0009`), their output kept as generated. Every call
/// after the first completes synchronously and allocates nothing.
/// </summary>
public sealed class StockPriceService(SimulatedPriceFeed feed)
{
    private readonly ConcurrentDictionary<string, decimal> _exchangeRates = new(StringComparer.Ordinal);
    private Dictionary<string, decimal>? _prices;

    // AC0003's fix: no state machine unless initialization is still running; the fallback is a static local
    // function, so nothing is captured on the fast path.
    public ValueTask<decimal> GetPriceAsync(string symbol)
    {
        var pending = InitializeIfNeededAsync();
        if (pending.IsCompletedSuccessfully)
        {
            return new ValueTask<decimal>(PriceFromCache(symbol));
        }
        return Awaited(this, pending, symbol);

        static async ValueTask<decimal> Awaited(StockPriceService self, Task pending, string symbol)
        {
            await pending.ConfigureAwait(false);
            return self.PriceFromCache(symbol);
        }
    }

    // AC0009's fix: the local function gets its state as parameters. It still uses 'this', which costs nothing: a
    // local function that captures only 'this' compiles to an instance method, with no closure object.
    public ValueTask<decimal> GetPositionValueAsync(string symbol, int shares)
    {
        Task initialization = InitializeIfNeededAsync();
        if (initialization.IsCompletedSuccessfully)
        {
            return new ValueTask<decimal>(PriceFromCache(symbol) * shares);
        }

        return AwaitInitializationAsync(initialization, symbol, shares);

        async ValueTask<decimal> AwaitInitializationAsync(Task initialization, string symbol, int shares)
        {
            await initialization.ConfigureAwait(false);
            return PriceFromCache(symbol) * shares;
        }
    }

    // AC0004's fix on both awaits.
    public async ValueTask<decimal> GetPriceInCurrencyAsync(string symbol, string currency)
    {
        decimal price = await GetPriceAsync(symbol).ConfigureAwait(false);
        decimal rate = await GetExchangeRateAsync(currency).ConfigureAwait(false);
        return decimal.Round(price * rate, 4);
    }

    // AC0002's fix: ValueTask<decimal> carries the cached rate without allocating a task.
    private async ValueTask<decimal> GetExchangeRateAsync(string currency)
    {
        if (_exchangeRates.TryGetValue(currency, out decimal rate))
        {
            return rate;
        }

        rate = await feed.GetExchangeRateAsync(currency).ConfigureAwait(false);
        _exchangeRates[currency] = rate;
        return rate;
    }

    private async Task InitializeIfNeededAsync()
    {
        if (_prices is not null)
        {
            return;
        }

        _prices = await feed.LoadPricesAsync().ConfigureAwait(false);
    }

    private decimal PriceFromCache(string symbol) =>
        _prices!.TryGetValue(symbol, out decimal price)
            ? price
            : throw new ArgumentException($"No price for '{symbol}'.", nameof(symbol));
}
