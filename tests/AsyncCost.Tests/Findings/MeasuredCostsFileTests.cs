using AsyncCost.Findings;
using AsyncCost.Report;

namespace AsyncCost.Tests.Findings;

/// <summary>
/// The file the analyzer reads back (issue 46 item 2): one line per ranked finding, with the figure and bound the ranking
/// used, files named by their name alone, and where the run was measured.
/// </summary>
public class MeasuredCostsFileTests
{
    [Fact]
    public void Each_ranked_finding_is_one_line_with_its_time_its_bound_and_where_it_was_measured()
    {
        var measured = new AsyncCostReport
        {
            Source = new ReportSource { Kind = SourceKind.Attach, ProcessId = 4242, ProcessName = "WebShop" },
            StartedAt = new DateTimeOffset(2026, 11, 29, 5, 50, 0, TimeSpan.Zero),
            Duration = TimeSpan.FromSeconds(12),
            Methods =
            [
                new MethodCost
                {
                    MethodKey = "Shop.Checkout.CheckoutAsync", DisplayName = "Shop.Checkout.CheckoutAsync",
                    BlockingWaits = Figure.Exact(400, FigureSource.HopPass), BlockedMilliseconds = Figure.Exact(800, FigureSource.HopPass), LongestBlockedMilliseconds = 3,
                },
            ],
            MethodsThatRan = ["Shop.Checkout.CheckoutAsync"],
        };
        var findings = new[]
        {
            new AnalyzerFinding("AC0006", "warning", "blocks", "/repo/shop/Checkout.cs", 20, 9, "Shop.Checkout.CheckoutAsync", FindingCostKind.Blocking),
            new AnalyzerFinding("AC0002", "note", "value task", "/repo/shop/Catalog.cs", 43, 5, "Shop.Catalog.GetPriceAsync", FindingCostKind.Allocations),
        };

        var lines = MeasuredCostsFile.Write(HotFindingsRanker.Rank(findings, measured)).Split('\n', StringSplitOptions.RemoveEmptyEntries);

        Assert.Equal(MeasuredCostsFile.Header, lines[0]);
        Assert.Equal("# measured: WebShop (pid 4242), 2026-11-29 05:50 UTC, 12 s", lines[1]);
        var blocked = lines[3].Split('\t');
        Assert.Equal(["AC0006", "Checkout.cs", "20", "Shop.Checkout.CheckoutAsync", "measured"], blocked[..5]);
        Assert.Equal(800, double.Parse(blocked[5], System.Globalization.CultureInfo.InvariantCulture));
        Assert.InRange(double.Parse(blocked[6], System.Globalization.CultureInfo.InvariantCulture), 1, 800);
        Assert.Equal(["recording", "TimeBlocked"], blocked[7..]);
        var unseen = lines[4].Split('\t');
        Assert.Equal(["AC0002", "Catalog.cs", "43", "Shop.Catalog.GetPriceAsync"], unseen[..4]);
        Assert.NotEqual("measured", unseen[4]);
        Assert.Equal("", unseen[5]);
        Assert.DoesNotContain("/repo/shop", string.Join('\n', lines), StringComparison.Ordinal);
    }
}
