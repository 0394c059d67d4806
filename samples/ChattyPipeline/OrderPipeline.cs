using AsyncCost.Samples;

namespace ChattyPipeline;

/// <summary>
/// Prices orders and totals them, written the chatty way: a producer prices each order line by line, blocks for the
/// customer's discount, and hands the order over through a single slot guarded by two AutoResetEvents to a dedicated
/// consumer thread that adds it to the total. The shapes of the "context switches are not free" and "async vs
/// ManualResetEvent/AutoResetEvent" write-ups. ChattyPipeline.Fixed does the same work with the analyzer's fixes.
/// </summary>
internal sealed class OrderPipeline : IDisposable
{
    private readonly PriceCatalog _catalog;
    private readonly DiscountService _discounts;
    private readonly AutoResetEvent _orderReady = new(initialState: false);
    private readonly AutoResetEvent _slotFree = new(initialState: true);

    // The hand-off slot: written by the producer while it holds _slotFree, read by the consumer after _orderReady.
    // Null means the producer is done.
    private PricedOrder? _slot;

    private OrderPipeline(PriceCatalog catalog, DiscountService discounts)
    {
        _catalog = catalog;
        _discounts = discounts;
    }

    /// <summary>Prices orders until the budget is spent: how many, and their total after discounts.</summary>
    public static async Task<(long Orders, decimal Total)> RunAsync(PriceCatalog catalog, DiscountService discounts, RunBudget budget)
    {
        using var pipeline = new OrderPipeline(catalog, discounts);
        var totals = new TaskCompletionSource<(long Orders, decimal Total)>(TaskCreationOptions.RunContinuationsAsynchronously);
        var consumer = new Thread(() => pipeline.ConsumeOrders(totals)) { IsBackground = true, Name = "order consumer" };
        consumer.Start();
        await pipeline.ProduceOrdersAsync(budget);
        return await totals.Task;
    }

    public void Dispose()
    {
        _orderReady.Dispose();
        _slotFree.Dispose();
    }

    private async Task ProduceOrdersAsync(RunBudget budget)
    {
        long produced = 0;
        while (budget.ShouldContinue(produced))
        {
            Order order = OrderBook.Create(produced);

            // Started first so that it overlaps the line lookups.
            Task<decimal> discount = _discounts.GetDiscountAsync(order.CustomerId);
            var unitPrices = new List<decimal>(order.Lines.Count);
            foreach (OrderLine line in order.Lines)
            {
                // AC0001: one round trip after another, although no line's price depends on another's.
                unitPrices.Add(await _catalog.GetPriceAsync(line.ProductId));
            }

            // AC0005: "let the consumer run" costs a thread-pool hop per order.
            await Task.Yield();

            // AC0007: a pool thread sleeps in the kernel until the consumer has emptied the slot.
            _slotFree.WaitOne();

            // AC0006: blocks the pool thread whenever the discount is not back yet.
            _slot = new PricedOrder(order, unitPrices, discount.Result);
            _orderReady.Set();
            produced++;
        }

        _slotFree.WaitOne();
        _slot = null;
        _orderReady.Set();
    }

    // Runs on its own thread, not async code, so no rule flags it; but every hand-off wakes it through the kernel:
    // the thread switch per order of the write-ups, which the Fixed twin's channel avoids.
    private void ConsumeOrders(TaskCompletionSource<(long Orders, decimal Total)> result)
    {
        long orders = 0;
        decimal total = 0;
        while (true)
        {
            _orderReady.WaitOne();
            PricedOrder? priced = _slot;
            _slotFree.Set();
            if (priced is null)
            {
                result.SetResult((orders, total));
                return;
            }

            orders++;
            total += priced.Total;
        }
    }
}
