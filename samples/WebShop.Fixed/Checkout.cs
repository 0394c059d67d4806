namespace WebShop;

/// <summary>
/// The checkout with the analyzer's fixes: the discount is asked for first and awaited last, the cart is reserved in
/// one round trip, and a cached price costs no allocation.
/// </summary>
internal sealed class Checkout(Catalog catalog, Stock stock, Discounts discounts)
{
    public async Task<Receipt> CheckoutAsync(int customer, int lines)
    {
        var cart = Cart.For(customer, lines);
        var discount = discounts.GetDiscountAsync(customer);
        await stock.ReserveAsync(cart);
        var total = await catalog.TotalAsync(cart);
        return new Receipt(customer, cart.Count, total * (1 - await discount));
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
