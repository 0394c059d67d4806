using AsyncCost.Testing;
using ChattyPipeline;
using StockPrices.Library;

namespace AsyncCost.Samples.Tests.FixedTwins;

/// <summary>
/// What the Fixed twins' fixes bought stays bought: their code measured in process with AsyncCost.Testing, each budget
/// the cost its fix removed (see samples/README.md). Bytes are checked by the GC's exact count where every call completes
/// on the calling thread, hops and blocking waits by every event counted; an estimate is within its budget at its bound.
/// </summary>
public sealed class FixedTwinBudgetTests
{
    private const int OrdersPerRun = 20;

    // Under the smallest object a call could allocate each time (24 B on x64; the costly twin's Task<decimal> is 80 B, its
    // closure 40 B), rather than 0 B: a budget of 0 B is decided only by the GC's exact count on the calling thread, which a
    // clean-clone CI run once saw at 64 B per call (a Task's size; not charged to these methods by the allocation pass),
    // leaving 0 B "undecided" against the allocation pass's 0 ± 0.2 B.
    private static readonly MethodBudget NoObjectPerCallNothingHopped = new() { BytesPerOperation = 16, HopsPerOperation = 0, BlockingWaitsPerOperation = 0 };

    [Fact]
    public async Task StockPrices_Fixed_cached_quotes_allocate_no_object_per_call_and_never_leave_the_thread()
    {
        var service = new StockPriceService(new SimulatedPriceFeed(TimeSpan.Zero));
        await service.GetPriceInCurrencyAsync("SYM001", "EUR"); // fills the caches: every later call completes synchronously

        // AC0002/AC0003's fixes: a ValueTask and a fast path without a state machine, where the costly twin allocated a
        // Task<decimal> per call (80 B).
        var price = await AsyncCostMeasurement.MeasureAsync(() => service.GetPriceAsync("SYM042"));
        price.AssertWithin("StockPrices.Library.StockPriceService.GetPriceAsync", NoObjectPerCallNothingHopped);
        // AC0009's fix: the local function takes its state as parameters, so the fast path allocates no closure.
        var position = await AsyncCostMeasurement.MeasureAsync(() => service.GetPositionValueAsync("SYM042", 10));
        position.AssertWithin("StockPrices.Library.StockPriceService.GetPositionValueAsync", NoObjectPerCallNothingHopped);
        // GetPriceInCurrencyAsync (AC0002 on the cached exchange rate) is not held to a budget here: measured this way it reads
        // ~160 B per call (allocation pass, ~470 samples) where its cached path should allocate nothing; open in issue 35.
    }

    [Fact]
    public async Task ChattyPipeline_Fixed_producer_yields_once_per_run_and_never_blocks_on_a_task()
    {
        // One operation: a run of 20 orders, the remote services answering at once (a hop each, no timer).
        var cost = await AsyncCostMeasurement.MeasureAsync(
            () => OrderPipeline.RunAsync(new PriceCatalog(TimeSpan.Zero), new DiscountService(TimeSpan.Zero), RunBudget.ForOperations(OrdersPerRun)),
            new MeasurementOptions { WarmupOperations = 20, Operations = 100, AllocationPassTimeLimit = TimeSpan.FromSeconds(3) });

        // AC0006's fix: the discount is awaited, not waited for (the costly twin blocked once per order: 20 per run).
        // AC0005's fix: one Task.Yield before the loop instead of one per order (at least 20 hops per run before); the
        // budget leaves room for the channel's writes resuming through the pool now and then (1.03 per run measured).
        cost.AssertWithin("ChattyPipeline.OrderPipeline.ProduceOrdersAsync", new MethodBudget { BlockingWaitsPerOperation = 0, HopsPerOperation = OrdersPerRun / 2 });
        Assert.Equal(1, cost.Method("ChattyPipeline.OrderPipeline.ProduceOrdersAsync").SuspendingCalls.Value);
        // AC0001's fix does not remove the lookups' round trips (OrderBook.LinesPerOrder lines an order, each a hop to the simulated service):
        // it overlaps them. Their count is the work itself, exact: 80 per run.
        Assert.Equal(OrderBook.LinesPerOrder * OrdersPerRun, cost.Method("ChattyPipeline.PriceCatalog.GetPriceAsync").Hops.Value);
    }
}
