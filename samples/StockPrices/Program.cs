using System.Globalization;
using AsyncCost.Samples;
using StockPrices.Library;

// A trading screen's refresh loop: for every quote, the price, the value of a position and the price in euros, one
// symbol after another. Shared unchanged by StockPrices and StockPrices.Fixed; only the library differs.
return await SampleMain.RunAsync(
    "StockPrices", "quotes", new SampleDefaults(Operations: 20_000_000, RoundTrip: TimeSpan.FromMilliseconds(20)), args, QuoteAsync);

static async Task<SampleResult> QuoteAsync(SampleOptions options)
{
    RunBudget budget = options.Budget;
    var service = new StockPriceService(new SimulatedPriceFeed(options.RoundTrip));
    IReadOnlyList<string> symbols = SimulatedPriceFeed.Symbols;
    decimal checksum = 0;
    long quotes = 0;

    // A toy trading bot: it buys one more share while its position is worth under 1,000 and sells out otherwise.
    // The next call's arguments depend on this call's answer, so the calls are sequential by nature.
    int shares = 0;
    while (budget.ShouldContinue(quotes))
    {
        string symbol = symbols[(int)(quotes % symbols.Count)];
        decimal price = await service.GetPriceAsync(symbol);
        decimal position = await service.GetPositionValueAsync(symbol, shares);
        decimal inEuros = await service.GetPriceInCurrencyAsync(symbol, "EUR");
        shares = position < 1_000m ? shares + 1 : 0;
        checksum += price + position + inEuros;
        quotes++;
    }

    return new SampleResult(quotes, checksum.ToString(CultureInfo.InvariantCulture));
}
