using AsyncCost.Findings;
using AsyncCost.Report;

namespace AsyncCost.Tests.Findings;

/// <summary>A finding's time in a run and in its fix: the first run's findings, their cost-in methods looked up in the second.</summary>
public class FindingTimeChangesTests
{
    private const long Checkouts = 1000;

    // The web sample's shape: the checkout awaits a stock round trip per cart line (AC0001, its cost in Stock.ReserveAsync)
    // and blocks on the discount (AC0006, its own time blocked).
    private static readonly AnalyzerFinding Loop = new("AC0001", "warning", "await in a loop", "/repo/Checkout.cs", 16, 13, "Shop.Checkout.RunAsync", FindingCostKind.Hops)
    {
        CostMethodKeys = ["Shop.Stock.ReserveAsync"],
    };

    private static readonly AnalyzerFinding Blocking = new("AC0006", "warning", "blocks on a task", "/repo/Checkout.cs", 20, 24, "Shop.Checkout.RunAsync", FindingCostKind.Blocking);

    private static Figure Timed(double milliseconds, double bound, long calls) =>
        new() { Value = milliseconds, ErrorBound = bound, Samples = calls, Sampled = true, Source = FigureSource.HopPass };

    private static MethodCost Checkout(double blockedMs, long waits) => new()
    {
        MethodKey = "Shop.Checkout.RunAsync", DisplayName = "Shop.Checkout.RunAsync", SuspendingCalls = Figure.Exact(Checkouts, FigureSource.HopPass),
        BlockingWaits = Figure.Exact(waits, FigureSource.HopPass), BlockedMilliseconds = Figure.Exact(blockedMs, FigureSource.HopPass),
        LongestBlockedMilliseconds = waits > 0 ? 2 : null, AwaitedCalls = [ReservesOneAfterAnother],
    };

    /// <summary>The checkout awaits 4 reservations one after another per checkout: 8 ms a run, 6 ms of it saved if run together.</summary>
    private static readonly AwaitedCall ReservesOneAfterAnother = new()
    {
        MethodKey = "Shop.Stock.ReserveAsync", DisplayName = "Shop.Stock.ReserveAsync", Runs = Figure.Exact(Checkouts, FigureSource.HopPass), CallsPerRun = 4, Groups = Figure.Exact(0, FigureSource.HopPass),
        WaitedMilliseconds = Timed(8_000, 400, Checkouts),
        SequentialMilliseconds = Timed(8_000, 400, Checkouts), SavingIfTogetherPerRunMilliseconds = Timed(6, 0.3, Checkouts),
        SavingIfTogetherMilliseconds = Timed(6_000, 300, Checkouts),
        SavingIfOverlappingMilliseconds = Timed(6_500, 300, Checkouts),
    };

    private static MethodCost Reserve(long calls, Figure elapsed) => new()
    {
        MethodKey = "Shop.Stock.ReserveAsync", DisplayName = "Shop.Stock.ReserveAsync", SuspendingCalls = Figure.Exact(calls, FigureSource.HopPass),
        ElapsedMilliseconds = elapsed, ElapsedPerCallMilliseconds = elapsed.Per(calls),
    };

    private static AsyncCostReport Run(MeasurementPasses passes, params MethodCost[] methods) => new()
    {
        Source = new ReportSource { Kind = SourceKind.Launch },
        Passes = [.. new[] { MeasurementPasses.Allocations, MeasurementPasses.Hops }.Where(p => passes.HasFlag(p))
            .Select(p => new PassSummary { Pass = p, Duration = TimeSpan.FromSeconds(5), Operations = Checkouts })],
        Methods = methods,
    };

    private static readonly AsyncCostReport Costly = Run(MeasurementPasses.Allocations | MeasurementPasses.Hops,
        Checkout(blockedMs: 2_000, waits: 1_000), Reserve(4_000, Timed(8_000, 400, 4_000)));

    [Fact]
    public void A_loop_fixed_to_one_round_trip_reads_reduced_and_a_wait_that_no_longer_blocks_reads_gone()
    {
        // The fix reserves a cart in one round trip: 1,000 calls of ~2 ms instead of 4,000; the checkout no longer blocks.
        var fixedTwin = Run(MeasurementPasses.Allocations | MeasurementPasses.Hops, Checkout(blockedMs: 0, waits: 0), Reserve(1_000, Timed(2_000, 100, 1_000)));

        var changes = FindingTimeChanges.Between([Loop, Blocking], Costly, fixedTwin, threshold: 0.10);

        // In the first run's rank: 8 ms of stock round trips per checkout, then 2 ms blocked.
        Assert.Equal(["AC0001", "AC0006"], changes.Select(c => c.Before.Finding.RuleId));
        var loop = changes[0];
        Assert.Equal(TimeBasis.CalleeElapsed, loop.After.Basis);
        Assert.Equal(TimeUnit.Operation, loop.After.Per);
        Assert.Equal((8.0, 2.0), (loop.Before.Time.Milliseconds!.Value, loop.After.Milliseconds!.Value));
        Assert.Equal(TimeChange.Reduced, loop.Change);
        Assert.Equal(0.25, loop.Difference!.Ratio!.Value, 9);
        // 2 ms ± 0.1 is more than 5 % of the 7.6 ms the first run proved: reduced, not gone.
        Assert.Equal(TimeChange.Gone, changes[1].Change);
        Assert.Equal(0, changes[1].After.Milliseconds!.Value);
        Assert.Equal("What is left, 0.0 ms at most, is under 5 % of the 1.9 ms the first run proved.", changes[1].Reason);

        // The same loop's calls cut to a few fast ones: what is left, at the top of its bound, is under 5 % of what it proved.
        var almostNone = Run(MeasurementPasses.Hops, Checkout(0, 0), Reserve(1_000, Timed(100, 20, 1_000)));
        Assert.Equal(TimeChange.Gone, FindingTimeChanges.Between([Loop], Costly, almostNone, 0.10).Single().Change);
        // A rerun of the costly code is unchanged: the two figures are within each other's bounds.
        var rerun = Run(MeasurementPasses.Hops, Checkout(2_000, 1_000), Reserve(4_000, Timed(8_300, 400, 4_000)));
        Assert.All(FindingTimeChanges.Between([Loop, Blocking], Costly, rerun, 0.10), c => Assert.Equal(TimeChange.Unchanged, c.Change));
    }

    [Fact]
    public void A_loops_predicted_saving_is_checked_on_its_own_path_and_a_second_fix_in_the_same_method_is_not_credited_to_it()
    {
        // The fix awaits each checkout's 4 reservations together: the checkout now waits ~2.1 ms a checkout on them, the
        // groups' first start to last end. The same fix also stops the checkout blocking (AC0006): that is not the loop's.
        static MethodCost Together(double waitedMs) => new()
        {
            MethodKey = "Shop.Checkout.RunAsync", DisplayName = "Shop.Checkout.RunAsync", SuspendingCalls = Figure.Exact(Checkouts, FigureSource.HopPass),
            BlockingWaits = Figure.Exact(0, FigureSource.HopPass), BlockedMilliseconds = Figure.Exact(0, FigureSource.HopPass),
            AwaitedCalls =
            [
                new AwaitedCall
                {
                    MethodKey = "Shop.Stock.ReserveAsync", DisplayName = "Shop.Stock.ReserveAsync", Runs = Figure.Exact(0, FigureSource.HopPass),
                    Groups = Figure.Exact(Checkouts, FigureSource.HopPass), CallsPerGroup = 4,
                    TogetherMilliseconds = Timed(waitedMs, 100, Checkouts), WaitedMilliseconds = Timed(waitedMs, 100, Checkouts),
                },
            ],
        };
        var fixedTwin = Run(MeasurementPasses.Allocations | MeasurementPasses.Hops, Together(2_100), Reserve(4_000, Timed(8_400, 400, 4_000)));

        var changes = FindingTimeChanges.Between([Loop, Blocking], Costly, fixedTwin, threshold: 0.10);

        var loop = Assert.Single(changes, c => c.Before.Finding.RuleId == "AC0001" && c.Saving is not null);
        var saving = loop.Saving!;
        Assert.Equal((6.0, 0.3), (saving.Predicted.Value, saving.Predicted.ErrorBound));
        // 8 ms a checkout waited one after another, 2.1 ms together: 5.9 ms ± 0.41 saved, the blocking's 2 ms not in it.
        Assert.Equal(8.0 - 2.1, saving.Measured!.Value, 9);
        Assert.Equal(Math.Sqrt((0.4 * 0.4) + (0.1 * 0.1)), saving.Measured.ErrorBound, 9);
        Assert.True(saving.WithinPrediction);
        Assert.Null(Assert.Single(changes, c => c.Before.Finding.RuleId == "AC0006").Saving);

        Assert.Equal((6.5, 0.3), (saving.PredictedIfOverlapping!.Value, saving.PredictedIfOverlapping.ErrorBound));
        // Calls that, together, finished together (1.2 ms a checkout: 6.8 ms saved, more than 'less the longest' predicts)
        // lie within the prediction's top; had they together still taken 7 ms, or finished sooner than one call, outside.
        Assert.True(FindingTimeChanges.Between([Loop], Costly, Run(MeasurementPasses.Hops, Together(1_200), Reserve(4_000, Timed(8_400, 400, 4_000))), 0.10)[0].Saving!.WithinPrediction);
        Assert.False(FindingTimeChanges.Between([Loop], Costly, Run(MeasurementPasses.Hops, Together(500), Reserve(4_000, Timed(8_400, 400, 4_000))), 0.10)[0].Saving!.WithinPrediction);
        var slow = Run(MeasurementPasses.Hops, Together(7_000), Reserve(4_000, Timed(8_400, 400, 4_000)));
        Assert.False(FindingTimeChanges.Between([Loop], Costly, slow, 0.10)[0].Saving!.WithinPrediction);
        // Without the hop pass in the second run there is nothing to measure the path by: said, not guessed.
        var unmeasured = FindingTimeChanges.Between([Loop], Costly, Run(MeasurementPasses.Allocations), 0.10)[0].Saving!;
        Assert.Null(unmeasured.Measured);
        Assert.Null(unmeasured.WithinPrediction);
        Assert.StartsWith("Not measured", unmeasured.Explanation, StringComparison.Ordinal);
    }

    [Fact]
    public void A_loop_fixed_by_running_its_calls_together_reads_unchanged_in_its_callees_and_reduced_in_its_own_method()
    {
        // The fix awaits the four round trips together (Task.WhenAll): each still takes ~2 ms, so their sum per checkout stays
        // 8 ms, but the checkout that waited for them one after another now waits ~2 ms for all four.
        static MethodCost TimedCheckout(double elapsedMs) => new()
        {
            MethodKey = "Shop.Checkout.RunAsync", DisplayName = "Shop.Checkout.RunAsync", SuspendingCalls = Figure.Exact(Checkouts, FigureSource.HopPass),
            ElapsedMilliseconds = Timed(elapsedMs, elapsedMs / 20, Checkouts), ElapsedPerCallMilliseconds = Timed(elapsedMs, elapsedMs / 20, Checkouts).Per(Checkouts),
        };
        var sequential = Run(MeasurementPasses.Hops, TimedCheckout(9_000), Reserve(4_000, Timed(8_000, 400, 4_000)));
        var together = Run(MeasurementPasses.Hops, TimedCheckout(2_500), Reserve(4_000, Timed(8_100, 400, 4_000)));

        var changes = FindingTimeChanges.Between([Loop], sequential, together, threshold: 0.10);

        Assert.Equal([TimeBasis.CalleeElapsed, TimeBasis.LoopMethodElapsed], changes.Select(c => c.Before.Time.Basis));
        Assert.All(changes, c => Assert.Equal(1, c.Before.Rank));
        Assert.Equal(TimeChange.Unchanged, changes[0].Change);
        var loop = changes[1];
        Assert.Equal(["Shop.Checkout.RunAsync"], loop.Before.Time.MethodKeys);
        Assert.Equal((9.0, 2.5), (loop.Before.Time.Milliseconds!.Value, loop.After.Milliseconds!.Value));
        Assert.Equal(TimeChange.Reduced, loop.Change);

        // Without the loop method's elapsed time (a pass that did not time it), only the callees' row is compared.
        Assert.Single(FindingTimeChanges.Between([Loop], Costly, together, 0.10));
    }

    [Fact]
    public void A_callee_the_second_run_never_calls_is_gone_when_the_pass_that_timed_it_ran()
    {
        // The fix removed the stock round trip: the hop pass ran and has no row for ReserveAsync, and the trace's method events
        // do not name it.
        var withoutCallee = Run(MeasurementPasses.Allocations | MeasurementPasses.Hops, Checkout(0, 0)) with
        {
            MethodsThatRan = ["Shop.Checkout.RunAsync"],
        };

        var loop = FindingTimeChanges.Between([Loop], Costly, withoutCallee, 0.10).Single();

        Assert.Equal(TimeChange.Gone, loop.Change);
        Assert.Null(loop.After.Milliseconds);
        Assert.Null(loop.Difference);
        Assert.Equal("The second run's hop pass ran and saw no call of Shop.Stock.ReserveAsync (its method events do not name it: it was never called).", loop.Reason);
    }

    [Fact]
    public void Without_the_pass_that_timed_it_the_second_run_has_no_figure_and_the_time_is_not_observable()
    {
        // Only the allocation pass ran in the second run: no elapsed time, no time blocked, no hops to fall back on.
        var allocationsOnly = Run(MeasurementPasses.Allocations, new MethodCost { MethodKey = "Shop.Checkout.RunAsync", DisplayName = "Shop.Checkout.RunAsync" });

        var changes = FindingTimeChanges.Between([Loop, Blocking], Costly, allocationsOnly, 0.10);

        Assert.All(changes, c => Assert.Equal(TimeChange.NotObservable, c.Change));
        Assert.All(changes, c => Assert.Null(c.After.Milliseconds));
        Assert.All(changes, c => Assert.Null(c.Difference));
        Assert.StartsWith("The second run has no figure for it: not observable:", changes[0].Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void Only_findings_the_first_run_timed_are_compared()
    {
        var unmeasured = new AnalyzerFinding("AC0005", "warning", "yield in a loop", "/repo/Feed.cs", 9, 5, "Shop.Feed.PollAsync", FindingCostKind.Hops);

        var changes = FindingTimeChanges.Between([unmeasured, Loop], Costly, Costly, 0.10);

        Assert.Equal([Loop], changes.Select(c => c.Before.Finding));
    }
}
