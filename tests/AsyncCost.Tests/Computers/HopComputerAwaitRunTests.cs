using AsyncCost.Computers;

namespace AsyncCost.Tests.Computers;

/// <summary>Runs of awaits: the calls of one callee a method awaits one after another (a loop's execution), and what running
/// each run's calls together would have saved.</summary>
public class HopComputerAwaitRunTests
{
    private const int Worker = 200;
    private const string Loop = "<ProduceOrdersAsync>d__4", Price = "<GetPriceAsync>d__0";
    private const int LoopBox = 10;

    private static MethodHops Method(HopComputer hops, string name) => Assert.Single(hops.Results(), m => m.StateMachineName == name);

    /// <summary>The loop's box awaits a call of GetPriceAsync that itself awaits a timer, from <paramref name="startMs"/>
    /// (the loop's resumption) to <paramref name="endMs"/>.</summary>
    private static void AwaitPrice(HopComputer hops, int box, int timer, double startMs, double endMs)
    {
        hops.OnOperationBegin(Worker, box, "Async: " + Price, startMs + 0.1);
        hops.OnWaitBegin(Worker, timer, box, behavior: 2, timestampMs: startMs + 0.1);
        hops.OnWaitBegin(Worker, box, LoopBox, behavior: 2, timestampMs: startMs + 0.1);
        hops.OnWorkItemDequeued(Worker, endMs);
        hops.OnWaitEnd(Worker, timer, endMs);
        hops.OnOperationEnd(box, endMs);
        hops.OnWaitEnd(Worker, box, endMs); // the loop resumes
    }

    /// <summary>A hop computer that saw the loop's box suspend on something else and resume at 1 ms.</summary>
    private static HopComputer ResumedLoop()
    {
        var hops = new HopComputer();
        hops.OnWorkItemDequeued(Worker, 0);
        hops.OnOperationBegin(Worker, LoopBox, "Async: " + Loop, 0);
        hops.OnWaitBegin(Worker, 90, LoopBox, behavior: 2, timestampMs: 0);
        hops.OnWorkItemDequeued(Worker, 1);
        hops.OnWaitEnd(Worker, 90, 1); // the loop resumes
        return hops;
    }

    [Fact]
    public void Calls_awaited_one_after_another_make_a_run_that_would_save_all_but_its_longest_call()
    {
        var hops = new HopComputer();
        hops.OnWorkItemDequeued(Worker, 0);
        // The loop's first call, in its own first segment: the loop's box is created on awaiting it.
        hops.OnOperationBegin(Worker, 1, "Async: " + Price, 0.1);
        hops.OnWaitBegin(Worker, 91, 1, behavior: 2, timestampMs: 0.1);
        hops.OnOperationBegin(Worker, LoopBox, "Async: " + Loop, 0.2);
        hops.OnWaitBegin(Worker, 1, LoopBox, behavior: 2, timestampMs: 0.2);
        hops.OnWorkItemDequeued(Worker, 4);
        hops.OnWaitEnd(Worker, 91, 4);
        hops.OnOperationEnd(1, 4);
        hops.OnWaitEnd(Worker, 1, 4);
        AwaitPrice(hops, 2, 92, 4, 10);
        AwaitPrice(hops, 3, 93, 10, 15);
        // Task.Yield: the loop suspends on something else, and the run ends. The next order's run follows.
        hops.OnContinuationScheduled(Worker, 50, 15);
        hops.OnWorkItemDequeued(Worker, 16);
        hops.OnContinuationStarted(Worker, 50, 16);
        AwaitPrice(hops, 4, 94, 16, 20);
        hops.OnOperationEnd(LoopBox, 21);

        var price = Method(hops, Loop).Awaited[Price];
        Assert.Equal((2, 4), (price.Runs, price.Calls));
        Assert.Equal((2, 4 + 6 + 5 + 4.0), (price.Sequential.Count, price.Sequential.SumMs));
        // Run one: 4 + 6 + 5 ms less its longest, 6; run two, one call: nothing to overlap.
        Assert.Equal((2, 4 + 5 + 0.0), (price.SavingIfTogether.Count, price.SavingIfTogether.SumMs));
        // Had they finished together: run one less its mean call (5 ms), run two nothing.
        Assert.Equal((2, 15 - 5 + 0.0), (price.SavingIfOverlapping.Count, price.SavingIfOverlapping.SumMs));
        Assert.Equal(0, price.Groups); // each call was awaited directly: none ran together
    }

    [Fact]
    public void A_timer_the_loop_blocks_on_between_its_runs_does_not_keep_the_run_going()
    {
        // As above, and after each run the loop blocks on a Task.Delay it created (an operation of its own, not a box)
        // before it yields: the yield is still the loop's, and ends its run.
        var hops = ResumedLoop();
        AwaitPrice(hops, 2, 92, 1, 5);
        AwaitPrice(hops, 3, 93, 5, 10);
        hops.OnOperationBegin(Worker, 60, "Task.Delay", 10.1);
        hops.OnWaitBegin(Worker, 60, 0, behavior: 1, timestampMs: 10.1);
        hops.OnWaitEnd(Worker, 60, 13);
        hops.OnContinuationScheduled(Worker, 50, 13.1);
        hops.OnWorkItemDequeued(Worker, 14);
        hops.OnContinuationStarted(Worker, 50, 14);
        AwaitPrice(hops, 4, 94, 14, 18);
        hops.OnOperationEnd(LoopBox, 19);

        var price = Method(hops, Loop).Awaited[Price];
        Assert.Equal((2, 3), (price.Runs, price.Calls));
        Assert.Equal(4 + 0.0, price.SavingIfTogether.SumMs); // run one, 4 + 5 ms, less its longest; run two, one call
        Assert.Equal(1, Method(hops, Loop).BlockingWaits);
        Assert.Equal(2.9, Method(hops, Loop).BlockedMilliseconds, 9);
    }

    [Fact]
    public void Calls_started_together_make_no_run_and_are_timed_from_the_first_start_to_the_last_end()
    {
        // Task.WhenAll: the resumed loop starts two calls, then awaits the combined task (no box), which they complete
        // without an await event of their own.
        var hops = ResumedLoop();
        hops.OnOperationBegin(Worker, 1, "Async: " + Price, 1.1);
        hops.OnWaitBegin(Worker, 91, 1, behavior: 2, timestampMs: 1.1);
        hops.OnOperationBegin(Worker, 2, "Async: " + Price, 1.2);
        hops.OnWaitBegin(Worker, 92, 2, behavior: 2, timestampMs: 1.2);
        hops.OnWaitBegin(Worker, 77, LoopBox, behavior: 2, timestampMs: 1.3);
        hops.OnWorkItemDequeued(Worker, 5);
        hops.OnWaitEnd(Worker, 91, 5);
        hops.OnOperationEnd(1, 5);
        hops.OnWorkItemDequeued(Worker, 6);
        hops.OnWaitEnd(Worker, 92, 6.5);
        hops.OnOperationEnd(2, 6.5);
        hops.OnWaitEnd(Worker, 77, 6.5);
        hops.OnOperationEnd(LoopBox, 7);

        var price = Method(hops, Loop).Awaited[Price];
        Assert.Equal(0, price.Runs);
        Assert.Equal((1, 2), (price.Groups, price.CallsTogether));
        Assert.Equal(6.5 - 1, price.Together.SumMs, 9); // the first call began at the loop's resumption
    }

    [Fact]
    public void Windows_add_their_runs()
    {
        var pass = new HopComputer();
        for (var window = 0; window < 2; window++)
        {
            var stream = new HopComputer();
            stream.OnWorkItemDequeued(Worker, 0);
            stream.OnOperationBegin(Worker, LoopBox, "Async: " + Loop, 0);
            stream.OnWaitBegin(Worker, 90, LoopBox, behavior: 2, timestampMs: 0); // awaits something else first
            stream.OnWorkItemDequeued(Worker, 1);
            stream.OnWaitEnd(Worker, 90, 1);
            AwaitPrice(stream, 2, 92, 1, 4);
            AwaitPrice(stream, 3, 93, 4, 9);
            stream.OnOperationEnd(LoopBox, 9);
            pass.Add(stream);
        }

        var price = Method(pass, Loop).Awaited[Price];
        Assert.Equal((2, 4, 16.0), (price.Runs, price.Calls, price.Sequential.SumMs));
        Assert.Equal((2, 6.0), (price.SavingIfTogether.Count, price.SavingIfTogether.SumMs));
    }
}
