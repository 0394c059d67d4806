namespace WebShop;

/// <summary>
/// The checkout with the analyzer's fixes: the discount is asked for first and awaited last, the cart is reserved in
/// one round trip, a cached price costs no allocation, the coupons come together, and a loaded shipping rate returns at once.
/// </summary>
internal sealed class Checkout(Catalog catalog, Stock stock, Discounts discounts, Shipping shipping)
{
    public async Task<Receipt> CheckoutAsync(int customer, int lines)
    {
        var cart = Cart.For(customer, lines);
        var discount = discounts.GetDiscountAsync(customer);
        await stock.ReserveAsync(cart);
        var coupons = discounts.CouponsAsync(customer);
        var total = await catalog.TotalAsync(cart);
        var shippingRate = await shipping.GetRateAsync(customer);
        return new Receipt(customer, cart.Count, total * (1 - await discount) - await coupons + shippingRate);
    }
}

internal sealed partial class Catalog
{
    /// <summary>The cart's total: prices not cached yet are loaded together; when all are cached (the usual case) the
    /// ValueTask completes synchronously and nothing is allocated.</summary>
    public async ValueTask<decimal> TotalAsync(List<CartLine> cart)
    {
        List<Task>? loads = null;
        foreach (var line in cart)
        {
            if (!_prices.ContainsKey(line.Sku))
            {
                (loads ??= []).Add(LoadAndCacheAsync(line.Sku));
            }
        }
        if (loads is not null)
        {
            await Task.WhenAll(loads);
        }
        var total = 0m;
        foreach (var line in cart)
        {
            total += _prices[line.Sku] * line.Quantity;
        }
        return total;
    }

    private async Task LoadAndCacheAsync(int sku) => _prices[sku] = await LoadPriceAsync(sku);
}

internal sealed partial class Stock
{
    /// <summary>Reserves the whole cart in one round trip to the stock service.</summary>
    public async Task ReserveAsync(IEnumerable<CartLine> cart)
    {
        await Task.Yield(); // stands for the stock service's round trip
        foreach (var line in cart)
        {
            Interlocked.Add(ref _reserved[line.Sku], line.Quantity);
        }
    }

    /// <summary>Reserves one line (what the allocation-truth run measures). Returns the SKU's reserved quantity.</summary>
    public async Task<long> ReserveAsync(int sku, int quantity)
    {
        await Task.Yield();
        return Interlocked.Add(ref _reserved[sku], quantity);
    }
}

internal sealed partial class Discounts
{
    /// <summary>The sum of the customer's coupons: their round trips overlap.</summary>
    public async Task<decimal> CouponsAsync(int customer)
    {
        var coupons = await Task.WhenAll(Enumerable.Range(0, CouponsPerCustomer).Select(coupon => LoadCouponAsync(customer, coupon)));
        return coupons.Sum();
    }
}

internal sealed partial class Shipping
{
    /// <summary>Once the rates are loaded (every call but the first) the rate is returned at once, without a state machine or a task.</summary>
    public ValueTask<decimal> GetRateAsync(int customer)
    {
        return _rates is { } rates ? new ValueTask<decimal>(Rate(rates, customer)) : LoadRateAsync(this, customer);

        static async ValueTask<decimal> LoadRateAsync(Shipping shipping, int customer)
        {
            await shipping.EnsureRatesAsync();
            return Rate(shipping._rates!, customer);
        }
    }
}
