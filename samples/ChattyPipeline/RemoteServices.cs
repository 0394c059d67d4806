namespace ChattyPipeline;

// The simulated services answer on another thread: after the round trip, or, when it is zero, at once (a
// thread-pool hop, no timer). The wait is written out in each method so that it adds no state machine of its own
// to what a trace attributes to the method.

/// <summary>A remote catalog: one round trip per product looked up.</summary>
internal sealed class PriceCatalog(TimeSpan roundTrip)
{
    public async Task<decimal> GetPriceAsync(int productId)
    {
        if (roundTrip > TimeSpan.Zero)
        {
            await Task.Delay(roundTrip);
        }
        else
        {
            await Task.Yield();
        }

        return 1m + ((productId % 97) * 0.25m);
    }
}

/// <summary>A remote discount service: one round trip per customer looked up.</summary>
internal sealed class DiscountService(TimeSpan roundTrip)
{
    /// <summary>The customer's discount as a fraction of the subtotal.</summary>
    public async Task<decimal> GetDiscountAsync(int customerId)
    {
        if (roundTrip > TimeSpan.Zero)
        {
            await Task.Delay(roundTrip);
        }
        else
        {
            await Task.Yield();
        }

        return (customerId % 4) * 0.05m;
    }
}
