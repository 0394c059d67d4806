namespace WebShop;

/// <summary>The in-process truth of what the fleet test measures through Prometheus.</summary>
internal static class AllocationTruth
{
    /// <summary>Bytes the whole process allocates per Stock.ReserveAsync call, over <paramref name="calls"/> calls in a row
    /// (after one to compile it): the call's state-machine box is all it allocates.</summary>
    public static async Task<double> ReserveBytesPerCallAsync(int calls)
    {
        var stock = new Stock();
        await stock.ReserveAsync(0, 1);
        var before = GC.GetTotalAllocatedBytes(precise: true);
        var sku = 0;
        for (var i = 0; i < calls; i++)
        {
            // One call at a time, each SKU chosen from the last answer: a single call's allocation is what is measured.
            sku = (int)((await stock.ReserveAsync(sku, 1) + i) % Catalog.Skus);
        }
        return (double)(GC.GetTotalAllocatedBytes(precise: true) - before) / calls;
    }
}
