using AsyncCost.Findings;
using AsyncCost.Report;

namespace AsyncCost.Tests.Report;

/// <summary>The async call tree built from the rows' awaited calls: its roots, its order, its unit, and its guards.</summary>
public sealed class AsyncCallTreeTests
{
    private static Figure Exact(double value) => Figure.Exact(value, FigureSource.HopPass);

    private static Figure Timed(double milliseconds) =>
        new() { Value = milliseconds, ErrorBound = milliseconds * 0.1, Samples = 100, Sampled = true, Source = FigureSource.HopPass };

    /// <summary><paramref name="runs"/> runs of <paramref name="perRun"/> calls awaited one after another, waiting
    /// <paramref name="waitedMs"/> in all, a quarter of it saved if run together.</summary>
    private static AwaitedCall InTurn(string callee, double runs, double perRun, double waitedMs) => new()
    {
        MethodKey = callee, DisplayName = callee, Runs = Exact(runs), CallsPerRun = perRun, Groups = Exact(0),
        SequentialMilliseconds = Timed(waitedMs), WaitedMilliseconds = Timed(waitedMs),
        SavingIfTogetherMilliseconds = Timed(waitedMs / 4), SavingIfOverlappingMilliseconds = Timed(waitedMs / 3),
    };

    private static AwaitedCall Together(string callee, double groups, double perGroup, double waitedMs) => new()
    {
        MethodKey = callee, DisplayName = callee, Runs = Exact(0), Groups = Exact(groups), CallsPerGroup = perGroup,
        TogetherMilliseconds = Timed(waitedMs), WaitedMilliseconds = Timed(waitedMs),
    };

    private static MethodCost Method(string key, double? elapsedMs = null, params AwaitedCall[] awaited) => new()
    {
        MethodKey = key, DisplayName = key, SuspendingCalls = Exact(100),
        ElapsedMilliseconds = elapsedMs is { } ms ? Timed(ms) : null, ElapsedPerCallMilliseconds = elapsedMs is { } perCall ? Timed(perCall / 100) : null,
        AwaitedCalls = awaited,
    };

    /// <summary>A launched run: a 5 s hop pass of <paramref name="operations"/> operations (null: unknown).</summary>
    private static AsyncCostReport Run(long? operations, params MethodCost[] methods) => new()
    {
        Source = new ReportSource { Kind = SourceKind.Launch },
        Passes = [new PassSummary { Pass = MeasurementPasses.Hops, Duration = TimeSpan.FromSeconds(5), Operations = operations }],
        Methods = methods,
    };

    [Fact]
    public void Roots_are_the_methods_that_awaited_calls_and_no_other_awaited_and_each_nodes_calls_come_costliest_first_per_operation()
    {
        var report = Run(100,
            Method("App.Orders.RunAsync", 5_000, InTurn("App.Prices.GetAsync", runs: 100, perRun: 4, waitedMs: 1_200), Together("App.Stock.ReserveAsync", groups: 100, perGroup: 3, waitedMs: 3_000)),
            Method("App.Prices.GetAsync", 1_200),
            Method("App.Stock.ReserveAsync", 2_900),
            Method("App.Audit.LogAsync", 50));

        var tree = report.CallTree;

        Assert.Equal(TimeUnit.Operation, tree.Per);
        // The order's own entry; a timed method that awaited nothing and that nothing awaited is no tree (the methods table has it).
        Assert.Equal(["App.Orders.RunAsync"], tree.Roots.Select(r => r.MethodKey));
        var orders = tree.Roots[0];
        Assert.Equal((1.0, 50.0), (orders.Calls!.Value, orders.WaitedMilliseconds!.Value));
        // The stock calls were waited on longer (30 ms/op together) than the prices (12 ms/op one after another): first.
        Assert.Equal(["App.Stock.ReserveAsync", "App.Prices.GetAsync"], orders.Children.Select(c => c.MethodKey));
        var stock = orders.Children[0];
        Assert.Equal((3.0, 0.0, 3.0, 30.0), (stock.Calls!.Value, stock.CallsPerRun, stock.CallsPerGroup, stock.WaitedMilliseconds!.Value));
        Assert.Null(stock.SavingIfTogetherMilliseconds);
        var prices = orders.Children[1];
        Assert.Equal((4.0, 4.0, 12.0), (prices.Calls!.Value, prices.CallsPerRun, prices.WaitedMilliseconds!.Value));
        Assert.Equal((3.0, 4.0), (prices.SavingIfTogetherMilliseconds!.Value, prices.SavingIfOverlappingMilliseconds!.Value));
        Assert.Equal(0.3, prices.SavingIfTogetherMilliseconds.ErrorBound, 9);
        // Elapsed per call is the callee's own row's.
        Assert.Equal(12.0, prices.ElapsedPerCallMilliseconds!.Value, 9);
        Assert.Equal(["App.Orders.RunAsync", "App.Stock.ReserveAsync", "App.Prices.GetAsync"], tree.Lines().Select(l => l.Node.MethodKey));
        Assert.Equal([0, 1, 1], tree.Lines().Select(l => l.Depth));
    }

    [Fact]
    public void Without_operations_the_figures_are_per_second_of_the_hop_pass_and_without_a_hop_pass_there_is_no_tree()
    {
        var report = Run(null, Method("App.Orders.RunAsync", 5_000, InTurn("App.Prices.GetAsync", runs: 100, perRun: 4, waitedMs: 1_200)), Method("App.Prices.GetAsync", 1_200));

        var tree = report.CallTree;

        Assert.Equal(TimeUnit.SecondOfRecording, tree.Per);
        var prices = Assert.Single(Assert.Single(tree.Roots).Children);
        Assert.Equal((80.0, 240.0), (prices.Calls!.Value, prices.WaitedMilliseconds!.Value));
        Assert.Empty((report with { Methods = [new MethodCost { MethodKey = "App.A", DisplayName = "App.A", Bytes = Timed(100) }] }).CallTree.Roots);
    }

    [Fact]
    public void Recursion_is_cut_where_a_method_recurs_on_its_path_and_a_cycle_no_one_else_awaits_still_has_a_root()
    {
        var report = Run(10,
            // Walk awaits itself (a recursive descent) and its leaf.
            Method("App.Tree.WalkAsync", 900, InTurn("App.Tree.WalkAsync", 10, 2, 800), InTurn("App.Tree.LeafAsync", 10, 1, 100)),
            Method("App.Tree.LeafAsync", 100),
            // Ping and Pong await each other, and nothing else awaits either.
            Method("App.Ping.PingAsync", 300, InTurn("App.Ping.PongAsync", 10, 1, 300)),
            Method("App.Ping.PongAsync", 200, InTurn("App.Ping.PingAsync", 10, 1, 200)));

        var tree = report.CallTree;

        var walk = tree.Roots.Single(r => r.MethodKey == "App.Tree.WalkAsync");
        var again = walk.Children.Single(c => c.MethodKey == "App.Tree.WalkAsync");
        Assert.Equal((CallTreeCut.Recursion, 0), (again.Cut, again.Children.Count));
        Assert.Equal(80.0, again.WaitedMilliseconds!.Value, 9);
        // The cycle is entered at its costlier method, once; the way back is cut.
        var ping = tree.Roots.Single(r => r.MethodKey is "App.Ping.PingAsync" or "App.Ping.PongAsync");
        Assert.Equal("App.Ping.PingAsync", ping.MethodKey);
        var pong = Assert.Single(ping.Children);
        Assert.Equal(CallTreeCut.Recursion, Assert.Single(pong.Children).Cut);
        Assert.Equal(2, tree.Roots.Count);
    }

    [Fact]
    public void A_callee_awaited_by_two_methods_shares_its_own_calls_among_them_by_its_calls_from_each()
    {
        var report = Run(1,
            Method("App.Web.GetAsync", 1_000, InTurn("App.Data.QueryAsync", 30, 1, 600)),
            Method("App.Web.PostAsync", 500, InTurn("App.Data.QueryAsync", 10, 1, 200)),
            Method("App.Data.QueryAsync", 800, InTurn("App.Data.ConnectAsync", 40, 1, 400)),
            Method("App.Data.ConnectAsync", 400));

        var tree = report.CallTree;

        var underGet = Assert.Single(tree.Roots.Single(r => r.MethodKey == "App.Web.GetAsync").Children);
        var underPost = Assert.Single(tree.Roots.Single(r => r.MethodKey == "App.Web.PostAsync").Children);
        Assert.Equal((0.75, 0.25), (underGet.Share, underPost.Share));
        Assert.Equal((300.0, 100.0), (Assert.Single(underGet.Children).WaitedMilliseconds!.Value, Assert.Single(underPost.Children).WaitedMilliseconds!.Value));
        Assert.Equal((30.0, 10.0), (Assert.Single(underGet.Children).Calls!.Value, Assert.Single(underPost.Children).Calls!.Value));
    }

    [Fact]
    public void A_path_deeper_than_the_limit_is_cut_and_says_so()
    {
        var depth = AsyncCallTree.MaxDepth + 4;
        var report = Run(1, [.. Enumerable.Range(0, depth).Select(i => Method($"App.Chain.Step{i}", 100, i + 1 < depth ? new[] { InTurn($"App.Chain.Step{i + 1}", 1, 1, 100 - i) } : []))]);

        var lines = report.CallTree.Lines();

        Assert.Equal(AsyncCallTree.MaxDepth, lines.Count);
        Assert.Equal(CallTreeCut.Depth, lines[^1].Node.Cut);
        Assert.Equal(AsyncCallTree.MaxDepth - 1, lines[^1].Depth);
    }

    [Fact]
    public void The_tree_is_written_to_json_and_not_read_back()
    {
        var report = Run(100, Method("App.Orders.RunAsync", 5_000, InTurn("App.Prices.GetAsync", 100, 4, 1_200)), Method("App.Prices.GetAsync", 1_200));

        var json = System.Text.Json.Nodes.JsonNode.Parse(AsyncCostReportJson.Serialize(report))!;

        Assert.Equal("operation", (string)json["callTree"]!["per"]!);
        var prices = json["callTree"]!["roots"]![0]!["children"]![0]!;
        Assert.Equal(("App.Prices.GetAsync", 4.0, "none"), ((string)prices["methodKey"]!, (double)prices["callsPerRun"]!, (string)prices["cut"]!));
        // Read back, the tree is the rows' again (here with other operations), never the stale one written.
        var read = AsyncCostReportJson.Deserialize(json.ToJsonString());
        Assert.Equal(12.0, read.CallTree.Roots[0].Children[0].WaitedMilliseconds!.Value, 9);
        Assert.Equal(1.2, PassBasis.WithGivenOperations(read with { Passes = [read.Passes[0] with { Operations = null }] }, 1_000, "run.json").CallTree.Roots[0].Children[0].WaitedMilliseconds!.Value, 9);
        Assert.NotNull(AsyncCostReportJson.GetSchema()["properties"]!["callTree"]);
    }
}
