using System.Threading.Channels;
using AsyncCost.Samples;

namespace ChattyPipeline;

/// <summary>
/// Prices orders and totals them: ChattyPipeline's pipeline with the analyzer's fixes. The producer looks an order's
/// lines up concurrently, awaits the customer's discount, and hands the order over through a one-slot channel to a
/// consumer that awaits the next order. No thread blocks, and nothing hops to the thread pool for nothing.
/// </summary>
internal sealed class OrderPipeline
{
    private readonly PriceCatalog _catalog;
    private readonly DiscountService _discounts;

    // The same single slot as ChattyPipeline's AutoResetEvent pair, with waits that are awaits.
    private readonly Channel<PricedOrder> _slot = Channel.CreateBounded<PricedOrder>(
        new BoundedChannelOptions(capacity: 1) { SingleReader = true, SingleWriter = true });

    private OrderPipeline(PriceCatalog catalog, DiscountService discounts)
    {
        _catalog = catalog;
        _discounts = discounts;
    }

    /// <summary>Prices orders until the budget is spent: how many, and their total after discounts.</summary>
    public static async Task<(long Orders, decimal Total)> RunAsync(PriceCatalog catalog, DiscountService discounts, RunBudget budget)
    {
        var pipeline = new OrderPipeline(catalog, discounts);
        Task<(long Orders, decimal Total)> totals = pipeline.ConsumeOrdersAsync();
        await pipeline.ProduceOrdersAsync(budget);
        return await totals;
    }

    // The analyzer's code fixes where they exist (AC0001 applied one loop at a time, as its fix offers no Fix All;
    // AC0005, AC0006), by hand where they don't (AC0007: no mechanical replacement for an AutoResetEvent hand-off).
    private async Task ProduceOrdersAsync(RunBudget budget)
    {
        long produced = 0;

        // AC0005's fix: one yield before the loop instead of one per order.
        await Task.Yield();
        while (budget.ShouldContinue(produced))
        {
            Order order = OrderBook.Create(produced);

            // Started first so that it overlaps the line lookups.
            Task<decimal> discount = _discounts.GetDiscountAsync(order.CustomerId);
            var unitPrices = new List<decimal>(order.Lines.Count);

            // AC0001's fix: all of the order's round trips at once, one wait.
            unitPrices.AddRange(await Task.WhenAll(order.Lines.Select(line => _catalog.GetPriceAsync(line.ProductId))));

            // AC0007 fixed by hand: waiting for the free slot is an await on the channel.
            // AC0006's fix: the discount is awaited.
            await _slot.Writer.WriteAsync(new PricedOrder(order, unitPrices, await discount));
            produced++;
        }

        _slot.Writer.Complete();
    }

    private async Task<(long Orders, decimal Total)> ConsumeOrdersAsync()
    {
        long orders = 0;
        decimal total = 0;
        await foreach (PricedOrder priced in _slot.Reader.ReadAllAsync())
        {
            orders++;
            total += priced.Total;
        }

        return (orders, total);
    }
}
