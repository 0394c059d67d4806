using AsyncCost.Findings;
using AsyncCost.Report;

namespace AsyncCost.Tests.Findings;

public class HotFindingsRankerTests
{
    private static AnalyzerFinding Finding(string rule, string? methodKey, FindingCostKind kind, int line = 1) =>
        new(rule, "warning", rule, "/src/App.cs", line, 1, methodKey, kind);

    private static Figure Sampled(double value) => new() { Value = value, ErrorBound = value * 0.05, Samples = 1000, Sampled = true, Source = FigureSource.AllocationPass };

    private static Figure Exact(double value, FigureSource source = FigureSource.HopPass) => Figure.Exact(value, source);

    private static AsyncCostReport Measured(params MethodCost[] methods) => new()
    {
        Source = new ReportSource { Kind = SourceKind.TraceFile },
        Methods = methods,
    };

    private static AsyncCostReport PerOperation(AsyncCostReport report, long operations) => report with
    {
        Passes =
        [
            new PassSummary { Pass = MeasurementPasses.Allocations, Duration = TimeSpan.FromSeconds(4), Operations = operations },
            new PassSummary { Pass = MeasurementPasses.Hops, Duration = TimeSpan.FromSeconds(15), Operations = operations },
        ],
    };

    [Fact]
    public void Findings_are_ranked_by_time_whatever_kind_of_cost_it_rests_on()
    {
        var report = Measured(
            new MethodCost { MethodKey = "App.Cache.GetAsync", DisplayName = "App.Cache.GetAsync", Calls = Exact(1000), Bytes = Sampled(90_000), Hops = Exact(10) },
            new MethodCost { MethodKey = "App.Pipe.RunAsync", DisplayName = "App.Pipe.RunAsync", Calls = Exact(10), Bytes = Sampled(10_000), Hops = Exact(990) });
        var findings = new[]
        {
            Finding("AC0002", "App.Cache.GetAsync", FindingCostKind.Allocations),
            Finding("AC0005", "App.Pipe.RunAsync", FindingCostKind.Hops),
            Finding("AC0004", "App.Cache.GetAsync", FindingCostKind.Hops),
        };

        var ranked = HotFindingsRanker.Rank(findings, PerOperation(report, 10)).Findings;

        // 990 hops x 0.0723 µs, 1,000 Task<T> x 0.034 µs, 10 hops x 0.0723 µs: one currency, per operation.
        Assert.Equal(["AC0005", "AC0002", "AC0004"], ranked.Select(h => h.Finding.RuleId));
        Assert.Equal([1, 2, 3], ranked.Select(h => h.Rank));
        Assert.Equal([TimeBasis.Hops, TimeBasis.Calls, TimeBasis.Hops], ranked.Select(h => h.Time.Basis));
        Assert.All(ranked, h => Assert.Equal(TimeUnit.Operation, h.Time.Per));
        Assert.Equal(990 * BenchmarkedCosts.ThreadPoolHop.Microseconds / 1000 / 10, ranked[0].Time.Milliseconds!.Value, 9);
        Assert.Equal(1000 * BenchmarkedCosts.CompletedTask.Microseconds / 1000 / 10, ranked[1].Time.Milliseconds!.Value, 9);
        Assert.All(ranked, h => Assert.InRange(h.Time.LowerBound, 0, h.Time.Milliseconds!.Value));
        Assert.Contains("990 thread-pool hops of App.Pipe.RunAsync", ranked[0].Time.Explanation, StringComparison.Ordinal);
        Assert.Contains("÷ 10 operations", ranked[0].Time.Explanation, StringComparison.Ordinal);
    }

    [Fact]
    public void A_loop_in_the_caller_of_the_costliest_method_costs_that_methods_elapsed_time_and_ranks_by_what_running_its_calls_together_saves()
    {
        // The checkout's own row is cheap; the stock round trip it awaits per line, in another class, is where the time goes.
        // The hop pass saw the checkout await 4 reservations one after another per checkout: each run, 8 ms less its
        // longest call, saves 6 ms if run together.
        var together = new AwaitedCall
        {
            MethodKey = "Shop.Stock.ReserveAsync", DisplayName = "Shop.Stock.ReserveAsync", Runs = Exact(1000), CallsPerRun = 4, Groups = Exact(0),
            WaitedMilliseconds = new Figure { Value = 8_000, ErrorBound = 400, Samples = 1000, Sampled = true, Source = FigureSource.HopPass },
            SequentialMilliseconds = new Figure { Value = 8_000, ErrorBound = 400, Samples = 1000, Sampled = true, Source = FigureSource.HopPass },
            SavingIfTogetherPerRunMilliseconds = new Figure { Value = 6, ErrorBound = 0.3, Samples = 1000, Sampled = true, Source = FigureSource.HopPass },
            SavingIfTogetherMilliseconds = new Figure { Value = 6_000, ErrorBound = 300, Samples = 1000, Sampled = true, Source = FigureSource.HopPass },
        };
        var report = PerOperation(Measured(
            new MethodCost { MethodKey = "Shop.Checkout.RunAsync", DisplayName = "Shop.Checkout.RunAsync", Calls = Exact(1000), SuspendingCalls = Exact(1000), Hops = Exact(4000), AwaitedCalls = [together] },
            new MethodCost
            {
                MethodKey = "Shop.Stock.ReserveAsync", DisplayName = "Shop.Stock.ReserveAsync", Calls = Exact(4000), SuspendingCalls = Exact(4000), Hops = Exact(4000),
                ElapsedMilliseconds = new Figure { Value = 8_000, ErrorBound = 400, Samples = 4000, Sampled = true, Source = FigureSource.HopPass },
                ElapsedPerCallMilliseconds = new Figure { Value = 2, ErrorBound = 0.1, Samples = 4000, Sampled = true, Source = FigureSource.HopPass },
            },
            new MethodCost { MethodKey = "Shop.Feed.PollAsync", DisplayName = "Shop.Feed.PollAsync", Calls = Exact(10), SuspendingCalls = Exact(10), Hops = Exact(90_000) }), 1000);
        var findings = new[]
        {
            Finding("AC0005", "Shop.Feed.PollAsync", FindingCostKind.Hops, line: 5),
            Finding("AC0001", "Shop.Checkout.RunAsync", FindingCostKind.Hops, line: 16) with { CostMethodKeys = ["Shop.Stock.ReserveAsync"] },
        };

        var ranked = HotFindingsRanker.Rank(findings, report).Findings;

        var loop = ranked[0];
        Assert.Equal("AC0001", loop.Finding.RuleId);
        Assert.Equal(TimeBasis.CalleeElapsed, loop.Time.Basis);
        Assert.Equal(["Shop.Stock.ReserveAsync"], loop.Time.MethodKeys);
        Assert.Equal(8.0, loop.Time.Milliseconds!.Value, 9); // 8,000 ms over 1,000 checkouts
        Assert.Equal(0.4, loop.Time.Milliseconds.ErrorBound, 9);
        Assert.Equal(7.6, loop.Time.LowerBound, 9);
        Assert.Equal("Shop.Checkout.RunAsync", loop.Method!.MethodKey);
        Assert.Contains("Shop.Stock.ReserveAsync: 4,000 suspending call(s) × 2.0 ms", loop.Time.Explanation, StringComparison.Ordinal);
        var saving = loop.Time.Saving!;
        Assert.Equal(TimeBasis.SavingIfTogether, saving.Basis);
        Assert.Equal((6.0, 0.3), (saving.Milliseconds!.Value, saving.Milliseconds.ErrorBound));
        Assert.Equal(6 * (1 - (Figure.StandardErrors / Math.Sqrt(1000))), loop.Time.SavingLowerBound, 9); // 1,000 runs prove less than the bound
        Assert.Contains("1,000 run(s) of 4.0 call(s) of Shop.Stock.ReserveAsync, 8.0 ms one after another less the longest", saving.Explanation, StringComparison.Ordinal);
        // The Task.Yield's hops are what its fix saves: no saving of their own.
        Assert.Null(ranked[1].Time.Saving);

        // Without the runs (the loop's method not seen awaiting them) the saving is not observable, and it proves nothing.
        var unlinked = PerOperation(Measured([.. report.Methods.Select(m => m.MethodKey == "Shop.Checkout.RunAsync"
            ? new MethodCost { MethodKey = m.MethodKey, DisplayName = m.DisplayName, Calls = m.Calls, SuspendingCalls = m.SuspendingCalls, Hops = m.Hops } : m)]), 1000);
        var unsure = HotFindingsRanker.Rank(findings, unlinked).Findings;
        Assert.Equal(["AC0005", "AC0001"], unsure.Select(h => h.Finding.RuleId));
        Assert.Equal(TimeBasis.NotObservable, unsure[1].Time.Saving!.Basis);
        Assert.Equal(8.0, unsure[1].Time.Milliseconds!.Value, 9); // its cost is kept beside it

        // Without elapsed times (an older report) the same loop is priced by its callee's hops, still not by its own row.
        var older = PerOperation(Measured([.. report.Methods.Select(m => m.MethodKey == "Shop.Stock.ReserveAsync"
            ? new MethodCost { MethodKey = m.MethodKey, DisplayName = m.DisplayName, Calls = m.Calls, SuspendingCalls = m.SuspendingCalls, Hops = Exact(4000) } : m)]), 1000);
        var byHops = HotFindingsRanker.Rank(findings, older).Findings.Single(h => h.Finding.RuleId == "AC0001");
        Assert.Equal(TimeBasis.Hops, byHops.Time.Basis);
        Assert.Equal(4000 * BenchmarkedCosts.ThreadPoolHop.Microseconds / 1000 / 1000, byHops.Time.Milliseconds!.Value, 9);
    }

    [Fact]
    public void The_ranking_does_not_flip_on_one_long_wait()
    {
        // The ChattyPipeline shape: the producer's Task.Yield hops every order; the blocked-on discount is usually back in time,
        // and in one run of two a single 14.7 ms wait happens (a GC, the machine's load).
        MethodCost Producer(long waits, double blockedMs) => new()
        {
            MethodKey = "Chatty.Pipeline.ProduceAsync", DisplayName = "Chatty.Pipeline.ProduceAsync", Calls = Exact(1), SuspendingCalls = Exact(1), Hops = Exact(2400),
            BlockingWaits = Exact(waits), BlockedMilliseconds = Exact(blockedMs), LongestBlockedMilliseconds = waits > 0 ? blockedMs : null,
        };
        var findings = new[]
        {
            Finding("AC0006", "Chatty.Pipeline.ProduceAsync", FindingCostKind.Blocking, line: 68),
            Finding("AC0005", "Chatty.Pipeline.ProduceAsync", FindingCostKind.Hops, line: 62),
        };

        var quiet = HotFindingsRanker.Rank(findings, PerOperation(Measured(Producer(0, 0)), 400)).Findings;
        var oneLongWait = HotFindingsRanker.Rank(findings, PerOperation(Measured(Producer(1, 14.7)), 400)).Findings;

        Assert.Equal(["AC0005", "AC0006"], quiet.Select(h => h.Finding.RuleId));
        Assert.Equal(["AC0005", "AC0006"], oneLongWait.Select(h => h.Finding.RuleId));
        var wait = oneLongWait[1].Time;
        Assert.Equal(TimeBasis.TimeBlocked, wait.Basis);
        Assert.Equal(14.7 / 400, wait.Milliseconds!.Value, 9); // the figure is printed as measured...
        Assert.True(wait.FewEvents);
        Assert.Equal(0, wait.LowerBound); // ...but one wait proves nothing to rank by
    }

    [Fact]
    public void A_long_wait_among_many_moves_what_the_waits_prove_by_no_more_than_one_wait_would()
    {
        MethodCost Waiter(long waits, double blockedMs, double longest) => new()
        {
            MethodKey = "App.Sync.RunAsync", DisplayName = "App.Sync.RunAsync", BlockingWaits = Exact(waits), BlockedMilliseconds = Exact(blockedMs), LongestBlockedMilliseconds = longest,
        };
        var finding = new[] { Finding("AC0006", "App.Sync.RunAsync", FindingCostKind.Blocking) };

        var fifty = Assert.Single(HotFindingsRanker.Rank(finding, Measured(Waiter(50, 50, 1))).Findings).Time;
        var fiftyAndALongOne = Assert.Single(HotFindingsRanker.Rank(finding, Measured(Waiter(51, 550, 500))).Findings).Time;

        Assert.Equal(TimeUnit.Recording, fifty.Per);
        Assert.False(fifty.FewEvents);
        Assert.Equal(550, fiftyAndALongOne.Milliseconds!.Value);
        Assert.InRange(fiftyAndALongOne.LowerBound, fifty.LowerBound, fifty.LowerBound * 1.05);
        Assert.InRange(fifty.LowerBound, 30, 40); // 49 ms less the Poisson margin of 49 waits
    }

    [Fact]
    public void Without_operations_times_are_per_second_of_the_pass_they_come_from_windows_gaps_included()
    {
        var report = Measured(new MethodCost { MethodKey = "App.Pipe.RunAsync", DisplayName = "App.Pipe.RunAsync", Hops = Exact(100_000) }) with
        {
            Passes =
            [
                new PassSummary { Pass = MeasurementPasses.Allocations, Duration = TimeSpan.FromSeconds(4) },
                new PassSummary { Pass = MeasurementPasses.Hops, Duration = TimeSpan.FromSeconds(1), Unrecorded = TimeSpan.FromSeconds(9) },
            ],
        };

        var time = Assert.Single(HotFindingsRanker.Rank([Finding("AC0005", "App.Pipe.RunAsync", FindingCostKind.Hops)], report).Findings).Time;

        Assert.Equal(TimeUnit.SecondOfRecording, time.Per);
        Assert.Equal(100_000 * BenchmarkedCosts.ThreadPoolHop.Microseconds / 1000 / 10, time.Milliseconds!.Value, 9);
    }

    [Fact]
    public void A_wait_the_hop_pass_cannot_time_is_not_observable_never_zero()
    {
        // AC0007's Sleep or WaitHandle wait is no task wait: the hop pass's blocked time (waits on tasks) is not its time.
        var report = Measured(new MethodCost { MethodKey = "App.Pipe.RunAsync", DisplayName = "App.Pipe.RunAsync", Hops = Exact(10), BlockingWaits = Exact(3), BlockedMilliseconds = Exact(30) });

        var hot = Assert.Single(HotFindingsRanker.Rank([Finding("AC0007", "App.Pipe.RunAsync", FindingCostKind.Blocking)], report).Findings);

        Assert.Equal(FindingVerdict.NotObservable, hot.Verdict);
        Assert.Null(hot.Time.Milliseconds);
        Assert.Equal(0, hot.Time.LowerBound);
        Assert.Contains("cpu pass", hot.VerdictReason, StringComparison.Ordinal);
    }

    [Fact]
    public void Not_exercised_only_when_the_method_events_never_name_the_method_else_not_observable_with_the_reason()
    {
        var report = Measured(new MethodCost { MethodKey = "App.Hot.RunAsync", DisplayName = "App.Hot.RunAsync", Calls = Exact(5), Hops = Exact(1) }) with
        {
            // The trace's method events: GetRateAsync ran (synchronously, never allocating), Cold.NeverAsync did not.
            MethodsThatRan = ["App.Hot.RunAsync", "App.Shipping.GetRateAsync", "App.Program.Main"],
            UnattributedAllocations =
            [
                new TypeAllocation
                {
                    TypeName = "System.Threading.Tasks.Task`1[System.Decimal]", Kind = AllocationKind.Task, Bytes = Sampled(2_097_152), Objects = Sampled(26_214),
                    CandidateMethods = ["App.Catalog.GetPriceAsync", "App.Discounts.GetDiscountAsync"],
                },
            ],
        };
        var findings = new[]
        {
            Finding("AC0001", "App.Cold.NeverAsync", FindingCostKind.Hops),
            Finding("AC0003", "App.Shipping.GetRateAsync", FindingCostKind.Allocations),
            Finding("AC0002", "App.Catalog.GetPriceAsync", FindingCostKind.Allocations),
            Finding("AC0001", "App.Hot.RunAsync", FindingCostKind.Hops),
        };

        var ranked = HotFindingsRanker.Rank(findings, report).Findings.ToDictionary(h => h.Finding.MethodKey!);

        Assert.Equal(FindingVerdict.Measured, ranked["App.Hot.RunAsync"].Verdict);
        Assert.Null(ranked["App.Hot.RunAsync"].VerdictReason);
        Assert.Equal(FindingVerdict.NotExercised, ranked["App.Cold.NeverAsync"].Verdict);
        Assert.Equal(4, ranked["App.Cold.NeverAsync"].Rank);
        Assert.Equal(FindingVerdict.NotObservable, ranked["App.Shipping.GetRateAsync"].Verdict);
        Assert.Contains("completed synchronously without allocating", ranked["App.Shipping.GetRateAsync"].VerdictReason, StringComparison.Ordinal);
        Assert.Equal(FindingVerdict.NotObservable, ranked["App.Catalog.GetPriceAsync"].Verdict);
        Assert.Equal("Its System.Threading.Tasks.Task`1[System.Decimal] cannot be told from the same type returned by 1 other method(s): 2.0 MB of it stays unattributed.",
            ranked["App.Catalog.GetPriceAsync"].VerdictReason);
    }

    [Fact]
    public void Without_method_events_a_method_no_pass_saw_is_not_observable_not_not_exercised()
    {
        var ranked = HotFindingsRanker.Rank([Finding("AC0003", "App.Shipping.GetRateAsync", FindingCostKind.Allocations)], Measured()).Findings;

        Assert.Equal(FindingVerdict.NotObservable, Assert.Single(ranked).Verdict);
        Assert.Contains("no method events", ranked[0].VerdictReason, StringComparison.Ordinal);
    }

    [Fact]
    public void Findings_in_methods_that_never_ran_come_last_as_not_exercised()
    {
        var report = Measured(new MethodCost { MethodKey = "App.Hot.RunAsync", DisplayName = "App.Hot.RunAsync", Calls = Exact(5), Hops = Exact(1) }) with { MethodsThatRan = ["App.Hot.RunAsync"] };
        var findings = new[]
        {
            Finding("AC0001", "App.Cold.NeverAsync", FindingCostKind.Hops),
            Finding("AC0001", "App.Hot.RunAsync", FindingCostKind.Hops),
        };

        var ranked = HotFindingsRanker.Rank(findings, report).Findings;

        Assert.True(ranked[0].Exercised);
        Assert.Equal("App.Hot.RunAsync", ranked[0].Method!.MethodKey);
        Assert.False(ranked[1].Exercised);
        Assert.Null(ranked[1].Method);
        Assert.Null(ranked[1].Time.Milliseconds);
    }

    [Fact]
    public void A_cost_the_session_did_not_measure_gives_no_share_but_keeps_the_row_exercised()
    {
        // An allocation-only session: a hop rule's method ran, but hops were not measured.
        var report = Measured(new MethodCost { MethodKey = "App.Pipe.RunAsync", DisplayName = "App.Pipe.RunAsync", Bytes = Sampled(500) });

        var hot = Assert.Single(HotFindingsRanker.Rank([Finding("AC0005", "App.Pipe.RunAsync", FindingCostKind.Hops)], report).Findings);

        Assert.True(hot.Exercised);
        Assert.Equal(FindingVerdict.NotObservable, hot.Verdict);
        Assert.Null(hot.Time.Milliseconds);
        Assert.Contains("no hop pass ran", hot.VerdictReason, StringComparison.Ordinal);
    }

    private static AsyncCostReport MemberWithLambdaAndLocalFunction() => Measured(
        new MethodCost { MethodKey = "App.Prices.GetAsync", DisplayName = "App.Prices.GetAsync", Calls = Exact(100), Bytes = Sampled(3_000) },
        new MethodCost { MethodKey = "App.Prices.GetAsync.Slow", DisplayName = "App.Prices.GetAsync.Slow", Calls = Exact(10), Bytes = Sampled(1_000) },
        new MethodCost { MethodKey = "App.Prices.GetAsync.lambda#1", DisplayName = "App.Prices.GetAsync.lambda#1", Calls = Exact(50), Bytes = Sampled(4_000) },
        new MethodCost { MethodKey = "App.Prices.GetAsync.lambda#2", DisplayName = "App.Prices.GetAsync.lambda#2", Calls = Exact(5), Bytes = Sampled(2_000) });

    [Fact]
    public void A_finding_in_a_lambda_joins_the_lambdas_row_and_one_in_the_member_joins_the_members()
    {
        var ranked = HotFindingsRanker.Rank(
            [
                Finding("AC0009", "App.Prices.GetAsync", FindingCostKind.Allocations, line: 10),
                Finding("AC0003", "App.Prices.GetAsync.lambda#1", FindingCostKind.Allocations, line: 20),
                Finding("AC0008", "App.Prices.GetAsync.Slow", FindingCostKind.Allocations, line: 30),
            ],
            MemberWithLambdaAndLocalFunction()).Findings;

        var byLine = ranked.ToDictionary(h => h.Finding.Line!.Value);
        Assert.Equal(("App.Prices.GetAsync", 100.0), (byLine[10].Method!.MethodKey, byLine[10].Method!.Calls!.Value));
        Assert.Equal(("App.Prices.GetAsync.lambda#1", 50.0), (byLine[20].Method!.MethodKey, byLine[20].Method!.Calls!.Value));
        Assert.Equal(("App.Prices.GetAsync.Slow", 10.0), (byLine[30].Method!.MethodKey, byLine[30].Method!.Calls!.Value));
        // Calls x what each rule's fix saves per call: a closure, a state machine, a state machine.
        Assert.Equal(100 * BenchmarkedCosts.Closure.Microseconds / 1000, byLine[10].Time.Milliseconds!.Value, 9);
        Assert.Equal(50 * BenchmarkedCosts.SynchronousStateMachine.Microseconds / 1000, byLine[20].Time.Milliseconds!.Value, 9);
        Assert.Equal([10, 20, 30], ranked.Select(h => h.Finding.Line!.Value));
    }

    [Fact]
    public void A_lambda_key_without_ordinal_joins_all_of_its_members_lambdas()
    {
        var hot = Assert.Single(HotFindingsRanker.Rank([Finding("AC0003", "App.Prices.GetAsync.lambda", FindingCostKind.Allocations)], MemberWithLambdaAndLocalFunction()).Findings);

        Assert.True(hot.Exercised);
        Assert.Equal("App.Prices.GetAsync.lambda", hot.Method!.MethodKey);
        Assert.Equal("App.Prices.GetAsync.lambda", hot.Method.DisplayName);
        Assert.Equal(55, hot.Method.Calls!.Value);
        Assert.Equal(55 * BenchmarkedCosts.SynchronousStateMachine.Microseconds / 1000, hot.Time.Milliseconds!.Value, 9);
    }

    [Fact]
    public void Rows_that_share_a_key_join_as_one()
    {
        var report = Measured(
            new MethodCost { MethodKey = "App.Prices.GetAsync.Local", DisplayName = "App.Prices.GetAsync.Local", Calls = Exact(100), Bytes = Sampled(3_000) },
            new MethodCost { MethodKey = "App.Prices.GetAsync.Local", DisplayName = "App.Prices.GetAsync.Local", Calls = Exact(10), Bytes = Sampled(1_000) },
            new MethodCost { MethodKey = "App.Other.RunAsync", DisplayName = "App.Other.RunAsync", Calls = Exact(1), Bytes = Sampled(4_000) });

        var hot = Assert.Single(HotFindingsRanker.Rank([Finding("AC0008", "App.Prices.GetAsync.Local", FindingCostKind.Allocations)], report).Findings);

        Assert.Equal(110, hot.Method!.Calls!.Value);
        Assert.Equal(4_000, hot.Method.Bytes!.Value);
        Assert.Equal(110 * BenchmarkedCosts.SynchronousStateMachine.Microseconds / 1000, hot.Time.Milliseconds!.Value, 9);
    }

    [Fact]
    public void Bytes_alone_and_an_untagged_rule_are_not_observable_in_time_never_zero()
    {
        var report = Measured(new MethodCost { MethodKey = "App.A.M", DisplayName = "App.A.M", Calls = Exact(10), Bytes = Sampled(100), Hops = Exact(90) });

        var ranked = HotFindingsRanker.Rank([Finding("AC0099", "App.A.M", FindingCostKind.Unknown), Finding("AC0042", "App.A.M", FindingCostKind.Allocations)], report).Findings;

        Assert.All(ranked, h => Assert.Equal((FindingVerdict.NotObservable, TimeBasis.NotObservable, (Figure?)null), (h.Verdict, h.Time.Basis, h.Time.Milliseconds)));
        Assert.Contains("names no kind of cost", ranked.Single(h => h.Finding.RuleId == "AC0099").VerdictReason, StringComparison.Ordinal);
        Assert.Contains("no GC events", ranked.Single(h => h.Finding.RuleId == "AC0042").VerdictReason, StringComparison.Ordinal);
    }
}
