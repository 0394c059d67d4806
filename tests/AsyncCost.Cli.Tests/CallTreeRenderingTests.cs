using AsyncCost.Cli.Rendering;
using AsyncCost.Report;

namespace AsyncCost.Cli.Tests;

/// <summary>The async call tree in the text report and on the page: the library's tree, indented, its cells as they read.</summary>
public sealed class CallTreeRenderingTests
{
    private static Figure Timed(double milliseconds) =>
        new() { Value = milliseconds, ErrorBound = milliseconds * 0.02, Samples = 400, Sampled = true, Source = FigureSource.HopPass };

    /// <summary>400 orders: each awaits 4 price lookups one after another (a 13.2–15.6 ms saving an order) and 2 stock calls together.</summary>
    private static readonly AsyncCostReport Orders = new()
    {
        Source = new ReportSource { Kind = SourceKind.Launch },
        Passes = [new PassSummary { Pass = MeasurementPasses.Hops, Duration = TimeSpan.FromSeconds(9), Operations = 400 }],
        Methods =
        [
            new MethodCost
            {
                MethodKey = "ChattyPipeline.OrderPipeline.ProduceOrdersAsync", DisplayName = "ChattyPipeline.OrderPipeline.ProduceOrdersAsync",
                SuspendingCalls = Figure.Exact(1, FigureSource.HopPass), ElapsedMilliseconds = Timed(8_800), ElapsedPerCallMilliseconds = Timed(8_800),
                AwaitedCalls =
                [
                    new AwaitedCall
                    {
                        MethodKey = "ChattyPipeline.PriceCatalog.GetPriceAsync", DisplayName = "ChattyPipeline.PriceCatalog.GetPriceAsync",
                        Runs = Figure.Exact(400, FigureSource.HopPass), CallsPerRun = 4, Groups = Figure.Exact(0, FigureSource.HopPass),
                        SequentialMilliseconds = Timed(8_000), WaitedMilliseconds = Timed(8_000),
                        SavingIfTogetherMilliseconds = Timed(5_280), SavingIfOverlappingMilliseconds = Timed(6_240),
                    },
                    new AwaitedCall
                    {
                        MethodKey = "ChattyPipeline.Stock.ReserveAsync", DisplayName = "ChattyPipeline.Stock.ReserveAsync",
                        Runs = Figure.Exact(0, FigureSource.HopPass), Groups = Figure.Exact(400, FigureSource.HopPass), CallsPerGroup = 2,
                        TogetherMilliseconds = Timed(800), WaitedMilliseconds = Timed(800),
                    },
                ],
            },
            new MethodCost
            {
                MethodKey = "ChattyPipeline.PriceCatalog.GetPriceAsync", DisplayName = "ChattyPipeline.PriceCatalog.GetPriceAsync",
                SuspendingCalls = Figure.Exact(1_600, FigureSource.HopPass), ElapsedMilliseconds = Timed(8_000), ElapsedPerCallMilliseconds = Timed(5),
            },
        ],
    };

    [Fact]
    public void The_text_report_shows_the_tree_per_operation_costliest_first_within_80_columns()
    {
        var document = ReportDocument.Create(Orders);
        var table = Assert.Single(document.Tables, t => t.Title == "Async call tree, costliest path first");

        Assert.Equal(["Call", "Calls/op", "Ran", "Waited/op", "Elapsed/call", "Saves/op"], table.Columns.Select(c => c.Header));
        Assert.Equal(
            [
                "ChattyPipeline.OrderPipeline.ProduceOrdersAsync | 0.0025 | entry | ~22.0 ms ±2.0% | ~8.80 s ±2.0% | -",
                "└ ChattyPipeline.PriceCatalog.GetPriceAsync | 4.0 | 4 in turn | ~20.0 ms ±2.0% | ~5.00 ms ±2.0% | 13.2–15.6 ms",
                "└ ChattyPipeline.Stock.ReserveAsync | 2.0 | 2 together | ~2.00 ms ±2.0% | - | -",
            ],
            table.Rows.Select(r => string.Join(" | ", r)));

        using var narrow = new StringWriter();
        ConsoleTableWriter.Write(document, narrow, isTerminal: false, width: 80);
        Assert.All(narrow.ToString().Split('\n'), l => Assert.True(l.TrimEnd('\r').Length <= 80, $"{l.Length} > 80: {l}"));
        Assert.Contains("4 in turn", narrow.ToString(), StringComparison.Ordinal);
        using var markdown = new StringWriter();
        MarkdownWriter.Write(document, markdown);
        Assert.Contains("| └ ChattyPipeline.PriceCatalog.GetPriceAsync | 4.0 | 4 in turn |", markdown.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public void The_page_shows_the_tree_indented_by_depth_and_a_report_without_a_hop_pass_shows_none()
    {
        using var page = new StringWriter();
        HtmlReport.Write(Orders, hot: null, allMethods: false, page);
        var html = page.ToString();

        Assert.Contains("<section id=\"call-tree\">", html, StringComparison.Ordinal);
        Assert.Equal(2, html.Split("<tr data-depth=\"1\">").Length - 1);
        Assert.Contains("padding-left:1.6em", html, StringComparison.Ordinal);

        var allocationsOnly = Orders with { Methods = [new MethodCost { MethodKey = "App.A", DisplayName = "App.A", Bytes = Timed(100) with { Source = FigureSource.AllocationPass } }] };
        Assert.DoesNotContain(ReportDocument.Create(allocationsOnly).Tables, t => t.Title.StartsWith("Async call tree", StringComparison.Ordinal));
        using var none = new StringWriter();
        HtmlReport.Write(allocationsOnly, hot: null, allMethods: false, none);
        Assert.DoesNotContain("call-tree", none.ToString(), StringComparison.Ordinal);
    }
}
