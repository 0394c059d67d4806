using AsyncCost.Computers;

namespace AsyncCost.Tests.Computers;

/// <summary>Elapsed time per call: from when the call began (the thread's previous event before its first suspension,
/// TraceOperationBegin) to its completion (TraceOperationEnd).</summary>
public class HopComputerElapsedTests
{
    private const int Main = 100, Worker = 200;
    private const string Delay = "<DelayOnceAsync>d__9";

    private static MethodHops Method(HopComputer hops, string name = Delay) => Assert.Single(hops.Results(), m => m.StateMachineName == name);

    [Fact]
    public void A_call_on_a_thread_with_no_earlier_event_is_timed_from_its_first_suspension_to_its_completion()
    {
        var hops = new HopComputer();
        hops.OnOperationBegin(Main, 1, "Async: " + Delay, 1_000);
        hops.OnOperationBegin(Worker, 2, "Async: " + Delay, 1_005); // a second call, concurrent with the first
        hops.OnOperationEnd(1, 1_020);
        hops.OnOperationEnd(2, 1_035);

        var elapsed = Method(hops).Elapsed;
        Assert.Equal(2, elapsed.Count);
        Assert.Equal(20 + 30, elapsed.SumMs, 9);
        Assert.Equal((20 * 20) + (30 * 30), elapsed.SumOfSquaresMs, 9);
        Assert.Equal(2, Method(hops).SuspendingCalls);
    }

    [Fact]
    public void A_call_begun_before_the_stream_or_pending_at_its_end_is_not_timed_and_a_pending_one_is_counted_as_such()
    {
        var window = new HopComputer();
        window.OnOperationEnd(7, 1_003); // its box was created before the window opened: not timed, no method known
        window.OnOperationBegin(Main, 1, "Async: " + Delay, 1_000);
        window.OnOperationEnd(1, 1_020);
        window.OnOperationBegin(Worker, 2, "Async: " + Delay, 1_490); // still pending when the window closes
        window.OnOperationEnd(99, 1_500); // the window's last event: the pending call lasted at least 10 ms

        var pass = new HopComputer();
        pass.Add(window);

        var method = Method(pass);
        Assert.Equal((1, 20.0), (method.Elapsed.Count, method.Elapsed.SumMs));
        Assert.Equal(2, method.SuspendingCalls);
        Assert.Equal((1, 10.0), (method.PendingCalls, method.PendingMs));
    }

    [Fact]
    public void Windows_add_their_timed_calls_and_their_pending_ones()
    {
        var pass = new HopComputer();
        for (var window = 0; window < 3; window++)
        {
            var stream = new HopComputer();
            stream.OnOperationBegin(Main, 1, "Async: " + Delay, 0);
            stream.OnOperationEnd(1, 10 * (window + 1));
            stream.OnOperationBegin(Main, 2, "Async: " + Delay, 100);
            pass.Add(stream);
        }

        var method = Method(pass);
        Assert.Equal((3, 60.0, 1_400.0), (method.Elapsed.Count, method.Elapsed.SumMs, method.Elapsed.SumOfSquaresMs));
        Assert.Equal(3, method.PendingCalls);
        Assert.Equal(3, pass.Windows);
    }

    [Fact]
    public void A_call_that_spans_a_live_intervals_edge_is_timed_in_the_interval_it_ends_in()
    {
        var hops = new HopComputer();
        hops.OnOperationBegin(Main, 1, "Async: " + Delay, 1_000);
        var first = hops.TakeCounts();
        hops.OnOperationEnd(1, 1_250);
        var second = hops.TakeCounts();

        Assert.Equal(0, Method(first).Elapsed.Count);
        Assert.Equal((1, 250.0), (Method(second).Elapsed.Count, Method(second).Elapsed.SumMs));
        // A live interval's computer follows no box of its own: nothing pending when it is added.
        var pass = new HopComputer();
        pass.Add(first);
        pass.Add(second);
        Assert.Equal(0, Method(pass).PendingCalls);
    }

    [Fact]
    public void A_box_forgotten_when_the_tracking_table_overflows_is_not_timed()
    {
        var hops = new HopComputer();
        hops.OnOperationBegin(Main, 1, "Async: " + Delay, 0);
        for (var task = 2; task <= HopComputer.MaxTrackedTasks + 1; task++)
        {
            hops.OnOperationBegin(Main, task, "Async: <NeverEndsAsync>d__1", 0);
        }
        hops.OnOperationBegin(Worker, HopComputer.MaxTrackedTasks + 2, "Async: " + Delay, 5);
        hops.OnOperationEnd(1, 20); // created before the table was cleared
        hops.OnOperationEnd(HopComputer.MaxTrackedTasks + 2, 25);

        Assert.True(hops.Overflowed);
        Assert.Equal((1, 20.0), (Method(hops).Elapsed.Count, Method(hops).Elapsed.SumMs));
    }

    [Fact]
    public void A_call_is_timed_from_the_threads_previous_event_so_its_synchronous_first_segment_counts()
    {
        // A work item starts at 1,000; the call computes until its first await suspends it at 1,005 (Task.Yield).
        var hops = new HopComputer();
        hops.OnWorkItemDequeued(Worker, 1_000);
        hops.OnOperationBegin(Worker, 1, "Async: " + Delay, 1_005);
        hops.OnContinuationScheduled(Worker, 2, 1_005);
        // Its caller's own call, concurrent, on a thread whose earlier code was not seen: timed from its suspension.
        hops.OnOperationBegin(Main, 3, "Async: " + Delay, 1_010);
        hops.OnOperationEnd(1, 1_020);
        hops.OnOperationEnd(3, 1_030);

        Assert.Equal((2, 20.0 + 20.0), (Method(hops).Elapsed.Count, Method(hops).Elapsed.SumMs));
    }

    [Fact]
    public void A_call_that_awaits_a_callee_it_called_in_its_first_segment_began_when_the_callee_did()
    {
        const string Caller = "<CheckoutAsync>d__2";
        var hops = new HopComputer();
        hops.OnWorkItemDequeued(Worker, 1_000);
        hops.OnOperationBegin(Worker, 1, "Async: " + Delay, 1_004); // the callee suspends first
        hops.OnContinuationScheduled(Worker, 2, 1_004);
        hops.OnOperationBegin(Worker, 3, "Async: " + Caller, 1_006); // then its caller, on awaiting it
        hops.OnWaitBegin(Worker, 1, 3, behavior: 2, timestampMs: 1_006);
        // A sibling called after the caller suspended began after that, not with the work item.
        hops.OnOperationBegin(Worker, 4, "Async: " + Delay, 1_008);
        hops.OnContinuationScheduled(Worker, 5, 1_008);
        hops.OnOperationEnd(1, 1_020);
        hops.OnOperationEnd(3, 1_021);
        hops.OnOperationEnd(4, 1_030);

        Assert.Equal(21.0, Method(hops, Caller).Elapsed.SumMs, 9);
        Assert.Equal(20.0 + 24.0, Method(hops).Elapsed.SumMs, 9);
    }

    [Fact]
    public void A_callee_created_in_an_earlier_run_of_the_thread_does_not_move_its_awaiters_start()
    {
        const string Caller = "<CheckoutAsync>d__2";
        var hops = new HopComputer();
        hops.OnWorkItemDequeued(Worker, 1_000);
        hops.OnOperationBegin(Worker, 1, "Async: " + Delay, 1_004); // a task started earlier and awaited later
        hops.OnContinuationScheduled(Worker, 2, 1_004);
        hops.OnWorkItemDequeued(Worker, 1_050);
        hops.OnOperationBegin(Worker, 3, "Async: " + Caller, 1_052);
        hops.OnWaitBegin(Worker, 1, 3, behavior: 2, timestampMs: 1_052);
        hops.OnOperationEnd(1, 1_060);
        hops.OnOperationEnd(3, 1_061);

        Assert.Equal(11.0, Method(hops, Caller).Elapsed.SumMs, 9);
    }

    [Fact]
    public void An_event_out_of_order_never_makes_a_negative_duration()
    {
        var hops = new HopComputer();
        hops.OnOperationBegin(Main, 1, "Async: " + Delay, 1_000);
        hops.OnOperationEnd(1, 999.5); // two threads' clocks read a hair apart

        Assert.Equal((1, 0.0), (Method(hops).Elapsed.Count, Method(hops).Elapsed.SumMs));
    }
}
