namespace WebShop;

/// <summary>
/// The checkout, written the costly way: a stock round trip per cart line, a Task&lt;decimal&gt; per line for a price that
/// is almost always cached, coupons streamed one round trip each, a state machine per shipping rate that is almost always
/// loaded, and a request thread blocked on the discount. WebShop.Fixed does the same work with the analyzer's fixes.
/// </summary>
internal sealed class Checkout(Catalog catalog, Stock stock, Discounts discounts, Shipping shipping)
{
    public async Task<Receipt> CheckoutAsync(int customer, int lines)
    {
        var cart = Cart.For(customer, lines);
        foreach (var line in cart)
        {
            // AC0001: one stock round trip after another, although no line's reservation depends on another's.
            await stock.ReserveAsync(line.Sku, line.Quantity);
        }

        // AC0006: blocks the request's pool thread until the discount service answers.
        var discount = discounts.GetDiscountAsync(customer).Result;

        var total = 0m;
        foreach (var line in cart)
        {
            // AC0001 again: the prices, too, are asked for one after another.
            total += await catalog.GetPriceAsync(line.Sku) * line.Quantity;
        }

        var coupons = 0m;
        await foreach (var coupon in discounts.CouponsAsync(customer))
        {
            coupons += coupon;
        }

        var shippingRate = await shipping.GetRateAsync(customer);
        return new Receipt(customer, cart.Count, total * (1 - discount) - coupons + shippingRate);
    }
}

internal sealed partial class Catalog
{
    // AC0002: a Task<decimal> allocated per call, although after the first call per SKU the price comes from the cache.
    public async Task<decimal> GetPriceAsync(int sku)
    {
        if (_prices.TryGetValue(sku, out var price))
        {
            return price;
        }
        price = await LoadPriceAsync(sku);
        _prices[sku] = price;
        return price;
    }
}

internal sealed partial class Stock
{
    /// <summary>Reserves one line: a round trip to the stock service per call. Returns the SKU's reserved quantity.</summary>
    public async Task<long> ReserveAsync(int sku, int quantity)
    {
        await Task.Yield(); // stands for the stock service's round trip
        return Interlocked.Add(ref _reserved[sku], quantity);
    }
}

internal sealed partial class Discounts
{
    /// <summary>The customer's coupons as a stream: each item waits for its own round trip (one hop per item).</summary>
    public async IAsyncEnumerable<decimal> CouponsAsync(int customer)
    {
        for (var coupon = 0; coupon < CouponsPerCustomer; coupon++)
        {
            yield return await LoadCouponAsync(customer, coupon);
        }
    }
}

internal sealed partial class Shipping
{
    // AC0003: after the first call the rates are loaded, yet every call runs a state machine and allocates a Task<decimal>.
    public async Task<decimal> GetRateAsync(int customer)
    {
        await EnsureRatesAsync();
        return Rate(_rates!, customer);
    }
}
