using AsyncCost.InProcess;

namespace AsyncCost.OpenTelemetry.Tests;

[Collection(InProcessListening.Name)]
public sealed class AsyncCostListenerTests
{
    [Fact]
    public async Task Bytes_per_call_of_a_yielding_method_match_what_the_process_allocated()
    {
        const int Calls = 1_500_000;
        using var listener = new AsyncCostListener(HopDutyCycle.Off);
        var allocated = await Workload.RunAsync(Calls);
        await Workload.SettleAsync(TimeSpan.FromSeconds(1));

        var snapshot = listener.Snapshot();
        var method = Assert.Single(snapshot.Methods, m => m.MethodKey == Workload.YieldOnceKey);
        var truth = (double)allocated / Calls; // the box is all a Task.Yield call allocates with TPL events off
        Assert.InRange(method.Bytes / Calls, truth * 0.85, truth * 1.15);
        Assert.InRange(method.Calls, Calls * 0.85, Calls * 1.15);
        Assert.Equal(0, snapshot.ExcludedAllocationSamples);
    }

    [Fact]
    public async Task Always_on_hop_stream_counts_every_suspension_and_keeps_no_allocation_figure()
    {
        const int Calls = 20_000;
        using var listener = new AsyncCostListener(HopDutyCycle.AlwaysOn(TimeSpan.FromMilliseconds(300)));
        await Workload.SettleAsync(TimeSpan.FromMilliseconds(100)); // the first window opens on the timer thread
        await Workload.RunAsync(Calls);
        await Workload.SettleAsync(TimeSpan.FromMilliseconds(700));

        var snapshot = listener.Snapshot();
        var method = Assert.Single(snapshot.Methods, m => m.MethodKey == Workload.YieldOnceKey);
        Assert.InRange(method.Suspensions, Calls * 0.98, Calls * 1.0);
        Assert.InRange(method.Hops, Calls * 0.9, Calls * 1.0);
        Assert.Equal(0, method.Bytes);
        Assert.True(snapshot.ExcludedAllocationSamples > 0, "allocations recorded with TPL on are dropped");
    }

    [Fact]
    public async Task Duty_cycled_hop_stream_scales_its_windows_and_drops_their_allocations()
    {
        using var listener = new AsyncCostListener(new HopDutyCycle(TimeSpan.FromMilliseconds(200), TimeSpan.FromMilliseconds(400)));
        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(2);
        var calls = 0;
        while (DateTime.UtcNow < deadline)
        {
            // Paced like a service serving requests: TPL tracing slows each call, not how many calls arrive.
            await Workload.RunAsync(200);
            calls += 200;
            await Task.Delay(10);
        }
        await Workload.SettleAsync(TimeSpan.FromMilliseconds(500));

        var snapshot = listener.Snapshot();
        var method = Assert.Single(snapshot.Methods, m => m.MethodKey == Workload.YieldOnceKey);
        Assert.True(snapshot.HopWindows >= 3, $"{snapshot.HopWindows} windows closed");
        Assert.True(snapshot.ExcludedAllocationSamples > 0);
        // Half the time on, counts doubled: an estimate of every call, within what the windows' edges and the rate's wobble allow.
        Assert.InRange(method.Suspensions, calls * 0.6, calls * 1.4);
    }

    [Fact]
    public void Duty_cycle_that_cannot_run_is_refused_with_the_reason()
    {
        var error = Assert.Throws<ArgumentException>(() => new AsyncCostListener(new HopDutyCycle(TimeSpan.FromSeconds(2), TimeSpan.FromSeconds(1))));
        Assert.Contains("must not be longer than the hop period", error.Message, StringComparison.Ordinal);
    }
}
