using AsyncCost.Computers;

namespace AsyncCost.Tests.Computers;

/// <summary>Event sequences as recorded from the workload on .NET 10 (thread ids, task ids and order kept).</summary>
public class HopComputerTests
{
    private const int Main = 100, Worker = 200, Worker2 = 300;

    [Fact]
    public void Task_Yield_is_one_hop_per_call()
    {
        var hops = new HopComputer();
        // First call: the method suspends on Task.Yield on the main thread; its continuation runs on a pool thread.
        hops.OnOperationBegin(Main, 1, "Async: <YieldOnceAsync>d__0", 0);
        hops.OnContinuationScheduled(Main, 2, timestampMs: 0);
        hops.OnOperationBegin(Main, 5, "Async: <<<Main>$>g__RunYield|0_3>d", 0); // the driver suspends awaiting task 1
        hops.OnWaitBegin(Main, 1, 5, behavior: 2, timestampMs: 0);
        hops.OnWorkItemDequeued(Worker, timestampMs: 0);
        hops.OnContinuationStarted(Worker, 2, timestampMs: 0);
        hops.OnOperationEnd(1, 0);
        hops.OnWaitEnd(Worker, 1, timestampMs: 0); // the driver resumes inline: not a hop
        // Second call, now on the worker.
        hops.OnOperationBegin(Worker, 7, "Async: <YieldOnceAsync>d__0", 0);
        hops.OnContinuationScheduled(Worker, 8, timestampMs: 0);
        hops.OnWaitBegin(Worker, 7, 5, behavior: 2, timestampMs: 0);
        hops.OnWorkItemDequeued(Worker, timestampMs: 0);
        hops.OnContinuationStarted(Worker, 8, timestampMs: 0);
        hops.OnOperationEnd(7, 0);
        hops.OnWaitEnd(Worker, 7, timestampMs: 0);

        var yield = Assert.Single(hops.Results(), m => m.StateMachineName == "<YieldOnceAsync>d__0");
        Assert.Equal(2, yield.SuspendingCalls);
        Assert.Equal(2, yield.Hops);
        Assert.Equal(0, Assert.Single(hops.Results(), m => m.StateMachineName.Contains("RunYield", StringComparison.Ordinal)).Hops);
        Assert.Equal(2, hops.Hops);
    }

    [Fact]
    public void Calls_over_before_the_thread_pools_first_event_are_not_counted_those_still_suspended_are()
    {
        // The session's TPL provider is live before its thread-pool provider: the first call hops unseen.
        var hops = new HopComputer();
        hops.OnOperationBegin(Main, 5, "Async: <<<Main>$>g__RunYield|0_3>d", 0);
        hops.OnOperationBegin(Main, 1, "Async: <YieldOnceAsync>d__0", 0);
        hops.OnContinuationScheduled(Main, 2, timestampMs: 0);
        hops.OnWaitBegin(Main, 1, 5, behavior: 2, timestampMs: 0);
        hops.OnContinuationStarted(Worker, 2, timestampMs: 0);
        hops.OnOperationEnd(1, 0);
        hops.OnWaitEnd(Worker, 1, timestampMs: 0);
        // The second call suspends; the pool's first event is its continuation's work item.
        hops.OnOperationBegin(Worker, 7, "Async: <YieldOnceAsync>d__0", 0);
        hops.OnContinuationScheduled(Worker, 8, timestampMs: 0);
        hops.OnWaitBegin(Worker, 7, 5, behavior: 2, timestampMs: 0);
        hops.OnWorkItemDequeued(Worker2, timestampMs: 0);
        hops.OnContinuationStarted(Worker2, 8, timestampMs: 0);
        hops.OnOperationEnd(7, 0);
        hops.OnWaitEnd(Worker2, 7, timestampMs: 0);

        var yield = Assert.Single(hops.Results(), m => m.StateMachineName == "<YieldOnceAsync>d__0");
        Assert.Equal((1, 1), (yield.SuspendingCalls, yield.Hops));
        Assert.Equal(1, Assert.Single(hops.Results(), m => m.StateMachineName.Contains("RunYield", StringComparison.Ordinal)).SuspendingCalls);
    }

    [Fact]
    public void An_async_iterators_Task_Yield_is_its_own_hop_and_each_suspending_MoveNextAsync_is_a_call()
    {
        // await foreach over an iterator that yields after Task.Yield, the loop body awaiting a method that hops (task 30).
        // The driver (box 5) resumes on TaskWaitEnd, then calls MoveNextAsync: the iterator (box 1) runs under the driver's
        // run, with no event of its own, and schedules its Yield continuation there.
        var hops = new HopComputer();
        hops.OnOperationBegin(Main, 1, "Async: <CountAsync>d__3", 0);
        hops.OnContinuationScheduled(Main, 2, timestampMs: 0);
        hops.OnOperationBegin(Main, 5, "Async: <<<Main>$>g__RunIteratorAwaiting|0_5>d", 0);
        for (var item = 0; item < 3; item++)
        {
            var continuation = 2 + (item * 10);
            hops.OnWorkItemDequeued(Worker, timestampMs: 0);
            hops.OnContinuationStarted(Worker, continuation, timestampMs: 0);
            hops.OnSynchronousWorkBegin(Worker, 1, work: 2, timestampMs: 0);  // the iterator resumes and yields:
            hops.OnSynchronousWorkBegin(Worker, 5, work: 2, timestampMs: 0);  // the driver resumes inline
            hops.OnOperationBegin(Worker, continuation + 5, "Async: <YieldOnceAsync>d__0", 0);
            hops.OnContinuationScheduled(Worker, continuation + 6, timestampMs: 0);
            hops.OnWaitBegin(Worker, continuation + 5, 5, behavior: 2, timestampMs: 0);
            hops.OnSynchronousWorkEnd(Worker, timestampMs: 0);
            hops.OnSynchronousWorkEnd(Worker, timestampMs: 0);
            hops.OnWorkItemDequeued(Worker2, timestampMs: 0);
            hops.OnContinuationStarted(Worker2, continuation + 6, timestampMs: 0);
            hops.OnSynchronousWorkBegin(Worker2, continuation + 5, work: 2, timestampMs: 0);
            hops.OnSynchronousWorkBegin(Worker2, continuation + 5, work: 0, timestampMs: 0); // its task completes: the driver resumes inline
            hops.OnWaitEnd(Worker2, continuation + 5, timestampMs: 0);
            hops.OnSynchronousWorkBegin(Worker2, 5, work: 2, timestampMs: 0);
            if (item < 2)
            {
                hops.OnContinuationScheduled(Worker2, continuation + 10, timestampMs: 0); // MoveNextAsync: the iterator's next Task.Yield
            }
            hops.OnSynchronousWorkEnd(Worker2, timestampMs: 0);
            hops.OnSynchronousWorkEnd(Worker2, timestampMs: 0);
            hops.OnOperationEnd(continuation + 5, 0);
            hops.OnSynchronousWorkEnd(Worker2, timestampMs: 0);
        }

        var iterator = Assert.Single(hops.Results(), m => m.StateMachineName == "<CountAsync>d__3");
        Assert.Equal((3, 3, 1), (iterator.SuspendingCalls, iterator.Hops, iterator.Boxes));
        Assert.Equal(3, Assert.Single(hops.Results(), m => m.StateMachineName == "<YieldOnceAsync>d__0").Hops);
        Assert.Equal(0, Assert.Single(hops.Results(), m => m.StateMachineName.Contains("RunIteratorAwaiting", StringComparison.Ordinal)).Hops);
        Assert.Equal(6, hops.Hops);
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void A_continuation_registered_after_its_callee_completed_is_counted_apart_not_as_a_hop(bool calleeCompletesFirst)
    {
        // The driver (box 5) awaits YieldOnceAsync (box 1), whose Task.Yield continuation completes it on another thread
        // before the driver's continuation is registered: the registration fails and queues the continuation to the pool.
        var hops = new HopComputer();
        hops.OnOperationBegin(Main, 1, "Async: <YieldOnceAsync>d__0", 0);
        hops.OnContinuationScheduled(Main, 2, timestampMs: 0);
        hops.OnWorkItemDequeued(Worker, timestampMs: 0);
        hops.OnContinuationStarted(Worker, 2, timestampMs: 0);
        hops.OnSynchronousWorkBegin(Worker, 1, work: 2, timestampMs: 0);
        if (calleeCompletesFirst)
        {
            hops.OnOperationEnd(1, 0);
        }
        hops.OnOperationBegin(Main, 5, "Async: <DriveYieldsAsync>d__2", 0);
        hops.OnWaitBegin(Main, 1, 5, behavior: 2, timestampMs: 0);
        if (!calleeCompletesFirst)
        {
            hops.OnOperationEnd(1, 0);
        }
        hops.OnSynchronousWorkEnd(Worker, timestampMs: 0);
        hops.OnWorkItemDequeued(Worker2, timestampMs: 0);
        hops.OnWaitEnd(Worker2, 1, timestampMs: 0);
        hops.OnSynchronousWorkBegin(Worker2, 5, work: 2, timestampMs: 0);

        Assert.Equal(0, Assert.Single(hops.Results(), m => m.StateMachineName == "<DriveYieldsAsync>d__2").Hops);
        Assert.Equal(1, Assert.Single(hops.Results(), m => m.StateMachineName == "<YieldOnceAsync>d__0").Hops);
        Assert.Equal((1, 1), (hops.LateContinuations, hops.Hops));
    }

    [Fact]
    public void Adding_a_later_streams_hops_adds_each_methods_counts()
    {
        var first = new HopComputer();
        first.OnOperationBegin(Main, 1, "Async: <YieldOnceAsync>d__0", 0);
        first.OnContinuationScheduled(Main, 2, timestampMs: 0);
        first.OnWorkItemDequeued(Worker, timestampMs: 0);
        first.OnContinuationStarted(Worker, 2, timestampMs: 0);
        var second = new HopComputer();
        second.OnOperationBegin(Worker, 7, "Async: <YieldOnceAsync>d__0", 0);
        second.OnContinuationScheduled(Worker, 8, timestampMs: 0);
        second.OnWorkItemDequeued(Worker2, timestampMs: 0);
        second.OnContinuationStarted(Worker2, 8, timestampMs: 0);
        second.OnWaitBegin(Worker2, 11, 0, behavior: 1, timestampMs: 10); // the resumed method blocks on task 11 for 2.5 ms
        second.OnWaitEnd(Worker2, 11, timestampMs: 12.5);
        second.OnOperationBegin(Worker, 9, "Async: <OtherAsync>d__1", 0);

        first.Add(second);

        var yield = Assert.Single(first.Results(), m => m.StateMachineName == "<YieldOnceAsync>d__0");
        Assert.Equal((2, 2, 1, 2.5), (yield.SuspendingCalls, yield.Hops, yield.BlockingWaits, yield.BlockedMilliseconds));
        Assert.Equal(1, Assert.Single(first.Results(), m => m.StateMachineName == "<OtherAsync>d__1").SuspendingCalls);
        Assert.Equal((2, 2), (first.Hops, first.WorkItems));
    }

    [Fact]
    public void An_awaited_task_completed_on_another_thread_hops_when_its_continuation_is_queued()
    {
        var hops = new HopComputer();
        hops.OnOperationBegin(Main, 1, "Async: <HandoffAsync>d__1", 0);
        hops.OnWaitBegin(Main, 2, 1, behavior: 2, timestampMs: 0); // awaits the TaskCompletionSource's task 2
        hops.OnWorkItemDequeued(Worker, timestampMs: 0);           // the completer work item: SetResult queues the continuation
        hops.OnWorkItemDequeued(Worker2, timestampMs: 0);          // the continuation's work item
        hops.OnWaitEnd(Worker2, 2, timestampMs: 0);

        var handoff = Assert.Single(hops.Results());
        Assert.Equal(1, handoff.Hops);
        Assert.Equal(2, hops.WorkItems);
    }

    [Fact]
    public void A_continuation_run_inline_inside_another_work_item_is_not_a_hop()
    {
        var hops = new HopComputer();
        hops.OnOperationBegin(Main, 1, "Async: <HandoffAsync>d__1", 0);
        hops.OnWaitBegin(Main, 2, 1, behavior: 2, timestampMs: 0);
        hops.OnWorkItemDequeued(Worker, timestampMs: 0);
        hops.OnOperationBegin(Worker, 9, "Async: <OtherAsync>d__2", 0); // the work item does TPL work first
        hops.OnWaitEnd(Worker, 2, timestampMs: 0);                                    // then completes task 2 inline

        Assert.Equal(0, hops.Results().Sum(m => m.Hops));
    }

    [Fact]
    public void Continuations_scheduled_before_the_session_count_as_unattributed_hops()
    {
        var hops = new HopComputer();
        hops.OnWorkItemDequeued(Worker, timestampMs: 0);
        hops.OnContinuationStarted(Worker, 77, timestampMs: 0);

        Assert.Equal(1, hops.Hops);
        Assert.Equal(1, hops.UnattributedHops);
        Assert.Empty(hops.Results());
    }

    [Fact]
    public void A_blocking_wait_belongs_to_the_method_that_resumed_on_the_thread_not_to_the_awaited_task()
    {
        var hops = new HopComputer();
        hops.OnOperationBegin(Main, 1, "Async: <CallerAsync>d__0", 0);
        hops.OnContinuationScheduled(Main, 2, timestampMs: 0);
        hops.OnWorkItemDequeued(Worker, timestampMs: 0);
        hops.OnContinuationStarted(Worker, 2, timestampMs: 0); // the caller resumes on the worker
        hops.OnOperationBegin(Worker, 5, "Async: <CalleeAsync>d__1", 0); // it calls a method that suspends...
        hops.OnWaitBegin(Worker, 5, 0, behavior: 1, timestampMs: 100); // ...and blocks on its task
        hops.OnWaitEnd(Worker, 5, timestampMs: 104);
        // Code outside any resumed method blocks too: a plain work item.
        hops.OnWorkItemDequeued(Worker2, timestampMs: 0);
        hops.OnWaitBegin(Worker2, 9, 0, behavior: 1, timestampMs: 200);
        hops.OnWaitEnd(Worker2, 9, timestampMs: 201);

        var caller = Assert.Single(hops.Results(), m => m.StateMachineName == "<CallerAsync>d__0");
        Assert.Equal((1, 4.0), (caller.BlockingWaits, caller.BlockedMilliseconds));
        Assert.Equal(0, Assert.Single(hops.Results(), m => m.StateMachineName == "<CalleeAsync>d__1").BlockingWaits);
        Assert.Equal((1, 1.0), (hops.UnattributedBlockingWaits, hops.UnattributedBlockedMilliseconds));
    }

    [Fact]
    public void A_methods_longest_blocking_wait_is_kept_beside_the_sum_over_streams_added()
    {
        HopComputer Stream(params double[] waits)
        {
            var hops = new HopComputer();
            hops.OnOperationBegin(Main, 1, "Async: <CallerAsync>d__0", timestampMs: 0);
            hops.OnContinuationScheduled(Main, 2, timestampMs: 0);
            hops.OnWorkItemDequeued(Worker, timestampMs: 0);
            hops.OnContinuationStarted(Worker, 2, timestampMs: 0);
            var at = 100.0;
            foreach (var (wait, task) in waits.Select((w, i) => (w, 10 + i)))
            {
                hops.OnWaitBegin(Worker, task, 0, behavior: 1, timestampMs: at);
                hops.OnWaitEnd(Worker, task, timestampMs: at + wait);
                at += wait + 1;
            }
            return hops;
        }

        var first = Stream(1, 14.7, 2);
        first.Add(Stream(3));

        var caller = Assert.Single(first.Results(), m => m.StateMachineName == "<CallerAsync>d__0");
        Assert.Equal(4, caller.BlockingWaits);
        Assert.Equal(20.7, caller.BlockedMilliseconds, 9);
        Assert.Equal(14.7, caller.LongestBlockMilliseconds, 9);
    }
}

public class CounterComputerTests
{
    [Fact]
    public void Sums_increments_and_keeps_gauge_peaks()
    {
        var counters = new CounterComputer();
        counters.OnCounter("threadpool-completed-items-count", 10);
        counters.OnCounter("threadpool-completed-items-count", 5);
        counters.OnCounter("threadpool-queue-length", 3);
        counters.OnCounter("threadpool-queue-length", 1);
        counters.OnCounter("alloc-rate", 1024);
        counters.OnCounter("cpu-usage", 50);

        Assert.Equal(15, counters.CompletedWorkItems);
        Assert.Equal(3, counters.MaxQueueLength);
        Assert.Equal(1024, counters.AllocatedBytes);
        Assert.Null(counters.LockContentions);
        Assert.Equal(5, counters.Samples);
    }

    [Fact]
    public void Adding_a_streams_counters_sums_increments_and_keeps_the_higher_peak()
    {
        var first = new CounterComputer();
        first.OnCounter("threadpool-completed-items-count", 10);
        first.OnCounter("threadpool-queue-length", 3);
        var second = new CounterComputer();
        second.OnCounter("threadpool-completed-items-count", 5);
        second.OnCounter("threadpool-queue-length", 7);
        second.OnCounter("alloc-rate", 1024);

        first.Add(second);

        Assert.Equal(15, first.CompletedWorkItems);
        Assert.Equal(7, first.MaxQueueLength);
        Assert.Equal(1024, first.AllocatedBytes);
        Assert.Null(first.LockContentions);
        Assert.Equal(5, first.Samples);
    }
}
