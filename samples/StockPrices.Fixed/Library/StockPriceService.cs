using System.Collections.Concurrent;

namespace StockPrices.Library;

/// <summary>
/// Quotes from a cache that a remote feed fills on first use: StockPrices' service with the analyzer's fixes
/// applied. Every call after the first completes synchronously and allocates nothing.
/// </summary>
public sealed class StockPriceService(SimulatedPriceFeed feed)
{
    private readonly ConcurrentDictionary<string, decimal> _exchangeRates = new(StringComparer.Ordinal);
    private Dictionary<string, decimal>? _prices;

    // AC0003 fixed: no state machine unless initialization is still running; the fallback is a static local
    // function, so nothing is captured on the fast path.
    public ValueTask<decimal> GetPriceAsync(string symbol)
    {
        Task initialization = InitializeIfNeededAsync();
        if (initialization.IsCompletedSuccessfully)
        {
            return new ValueTask<decimal>(PriceFromCache(symbol));
        }

        return AwaitInitializationAsync(this, initialization, symbol);

        static async ValueTask<decimal> AwaitInitializationAsync(StockPriceService service, Task initialization, string symbol)
        {
            await initialization.ConfigureAwait(false);
            return service.PriceFromCache(symbol);
        }
    }

    // AC0009 fixed: the local function is static and gets its state as parameters, so the closure is gone.
    public ValueTask<decimal> GetPositionValueAsync(string symbol, int shares)
    {
        Task initialization = InitializeIfNeededAsync();
        if (initialization.IsCompletedSuccessfully)
        {
            return new ValueTask<decimal>(PriceFromCache(symbol) * shares);
        }

        return AwaitInitializationAsync(this, initialization, symbol, shares);

        static async ValueTask<decimal> AwaitInitializationAsync(StockPriceService service, Task initialization, string symbol, int shares)
        {
            await initialization.ConfigureAwait(false);
            return service.PriceFromCache(symbol) * shares;
        }
    }

    public async ValueTask<decimal> GetPriceInCurrencyAsync(string symbol, string currency)
    {
        decimal price = await GetPriceAsync(symbol).ConfigureAwait(false);
        decimal rate = await GetExchangeRateAsync(currency).ConfigureAwait(false);
        return decimal.Round(price * rate, 4);
    }

    // AC0002 fixed: ValueTask<decimal> carries the cached rate without allocating a task.
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
