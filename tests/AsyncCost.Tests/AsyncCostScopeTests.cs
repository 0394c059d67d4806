using System.Runtime.CompilerServices;

namespace AsyncCost.Tests;

public class AsyncCostScopeTests
{
    private static readonly Dictionary<string, decimal> Prices = new(StringComparer.Ordinal) { ["MSFT"] = 421.17m };

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static async ValueTask<decimal> PriceAsync(string symbol)
    {
        if (Prices.TryGetValue(symbol, out var price))
        {
            return price;
        }
        await Task.Yield();
        return 0;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static async Task<decimal> PriceTaskAsync(string symbol) => await PriceAsync(symbol);

    /// <summary>Calls the ValueTask method n times; every call completes synchronously (it is read only when it did).</summary>
    private static decimal SumValueTasks(int n)
    {
        decimal sum = 0;
        for (var i = 0; i < n; i++)
        {
            var price = PriceAsync("MSFT");
            sum += price.IsCompletedSuccessfully ? price.Result : throw new InvalidOperationException("suspended");
        }
        return sum;
    }

    private static decimal SumTasks(int n)
    {
        decimal sum = 0;
        for (var i = 0; i < n; i++)
        {
            var price = PriceTaskAsync("MSFT");
            sum += price.IsCompletedSuccessfully ? price.Result : throw new InvalidOperationException("suspended");
        }
        return sum;
    }

    /// <summary>
    /// The bytes this thread allocates in <paramref name="run"/> once the code is steady: tiered compilation replaces a method
    /// ~100 ms after its first 30 calls, and a replacement that lands inside the window allocates the runtime's own data on
    /// this thread (8 KB seen on a loaded machine). So: warm up past it, then take the quietest of three windows.
    /// </summary>
    private static (decimal Sum, AsyncCostDelta Delta) SteadyWindow(Func<decimal> run)
    {
        for (var i = 0; i < 3; i++)
        {
            run();
            Thread.Sleep(150);
        }
        (decimal Sum, AsyncCostDelta Delta)? quietest = null;
        for (var attempt = 0; attempt < 3; attempt++)
        {
            var scope = AsyncCostScope.Start();
            var sum = run();
            var delta = scope.Stop();
            if (quietest is null || delta.CurrentThreadAllocatedBytes < quietest.Value.Delta.CurrentThreadAllocatedBytes)
            {
                quietest = (sum, delta);
            }
        }
        return quietest!.Value;
    }

    [Fact]
    public void A_synchronously_completing_ValueTask_path_allocates_nothing()
    {
        var (sum, delta) = SteadyWindow(() => SumValueTasks(10_000));

        Assert.Equal(4_211_700m, sum);
        Assert.Equal(0, delta.CurrentThreadAllocatedBytes);
    }

    [Fact]
    public void A_Task_of_decimal_result_costs_its_task_per_call()
    {
        var (_, delta) = SteadyWindow(() => SumTasks(1_000));

        Assert.InRange(delta.CurrentThreadAllocatedBytes!.Value / 1_000.0, 80, 81); // one Task<decimal> (80 B on x64) per call
        Assert.True(delta.AllocatedBytes >= delta.CurrentThreadAllocatedBytes);
    }

    [Fact]
    public async Task Counts_thread_pool_work_items_and_context_switches()
    {
        var scope = AsyncCostScope.Start();
        for (var i = 0; i < 20; i++)
        {
            await Task.Run(() => Thread.Sleep(1));
        }
        var delta = scope.Stop();

        Assert.True(delta.CompletedWorkItems >= 20, $"{delta.CompletedWorkItems} work items");
        Assert.True(delta.VoluntaryContextSwitches >= 20, $"{delta.VoluntaryContextSwitches} voluntary switches");
    }
}
