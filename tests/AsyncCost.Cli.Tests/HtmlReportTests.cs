using System.Globalization;
using System.Text.Json;
using AsyncCost.Cli.Rendering;
using AsyncCost.Cli.Tests.Infrastructure;
using AsyncCost.Report;
using Microsoft.Playwright;

namespace AsyncCost.Cli.Tests;

/// <summary>
/// --format html, opened in a real headless Chromium: what a person sees. The methods in the text report's order, a bar per
/// figure whose length follows it, sorting by a clicked column, findings that lead to their methods, a page that fits a
/// phone and asks nothing of the network.
/// </summary>
public sealed class HtmlReportTests(Chromium chromium) : IClassFixture<Chromium>
{
    /// <summary>The methods table's columns: 0 is the name, then the figures in the writer's order.</summary>
    private const string RowsScript = """
        (sel) => Array.from(document.querySelectorAll(sel)).map(r => r.cells[0].textContent.trim())
        """;

    [Theory]
    [InlineData("webshop")]
    [InlineData("chatty")]
    public async Task The_report_of_a_recorded_sample_lists_its_methods_in_order_with_bars_that_follow_their_figures(string sample)
    {
        using var directory = new TemporaryDirectory("asynccost-html-");
        var report = await WriteHtmlAsync(sample, directory);
        var (page, requests) = await chromium.OpenAsync(directory.File("report.html"));

        // The application's own rows first, in the text report's order, then the framework's assemblies.
        var expected = ReportDocument.Rows(report, allMethods: false).ToList();
        var shown = await page.EvaluateAsync<string[]>(RowsScript, "table.methods tbody tr");
        Assert.Equal(expected.Select(m => m.DisplayName), shown);
        Assert.Equal(expected.Count(m => m.Origin == MethodOrigin.User), await page.Locator("table.methods tbody.user tr").CountAsync());

        // Every figure column: each bar's length is its value over one scale, so bars compare as the figures do; an estimate's
        // whisker is centred on the bar's end (value ± bound).
        var headers = await page.EvaluateAsync<string[]>("() => Array.from(document.querySelectorAll('table.methods thead th')).map(h => h.textContent)");
        var whiskers = 0;
        for (var column = 1; column < headers.Length; column++)
        {
            var cells = await page.EvaluateAsync<double[][]>("""
                (col) => Array.from(document.querySelectorAll('table.methods tbody tr')).map(r => r.cells[col]).filter(c => parseFloat(c.getAttribute('data-v')) >= 0).map(c => {
                  const bar = c.querySelector('.bar'), fill = c.querySelector('.fill'), w = c.querySelector('.whisker');
                  const full = bar ? bar.getBoundingClientRect().width : 1, left = bar ? bar.getBoundingClientRect().left : 0;
                  return [parseFloat(c.getAttribute('data-v')), parseFloat(c.getAttribute('data-b')), fill ? fill.getBoundingClientRect().width / full : -1,
                          w ? (w.getBoundingClientRect().left - left + w.getBoundingClientRect().width / 2) / full : -1, w ? 1 : 0];
                })
                """, column);
            if (cells.Length == 0 || cells.Max(c => c[0] + c[1]) <= 0)
            {
                continue; // a column of zeros draws no bars
            }
            Assert.All(cells, c => Assert.True(c[2] >= 0, $"{headers[column]}: no bar for {c[0]}"));
            var widest = cells.MaxBy(c => c[0])!;
            foreach (var cell in cells)
            {
                // width_i / width_max = value_i / value_max, to about a pixel of a 60 px bar.
                Assert.True(Math.Abs((cell[2] * widest[0]) - (widest[2] * cell[0])) <= 0.02 * widest[0],
                    $"{headers[column]}: bar {cell[2]:0.###} for {cell[0]} against {widest[2]:0.###} for {widest[0]}");
                Assert.Equal(cell[1] > 0, cell[4] == 1);
                if (cell[1] > 0 && cell[1] <= cell[0])
                {
                    Assert.InRange(cell[3], cell[2] - 0.02, cell[2] + 0.02);
                }
            }
            whiskers += cells.Count(c => c[4] == 1);
        }

        Assert.True(whiskers > 0, "a sampled report draws its estimates with whiskers");

        // The async call tree: the library's calls in its order, each name further right the deeper its call.
        var tree = report.CallTree.Lines();
        Assert.NotEmpty(tree);
        var treeRows = await page.EvaluateAsync<double[][]>("""
            () => Array.from(document.querySelectorAll('table.calltree tbody tr')).map(r => {
              const c = r.cells[0], range = document.createRange();
              range.selectNodeContents(c);
              return [parseInt(r.getAttribute('data-depth')), range.getBoundingClientRect().left - c.getBoundingClientRect().left];
            })
            """);
        Assert.Equal(tree.Select(l => (double)l.Depth), treeRows.Select(r => r[0]));
        Assert.All(treeRows, row => Assert.True(treeRows.Where(other => other[0] < row[0]).All(other => other[1] < row[1]), $"depth {row[0]} is not indented past the shallower calls"));
        Assert.Equal(tree.Select(l => CallTreeDocument.Name(l, allMethods: false).TrimStart()), await page.EvaluateAsync<string[]>(RowsScript, "table.calltree tbody tr"));
        Assert.Equal([new Uri(directory.File("report.html")).AbsoluteUri], requests.Distinct());
    }

    [Fact]
    public async Task Clicking_a_column_sorts_each_group_by_it_and_a_second_click_reverses()
    {
        using var directory = new TemporaryDirectory("asynccost-html-");
        var report = await WriteHtmlAsync("webshop", directory);
        var (page, _) = await chromium.OpenAsync(directory.File("report.html"));
        var user = ReportDocument.Rows(report, allMethods: false).Where(m => m.Origin == MethodOrigin.User).ToList();

        await page.Locator("table.methods th", new() { HasTextString = "Calls" }).ClickAsync();
        var byCalls = user.OrderByDescending(m => Math.Round(m.Calls?.Value ?? -1, 3)).Select(m => m.DisplayName).ToList();
        Assert.Equal(byCalls, await page.EvaluateAsync<string[]>(RowsScript, "table.methods tbody.user tr"));
        Assert.NotEqual(user.Select(m => m.DisplayName), byCalls); // the recorded service's order by calls is not its order by bytes
        Assert.Equal("descending", await page.Locator("table.methods th", new() { HasTextString = "Calls" }).GetAttributeAsync("aria-sort"));

        await page.Locator("table.methods th", new() { HasTextString = "Calls" }).ClickAsync();
        var ascending = user.OrderBy(m => Math.Round(m.Calls?.Value ?? -1, 3)).Select(m => m.DisplayName).ToList();
        Assert.Equal(ascending, await page.EvaluateAsync<string[]>(RowsScript, "table.methods tbody.user tr"));

        // Framework assemblies stay below the application's methods whatever the order.
        Assert.Equal(user.Count, await page.EvaluateAsync<int>("() => Array.from(document.querySelectorAll('table.methods tbody tr')).findIndex(r => r.closest('tbody').classList.contains('framework'))"));
    }

    [Fact]
    public async Task Each_measured_finding_links_to_its_methods_row()
    {
        using var directory = new TemporaryDirectory("asynccost-html-");
        await WriteHtmlAsync("webshop", directory);
        var (page, _) = await chromium.OpenAsync(directory.File("report.html"));

        var links = await page.EvaluateAsync<string[][]>("""
            () => Array.from(document.querySelectorAll('table.findings tbody tr')).map(r => {
              const a = r.cells[3].querySelector('a');
              const target = a ? document.getElementById(a.getAttribute('href').slice(1)) : null;
              return [r.cells[1].textContent, r.cells[3].textContent, a ? 'link' : 'none', target ? target.cells[0].textContent : ''];
            })
            """);
        Assert.NotEmpty(links);
        var linked = links.Where(l => l[2] == "link").ToList();
        Assert.NotEmpty(linked);
        Assert.All(linked, l => Assert.Equal(l[1], l[3]));

        // Following a link lands on the method's row.
        await page.Locator("table.findings a").First.ClickAsync();
        Assert.Equal(linked[0][1], (await page.Locator("tr:target td.method").TextContentAsync())?.Trim());
    }

    [Fact]
    public async Task The_page_fits_a_phone_width_window_without_scrolling_the_page_sideways()
    {
        using var directory = new TemporaryDirectory("asynccost-html-");
        await WriteHtmlAsync("webshop", directory);
        var (page, _) = await chromium.OpenAsync(directory.File("report.html"), width: 390, height: 844);

        Assert.True(await page.EvaluateAsync<bool>("() => document.documentElement.scrollWidth <= window.innerWidth"));
        Assert.True(await page.Locator("table.methods").IsVisibleAsync());
        // The README's picture is this page at a desktop width.
        await page.SetViewportSizeAsync(1000, 1300);
        await page.ScreenshotAsync(new() { Path = Path.Combine(AppContext.BaseDirectory, "html-report.png") });
    }

    [Fact]
    public async Task A_comparison_shows_its_verdict_first_and_before_and_after_bars_with_the_changes_marked()
    {
        var costly = Run(asyncBytes: 2_048_000, hops: 1_200, voluntarySwitches: 6_000);
        var fixedTwin = Run(asyncBytes: 512_000, hops: 1_190, voluntarySwitches: 60);
        var comparison = Comparison.Create("costly.json", costly, "fixed.json", fixedTwin, operations: 200);
        using var directory = new TemporaryDirectory("asynccost-html-");
        using (var writer = new StreamWriter(directory.File("compare.html")))
        {
            HtmlReport.Write(comparison, writer);
        }

        var (page, requests) = await chromium.OpenAsync(directory.File("compare.html"));

        Assert.Equal(comparison.Summary(), (await page.Locator("body > :nth-child(2)").TextContentAsync())?.Trim());
        // Per row: name, changed (1/0), its tag, and the before and after bars' lengths as fractions of the full bar (-1: none).
        var rows = await page.EvaluateAsync<string[][]>("""
            () => {
              const fraction = c => String(c.querySelector('.fill') ? c.querySelector('.fill').getBoundingClientRect().width / c.querySelector('.bar').getBoundingClientRect().width : -1);
              return Array.from(document.querySelectorAll('table.compare tbody tr')).map(r => [
              r.cells[0].textContent, r.classList.contains('change') ? '1' : '0', r.cells[4].textContent,
              fraction(r.cells[1]), fraction(r.cells[2])]);
            }
            """);
        Assert.Equal(comparison.Figures.Select(f => f.Name), rows.Select(r => r[0]));
        foreach (var (figure, row) in comparison.Figures.Zip(rows))
        {
            // The badge is the verdict's judgement of the figure: context switches move with the machine's load and are never
            // marked as a change, whatever their ratio; a figure the verdict does not judge is not marked either.
            Assert.Equal(comparison.Judge(figure) is Judgement.Improved or Judgement.Regressed, row[1] == "1");
            if (figure is { Before.Value: > 0, After.Value: > 0 })
            {
                // The two bars of a row share a scale: their lengths compare as the figures do.
                var ratio = double.Parse(row[4], CultureInfo.InvariantCulture) / double.Parse(row[3], CultureInfo.InvariantCulture);
                var expected = figure.After.Value / figure.Before.Value;
                Assert.InRange(ratio, (expected * 0.95) - 0.01, (expected * 1.05) + 0.01);
            }
        }

        Assert.Contains(rows, r => r[1] == "1");
        Assert.Contains(rows, r => r[2] == "within the noise or 10 %");
        Assert.Contains(rows, r => r[0] == "Async-method bytes per op" && r[2] == "better beyond its bound and 10 %");
        Assert.Contains("fixed allocates 4.0× fewer bytes in async methods per operation", comparison.Summary(), StringComparison.Ordinal);
        Assert.Contains(rows, r => r[0] == "Voluntary context switches per op" && r[2] == "moves with the machine's load: not judged");
        Assert.Single(requests.Distinct());
    }

    /// <summary>Writes the recorded sample's report as HTML (with its analyzer findings) and returns the report -o kept beside it.</summary>
    private static async Task<AsyncCostReport> WriteHtmlAsync(string sample, TemporaryDirectory directory)
    {
        var result = await ChildProcess.RunToolAsync(
            ["report", .. Repository.RecordedTraces(sample), "--sarif", Repository.Recorded(sample + ".sarif"), "--format", "html", "-o", directory.File("report.html")]);
        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.StartsWith("<!DOCTYPE html>", File.ReadAllText(directory.File("report.html")), StringComparison.Ordinal);
        var kept = JsonDocument.Parse(File.ReadAllText(directory.File("report.json"))).RootElement;
        return AsyncCostReportJson.Deserialize(kept.GetProperty("measured").GetRawText());
    }

    private static AsyncCostReport Run(double asyncBytes, long hops, long voluntarySwitches) => new()
    {
        Source = new ReportSource { Kind = SourceKind.Launch },
        Duration = TimeSpan.FromSeconds(5),
        // Each figure is per operation of its own pass (issue 48): the hop totals stand on a hop pass of their own.
        Passes =
        [
            new PassSummary { Pass = MeasurementPasses.Allocations, AllocationEvent = "AllocationSampled" },
            new PassSummary { Pass = MeasurementPasses.Hops },
        ],
        Methods = [new MethodCost
        {
            MethodKey = "App.Pipeline.RunAsync",
            DisplayName = "App.Pipeline.RunAsync",
            Bytes = new Figure { Value = asyncBytes, ErrorBound = asyncBytes * 0.05, Samples = 1_500, Sampled = true, Source = FigureSource.AllocationPass },
        }],
        Totals = new ProcessTotals
        {
            Hops = Figure.Exact(hops, FigureSource.HopPass),
            VoluntaryContextSwitches = voluntarySwitches,
            InvoluntaryContextSwitches = 10,
        },
    };
}
