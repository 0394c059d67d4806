namespace StockPrices.Library;

/// <summary>Stands in for the remote source behind the cache: every answer takes one network round trip.</summary>
public sealed class SimulatedPriceFeed(TimeSpan roundTrip)
{
    /// <summary>The symbols the feed quotes.</summary>
    public static IReadOnlyList<string> Symbols { get; } =
        Enumerable.Range(0, 100).Select(index => $"SYM{index:D3}").ToArray();

    internal async Task<Dictionary<string, decimal>> LoadPricesAsync()
    {
        await Task.Delay(roundTrip).ConfigureAwait(false);
        return Symbols.Select((symbol, index) => (symbol, price: 10m + (index * 1.25m)))
            .ToDictionary(quote => quote.symbol, quote => quote.price, StringComparer.Ordinal);
    }

    internal async Task<decimal> GetExchangeRateAsync(string currency)
    {
        await Task.Delay(roundTrip).ConfigureAwait(false);
        return ExchangeRates.Of(currency);
    }
}
