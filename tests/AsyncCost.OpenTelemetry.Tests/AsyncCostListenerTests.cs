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

    [Fact]
    public async Task A_runtime_that_sends_no_allocation_event_is_named_once_and_hops_are_still_measured()
    {
        var messages = new List<string>();
        using var listener = new AsyncCostListener(HalfTheTime, message => { lock (messages) { messages.Add(message); } }, ignoreAllocationEvents: true);
        await AllocatePastTheSilenceThresholdAsync();

        var snapshot = listener.Snapshot();
        listener.Snapshot();

        var message = Assert.Single(messages);
        Assert.Contains("cannot measure allocations", message, StringComparison.Ordinal);
        Assert.Contains("hops and blocking waits are still measured", message, StringComparison.Ordinal);
        var method = Assert.Single(snapshot.Methods, m => m.MethodKey == Workload.YieldOnceKey);
        Assert.Equal(0, method.Bytes);
        Assert.True(method.Suspensions > 0 && method.Hops > 0, "the hop stream still counts");
    }

    [Fact]
    public async Task A_log_callback_that_throws_never_reaches_the_host()
    {
        var attempts = 0;
        using var listener = new AsyncCostListener(HalfTheTime, _ =>
        {
            Interlocked.Increment(ref attempts);
            throw new InvalidOperationException("the host's logger is down");
        }, ignoreAllocationEvents: true);
        await AllocatePastTheSilenceThresholdAsync(); // awaits run while the listener's callbacks do

        var snapshot = listener.Snapshot(); // says what it cannot measure: the log throws
        listener.Snapshot();

        Assert.Equal(1, attempts);
        Assert.True(Assert.Single(snapshot.Methods, m => m.MethodKey == Workload.YieldOnceKey).Suspensions > 0);
    }

    private static readonly HopDutyCycle HalfTheTime = new(TimeSpan.FromMilliseconds(200), TimeSpan.FromMilliseconds(400));

    /// <summary>Runs the workload, paced, until the process allocated twice what the listener waits for before it says that no
    /// allocation event arrived, across several hop windows.</summary>
    private static async Task AllocatePastTheSilenceThresholdAsync()
    {
        var allocated = 0L;
        while (allocated < 2 * AsyncCostListener.SilentAllocationThreshold)
        {
            allocated += await Workload.RunAsync(10_000);
            await Task.Delay(10);
        }
        await Workload.SettleAsync(TimeSpan.FromMilliseconds(500));
    }
}
