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

    private async Task ProduceOrdersAsync(RunBudget budget)
    {
        long produced = 0;
        while (budget.ShouldContinue(produced))
        {
            Order order = OrderBook.Create(produced);
            Task<decimal> discount = _discounts.GetDiscountAsync(order.CustomerId);

            // AC0001 fixed: all of the order's round trips at once, one wait.
            decimal[] unitPrices = await Task.WhenAll(order.Lines.Select(line => _catalog.GetPriceAsync(line.ProductId)));

            // AC0006 fixed: the discount is awaited.
            decimal customerDiscount = await discount;

            // AC0005 fixed: no Task.Yield. AC0007 fixed: waiting for the free slot is an await.
            await _slot.Writer.WriteAsync(new PricedOrder(order, unitPrices, customerDiscount));
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
