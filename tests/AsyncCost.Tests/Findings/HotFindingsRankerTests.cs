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

    [Fact]
    public void Findings_are_ranked_by_their_methods_share_of_the_cost_their_rule_is_about()
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

        var ranked = HotFindingsRanker.Rank(findings, report).Findings;

        Assert.Equal(["AC0005", "AC0002", "AC0004"], ranked.Select(h => h.Finding.RuleId));
        Assert.Equal([1, 2, 3], ranked.Select(h => h.Rank));
        Assert.Equal(0.99, ranked[0].Share!.Value, 3);
        Assert.Equal(0.9, ranked[1].Share!.Value, 3);
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
        Assert.Null(ranked[1].Share);
    }

    [Fact]
    public void A_cost_the_session_did_not_measure_gives_no_share_but_keeps_the_row_exercised()
    {
        // An allocation-only session: a hop rule's method ran, but hops were not measured.
        var report = Measured(new MethodCost { MethodKey = "App.Pipe.RunAsync", DisplayName = "App.Pipe.RunAsync", Bytes = Sampled(500) });

        var hot = Assert.Single(HotFindingsRanker.Rank([Finding("AC0005", "App.Pipe.RunAsync", FindingCostKind.Hops)], report).Findings);

        Assert.True(hot.Exercised);
        Assert.Null(hot.Share);
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
                Finding("AC0001", "App.Prices.GetAsync.lambda#1", FindingCostKind.Allocations, line: 20),
                Finding("AC0008", "App.Prices.GetAsync.Slow", FindingCostKind.Allocations, line: 30),
            ],
            MemberWithLambdaAndLocalFunction()).Findings;

        var byLine = ranked.ToDictionary(h => h.Finding.Line!.Value);
        Assert.Equal(("App.Prices.GetAsync", 100.0, 0.3), (byLine[10].Method!.MethodKey, byLine[10].Method!.Calls!.Value, Math.Round(byLine[10].Share!.Value, 3)));
        Assert.Equal(("App.Prices.GetAsync.lambda#1", 50.0, 0.4), (byLine[20].Method!.MethodKey, byLine[20].Method!.Calls!.Value, Math.Round(byLine[20].Share!.Value, 3)));
        Assert.Equal(("App.Prices.GetAsync.Slow", 10.0, 0.1), (byLine[30].Method!.MethodKey, byLine[30].Method!.Calls!.Value, Math.Round(byLine[30].Share!.Value, 3)));
    }

    [Fact]
    public void A_lambda_key_without_ordinal_joins_all_of_its_members_lambdas()
    {
        var hot = Assert.Single(HotFindingsRanker.Rank([Finding("AC0001", "App.Prices.GetAsync.lambda", FindingCostKind.Allocations)], MemberWithLambdaAndLocalFunction()).Findings);

        Assert.True(hot.Exercised);
        Assert.Equal("App.Prices.GetAsync.lambda", hot.Method!.MethodKey);
        Assert.Equal("App.Prices.GetAsync.lambda", hot.Method.DisplayName);
        Assert.Equal(55, hot.Method.Calls!.Value);
        Assert.Equal(0.6, hot.Share!.Value, 3);
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
        Assert.Equal(0.5, hot.Share!.Value, 3);
    }

    [Fact]
    public void An_untagged_rule_ranks_by_its_largest_measured_share()
    {
        var report = Measured(
            new MethodCost { MethodKey = "App.A.M", DisplayName = "App.A.M", Bytes = Sampled(100), Hops = Exact(90) },
            new MethodCost { MethodKey = "App.B.M", DisplayName = "App.B.M", Bytes = Sampled(900), Hops = Exact(10) });

        var hot = Assert.Single(HotFindingsRanker.Rank([Finding("AC0099", "App.A.M", FindingCostKind.Unknown)], report).Findings);

        Assert.Equal(0.9, hot.Share!.Value, 3);
    }
}
