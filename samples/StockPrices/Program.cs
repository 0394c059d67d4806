using System.Globalization;
using AsyncCost.Samples;
using StockPrices.Library;

// A trading screen's refresh loop: for every quote, the price, the value of a position and the price in euros, one
// symbol after another. Shared unchanged by StockPrices and StockPrices.Fixed; only the library differs.
return await SampleMain.RunAsync("StockPrices", "quotes", defaultOperations: 30_000_000, args, QuoteAsync);

static async Task<SampleResult> QuoteAsync(RunBudget budget)
{
    var service = new StockPriceService(new SimulatedPriceFeed(roundTrip: TimeSpan.FromMilliseconds(20)));
    IReadOnlyList<string> symbols = SimulatedPriceFeed.Symbols;
    decimal checksum = 0;
    long quotes = 0;
    while (budget.ShouldContinue(quotes))
    {
        // One call at a time on purpose: the sample measures what each call costs, not how calls overlap.
        string symbol = symbols[(int)(quotes % symbols.Count)];
        decimal price = await service.GetPriceAsync(symbol);
        decimal position = await service.GetPositionValueAsync(symbol, shares: 10);
        decimal inEuros = await service.GetPriceInCurrencyAsync(symbol, "EUR");
        checksum += price + position + inEuros;
        quotes++;
    }

    return new SampleResult(quotes, checksum.ToString(CultureInfo.InvariantCulture));
}
