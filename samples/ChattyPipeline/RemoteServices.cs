namespace ChattyPipeline;

/// <summary>What the simulated remote services have in common.</summary>
internal static class RemoteServices
{
    /// <summary>One network round trip: every remote call completes asynchronously after it.</summary>
    public static readonly TimeSpan RoundTrip = TimeSpan.FromMilliseconds(1);
}

/// <summary>A remote catalog: one round trip per product looked up.</summary>
internal sealed class PriceCatalog(TimeSpan roundTrip)
{
    public async Task<decimal> GetPriceAsync(int productId)
    {
        await Task.Delay(roundTrip);
        return 1m + ((productId % 97) * 0.25m);
    }
}

/// <summary>A remote discount service: one round trip per customer looked up.</summary>
internal sealed class DiscountService(TimeSpan roundTrip)
{
    /// <summary>The customer's discount as a fraction of the subtotal.</summary>
    public async Task<decimal> GetDiscountAsync(int customerId)
    {
        await Task.Delay(roundTrip);
        return (customerId % 4) * 0.05m;
    }
}
