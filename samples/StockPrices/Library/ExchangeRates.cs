namespace StockPrices.Library;

/// <summary>The fixed rates the simulated feed serves (US dollars per unit are the base).</summary>
internal static class ExchangeRates
{
    public static decimal Of(string currency) => currency switch
    {
        "USD" => 1m,
        "EUR" => 0.92m,
        "GBP" => 0.79m,
        _ => throw new ArgumentException($"No exchange rate for '{currency}'.", nameof(currency)),
    };
}
