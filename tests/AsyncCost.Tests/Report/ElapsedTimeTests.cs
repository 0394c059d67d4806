using AsyncCost.Attribution;
using AsyncCost.Computers;
using AsyncCost.Events;
using AsyncCost.Report;
using AsyncCost.Tests.Support;

namespace AsyncCost.Tests.Report;

/// <summary>Elapsed time per call and in all: the t interval, the total on the hop pass's basis, the rows that have none.</summary>
public class ElapsedTimeTests
{
    private const string YieldKey = "AsyncCost.Workload.Scenarios.YieldOnceAsync";

    private static CallDurations Durations(params double[] milliseconds)
    {
        var durations = new CallDurations();
        foreach (var duration in milliseconds)
        {
            durations.Add(duration);
        }
        return durations;
    }

    [Fact]
    public void The_mean_per_call_has_a_Student_t_bound_from_the_calls_own_spread()
    {
        var perCall = ElapsedTime.PerCall(Durations(20, 22, 24))!;

        // Mean 22, s = 2, t(2) = 4.303: ± 4.303 × 2 / √3.
        Assert.Equal(22, perCall.Value, 9);
        Assert.Equal(4.303 * 2 / Math.Sqrt(3), perCall.ErrorBound, 9);
        Assert.Equal((3, true, FigureSource.HopPass), (perCall.Samples, perCall.Sampled, perCall.Source));
    }

    [Fact]
    public void Few_calls_widen_the_bound_one_call_proves_only_more_than_nothing_and_none_is_no_figure()
    {
        var two = ElapsedTime.PerCall(Durations(20, 24))!;
        var many = ElapsedTime.PerCall(Durations([.. Enumerable.Range(0, 1_000).Select(i => i % 2 == 0 ? 20.0 : 24.0)]))!;
        var one = ElapsedTime.PerCall(Durations(20))!;

        Assert.Equal(12.706 * 2 * Math.Sqrt(2) / Math.Sqrt(2), two.ErrorBound, 6);
        Assert.InRange(many.ErrorBound, 1.96 * 2 / Math.Sqrt(1_000), 1.97 * 2.01 / Math.Sqrt(1_000));
        Assert.Equal((20, 20), (one.Value, one.ErrorBound));
        Assert.Null(ElapsedTime.PerCall(new CallDurations()));
    }

    [Fact]
    public void Calls_left_pending_widen_the_bound_up_to_the_least_mean_of_all_the_calls()
    {
        var timedOnly = ElapsedTime.PerCall(Durations(20, 22, 24))!;
        // One call still pending after 200 ms: the four calls' mean is at least (66 + 200) / 4 = 66.5 ms.
        var longPending = ElapsedTime.PerCall(Durations(20, 22, 24), pendingCalls: 1, pendingMs: 200)!;
        // One that had just begun: it says nothing beyond the timed calls.
        var freshPending = ElapsedTime.PerCall(Durations(20, 22, 24), pendingCalls: 1, pendingMs: 1)!;

        Assert.Equal(22, longPending.Value, 9);
        Assert.Equal(timedOnly.ErrorBound + (66.5 - 22), longPending.ErrorBound, 9);
        Assert.Equal(timedOnly, freshPending);
    }

    [Theory]
    [InlineData(1, 12.706)]
    [InlineData(30, 2.042)]
    [InlineData(31, 2.0395)]
    [InlineData(100, 1.984)]
    [InlineData(100_000, 1.960)]
    public void Student_quantiles_match_the_tables(long degreesOfFreedom, double expected)
        => Assert.Equal(expected, ElapsedTime.StudentQuantile(degreesOfFreedom), 3);

    [Fact]
    public void The_total_is_exact_when_every_call_was_timed_and_estimates_the_untimed_ones_at_the_mean()
    {
        var perCall = ElapsedTime.PerCall(Durations(20, 22, 24))!;

        var allTimed = ElapsedTime.Total(perCall, Figure.Exact(3, FigureSource.HopPass))!;
        var onePending = ElapsedTime.Total(perCall, Figure.Exact(4, FigureSource.HopPass))!;
        var scaled = ElapsedTime.Total(perCall, new Figure { Value = 300, ErrorBound = 30, Samples = 3, Sampled = true, Source = FigureSource.HopPass })!;

        Assert.Equal((66, 0, FigureKind.Exact), (allTimed.Value, allTimed.ErrorBound, allTimed.Kind));
        Assert.Equal((88, perCall.ErrorBound, FigureKind.Estimate), (onePending.Value, onePending.ErrorBound, onePending.Kind));
        Assert.Equal(300 * 22, scaled.Value, 9);
        Assert.Equal(Math.Sqrt(Math.Pow(297 * perCall.ErrorBound, 2) + Math.Pow(22 * 30, 2)), scaled.ErrorBound, 9);
        // Nothing suspended: what callers waited (the synchronous runs) no event tells. Calls suspended, none timed: unknown, not zero.
        Assert.Null(ElapsedTime.Total(null, Figure.Exact(0, FigureSource.HopPass)));
        Assert.Null(ElapsedTime.Total(null, Figure.Exact(5, FigureSource.HopPass)));
        Assert.Null(ElapsedTime.Total(perCall, null));
    }

    [Fact]
    public void Combined_rows_weigh_each_mean_by_its_calls()
    {
        var fast = ElapsedTime.PerCall(Durations(10, 10, 10))!;
        var slow = ElapsedTime.PerCall(Durations(40))!;

        var combined = ElapsedTime.PerCallOf([(fast, Figure.Exact(3, FigureSource.HopPass)), (slow, Figure.Exact(1, FigureSource.HopPass)), (null, Figure.Exact(9, FigureSource.HopPass))])!;

        Assert.Equal(((3 * 10) + 40) / 4.0, combined.Value, 9);
        Assert.Equal(40 / 4.0, combined.ErrorBound, 9); // the fast rows have no spread; the one slow call's bound is its value
        Assert.Equal(4, combined.Samples);
    }

    private static MethodCatalog Modules()
    {
        var modules = new MethodCatalog();
        modules.AddModule(WorkloadProcess.DllPath);
        return modules;
    }

    private static AsyncCostReport Build(MethodCatalog modules, PassResult pass)
        => new ReportBuilder(modules).Build(new ReportSource { Kind = SourceKind.TraceFile }, [pass], [], StopReason.EndOfTrace, cutShort: false, []);

    /// <summary>One stream of the hop pass: <paramref name="calls"/> YieldOnceAsync calls of the given lengths, one after
    /// another, each beginning a work item; then <paramref name="pending"/> calls that have not completed when it ends.</summary>
    private static EventReader Stream(MethodCatalog modules, double[] calls, int pending = 0)
    {
        var reader = new EventReader(modules);
        var now = 0.0;
        var task = 0;
        foreach (var length in calls)
        {
            reader.Hops.OnWorkItemDequeued(1, now); // each call begins its work item
            reader.Hops.OnOperationBegin(1, ++task, "Async: <YieldOnceAsync>d__0", now);
            now += length;
            reader.Hops.OnOperationEnd(task, now);
        }
        for (var i = 0; i < pending; i++)
        {
            reader.Hops.OnOperationBegin(1, ++task, "Async: <YieldOnceAsync>d__0", now);
        }
        return reader;
    }

    [Fact]
    public void A_continuous_pass_gives_each_row_its_timed_calls_and_says_when_many_were_left_pending()
    {
        var modules = Modules();
        var report = Build(modules, new PassResult { Pass = MeasurementPasses.Hops, Figures = PassFigures.Of(Stream(modules, [20, 22, 24], pending: 1)) });

        var row = Assert.Single(report.Methods, m => m.MethodKey == YieldKey);
        Assert.Equal(4, row.SuspendingCalls!.Value);
        Assert.Equal(22, row.ElapsedPerCallMilliseconds!.Value, 9);
        Assert.Equal(3, row.ElapsedPerCallMilliseconds.Samples);
        Assert.Equal(4 * 22, row.ElapsedMilliseconds!.Value, 9);
        Assert.Equal(FigureKind.Estimate, row.ElapsedMilliseconds.Kind);
        var warning = Assert.Single(report.Warnings, w => w.Code == "elapsed-pending");
        Assert.Contains("1 of 4 calls", warning.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_method_the_trace_says_ran_that_never_suspended_has_a_row_with_no_elapsed_time()
    {
        var modules = new MethodCatalog();
        modules.AddMethod("Shop.Prices+<GetPriceAsync>d__1", "MoveNext", "instance void  ()");
        modules.AddMethod("Shop.Prices", "GetPriceAsync", "instance value class System.Threading.Tasks.ValueTask`1<int32>  (int32)");
        // A synchronous iterator's state machine is named alike; it is no async method.
        modules.AddMethod("Shop.Prices+<Symbols>d__2", "MoveNext", "instance bool  ()");
        modules.AddMethod("Shop.Prices", "Symbols", "class System.Collections.Generic.IEnumerable`1<string>  ()");

        var report = Build(modules, new PassResult { Pass = MeasurementPasses.Hops, Figures = PassFigures.Of(Stream(modules, [20])) });

        var row = Assert.Single(report.Methods, m => m.MethodKey == "Shop.Prices.GetPriceAsync");
        Assert.Equal(0, row.SuspendingCalls!.Value);
        Assert.Null(row.ElapsedPerCallMilliseconds);
        Assert.Null(row.ElapsedMilliseconds);
        Assert.DoesNotContain(report.Methods, m => m.MethodKey == "Shop.Prices.Symbols");
    }

    [Fact]
    public void An_async_iterators_box_spans_an_enumeration_so_it_has_no_elapsed_time_per_call()
    {
        var modules = Modules();
        modules.AddMethod("AsyncCost.Workload.Scenarios+<CountAsync>d__3", "System.Collections.Generic.IAsyncEnumerator<System.Int32>.MoveNextAsync", "instance value class System.Threading.Tasks.ValueTask`1<bool>  ()");
        var reader = new EventReader(modules);
        reader.Hops.OnOperationBegin(1, 1, "Async: <CountAsync>d__3", 0);
        reader.Hops.OnOperationEnd(1, 50);

        var report = Build(modules, new PassResult { Pass = MeasurementPasses.Hops, Figures = PassFigures.Of(reader) });

        var iterator = Assert.Single(report.Methods, m => m.MethodKey == "AsyncCost.Workload.Scenarios.CountAsync");
        Assert.Equal(1, iterator.SuspendingCalls!.Value);
        Assert.Null(iterator.ElapsedPerCallMilliseconds);
        Assert.Null(iterator.ElapsedMilliseconds);
    }

    [Fact]
    public void A_windowed_pass_scales_the_total_by_the_pass_seconds_and_its_mean_to_the_pass_rate()
    {
        var modules = Modules();
        var figures = new PassFigures();
        figures.Add(Stream(modules, [10, 10, 10, 10]));
        figures.Add(Stream(modules, [30, 30, 30, 30]));
        var counters = new CounterComputer();
        counters.OnCounter("threadpool-completed-items-count", 80);

        var report = Build(modules, new PassResult
        {
            Pass = MeasurementPasses.Hops, Figures = figures, Duration = TimeSpan.FromSeconds(1), Unrecorded = TimeSpan.FromSeconds(9), WindowedPassCounters = counters,
        });

        var row = Assert.Single(report.Methods, m => m.MethodKey == YieldKey);
        Assert.True(row.SuspendingCalls!.Sampled);
        // The windows ran 8 work items in their 1 s, the pass 80.4 in its 10 s (half the counter's unreported last interval
        // added): the windows' 160 ms of calls stand for 1,600 ms, the windows' 20 ms mean for 20 × 8 / 8.04 over the pass.
        Assert.Equal(20 * 8 / 8.04, row.ElapsedPerCallMilliseconds!.Value, 9);
        Assert.Equal(1_600, row.ElapsedMilliseconds!.Value, 6);
        Assert.Equal(row.SuspendingCalls.Value * row.ElapsedPerCallMilliseconds.Value, row.ElapsedMilliseconds.Value, 6);
        Assert.True(row.ElapsedMilliseconds.Sampled);
        // The untimed calls' share of the mean's bound and the calls' own bound, in quadrature.
        var untimed = row.SuspendingCalls.Value - 8;
        Assert.Equal(Math.Sqrt(Math.Pow(untimed * row.ElapsedPerCallMilliseconds.ErrorBound, 2) + Math.Pow(row.ElapsedPerCallMilliseconds.Value * row.SuspendingCalls.ErrorBound, 2)), row.ElapsedMilliseconds.ErrorBound, 6);
        Assert.DoesNotContain(report.Warnings, w => w.Code == "elapsed-pending");
    }
}
