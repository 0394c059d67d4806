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

/// <summary>Customer discounts and coupons from a simulated remote service.</summary>
internal sealed partial class Discounts
{
    /// <summary>Coupons every customer holds.</summary>
    public const int CouponsPerCustomer = 3;

    private readonly decimal _loyaltyDiscount = 0.1m;
    private readonly int _couponValues = 5;

    private async Task<decimal> LoadCouponAsync(int customer, int coupon)
    {
        await Task.Yield(); // stands for the coupon service's round trip
        return (customer + coupon) % _couponValues;
    }

    public async Task<decimal> GetDiscountAsync(int customer)
    {
        await Task.Yield(); // stands for the discount service's round trip
        return customer % 10 == 0 ? _loyaltyDiscount : 0m;
    }
}

/// <summary>Shipping rates per zone, loaded once from a simulated remote rate table.</summary>
internal sealed partial class Shipping
{
    private decimal[]? _rates;

    private static decimal Rate(decimal[] rates, int customer) => rates[customer % rates.Length];

    private async Task EnsureRatesAsync()
    {
        if (_rates is null)
        {
            await Task.Yield(); // stands for the rate table's one round trip
            _rates = [.. Enumerable.Range(0, 10).Select(zone => 4.5m + zone)];
        }
    }
}
