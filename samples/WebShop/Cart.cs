using System.Collections.Concurrent;

namespace WebShop;

/// <summary>One line of a cart.</summary>
internal sealed record CartLine(int Sku, int Quantity);

/// <summary>What a checkout answers.</summary>
internal sealed record Receipt(int Customer, int Lines, decimal Total);

/// <summary>Carts made up from the customer number, so a checkout's result depends only on its request.</summary>
internal static class Cart
{
    public const int DefaultLines = 20;

    public static List<CartLine> For(int customer, int lines) =>
        [.. Enumerable.Range(0, Math.Clamp(lines, 1, 1_000)).Select(i => new CartLine((customer * 31 + i * 7) % Catalog.Skus, i % 3 + 1))];
}

/// <summary>Prices, loaded once per SKU from a simulated remote catalog and cached.</summary>
internal sealed partial class Catalog
{
    public const int Skus = 500;

    private readonly ConcurrentDictionary<int, decimal> _prices = new();

    private static async Task<decimal> LoadPriceAsync(int sku)
    {
        await Task.Yield(); // stands for the catalog service's round trip
        return 1m + sku % 97 / 4m;
    }
}

/// <summary>Stock levels behind a simulated remote stock service.</summary>
internal sealed partial class Stock
{
    private readonly long[] _reserved = new long[Catalog.Skus];

    public long Reserved => _reserved.Sum();
}

/// <summary>Customer discounts from a simulated remote service.</summary>
internal sealed class Discounts
{
    private readonly decimal _loyaltyDiscount = 0.1m;

    public async Task<decimal> GetDiscountAsync(int customer)
    {
        await Task.Yield(); // stands for the discount service's round trip
        return customer % 10 == 0 ? _loyaltyDiscount : 0m;
    }
}
