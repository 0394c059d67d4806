using AsyncCost.Cli.Rendering;
using AsyncCost.Report;

using AsyncCost.Cli.Tests.Infrastructure;

namespace AsyncCost.Cli.Tests;

/// <summary>The text formats' shape, on a report built in memory (the end-to-end tests check them on real traces).</summary>
public sealed class RenderingTests
{
    private const string LongName = "Contoso.Pricing.VeryLongNamespaceName.PriceCache<TKey, TValue>.GetOrAddPriceForTheGivenSymbolAsync";

    // A web server's names: long namespaces and generic arguments.
    private const string KestrelKey = "Microsoft.AspNetCore.Server.Kestrel.Core.Internal.Http.HttpProtocol.ProcessRequests";
    private const string KestrelName = "Microsoft.AspNetCore.Server.Kestrel.Core.Internal.Http.HttpProtocol.ProcessRequests<Microsoft.AspNetCore.Hosting.HostingApplication.Context>";

    private static Figure Estimate(double value, double bound, long samples) =>
        new() { Value = value, ErrorBound = bound, Samples = samples, Sampled = true, Source = FigureSource.AllocationPass };

    private static readonly AsyncCostReport Report = new()
    {
        Source = new ReportSource { Kind = SourceKind.Attach, ProcessId = 42, ProcessName = "app", RuntimeVersion = "10.0.12" },
        Duration = TimeSpan.FromSeconds(4),
        Passes =
        [
            new PassSummary { Pass = MeasurementPasses.Allocations, Duration = TimeSpan.FromSeconds(2), Events = 1234, Bytes = 2048, AllocationEvent = "AllocationSampled" },
            new PassSummary { Pass = MeasurementPasses.Hops, Duration = TimeSpan.FromSeconds(2), Events = 5678, Bytes = 4096 },
        ],
        Methods =
        [
            new MethodCost
            {
                MethodKey = "Contoso.Small.RunAsync",
                DisplayName = "Contoso.Small.RunAsync",
                Calls = Figure.Exact(10, FigureSource.HopPass),
                SuspendingCalls = Figure.Exact(10, FigureSource.HopPass),
                Hops = Figure.Exact(10, FigureSource.HopPass),
            },
            new MethodCost
            {
                MethodKey = "Contoso.Pricing.VeryLongNamespaceName.PriceCache.GetOrAddPriceForTheGivenSymbolAsync",
                DisplayName = LongName,
                // Counted by the hop pass: exact. Its bytes are the allocation pass's estimate.
                Calls = Figure.Exact(1000, FigureSource.HopPass),
                SampledCalls = Estimate(1000, 50, 400),
                Bytes = Estimate(112_000, 5600, 400),
                Objects = Estimate(1000, 50, 400),
                BytesPerCall = Estimate(112, 0.45, 400),
                ObjectsPerCall = Estimate(1, 0, 400),
                SuspendingCalls = Figure.Exact(1000, FigureSource.HopPass),
                Hops = Figure.Exact(1000, FigureSource.HopPass),
                HopsPerCall = Figure.Exact(1, FigureSource.HopPass),
                // Every call timed, first suspension to completion: a mean with the bound of the calls' spread.
                ElapsedPerCallMilliseconds = new Figure { Value = 20.7, ErrorBound = 0.29, Samples = 1000, Sampled = true, Source = FigureSource.HopPass },
                ElapsedMilliseconds = new Figure { Value = 20_700, Samples = 1000, Source = FigureSource.HopPass },
                ShareOfAsyncBytes = 0.9,
            },
            new MethodCost
            {
                // Four samples behind it: an estimate whose bound is as wide as the figure.
                MethodKey = KestrelKey,
                DisplayName = KestrelName,
                Calls = Estimate(4300, 4214, 4),
                SampledCalls = Estimate(4300, 4214, 4),
                Bytes = Estimate(12_444, 12_195, 4),
                BytesPerCall = Estimate(2.9, 0, 4),
                ShareOfAsyncBytes = 0.1,
            },
        ],
        Totals = new ProcessTotals { CompletedWorkItems = Figure.Exact(2000, FigureSource.OperatingSystem), VoluntaryContextSwitches = 30, InvoluntaryContextSwitches = 10 },
        Threads = [new ThreadSwitches { ThreadId = 7, Name = ".NET TP Worker", ThreadClass = "threadpool", Voluntary = 30, Involuntary = 10 }],
    };

    [Fact]
    public void Table_is_plain_unwrapped_and_most_costly_first_when_redirected()
    {
        var text = Render(ReportFormat.Table);

        Expect.PlainText(text);
        var lines = text.Split('\n');
        var costly = Array.FindIndex(lines, l => l.Contains(LongName, StringComparison.Ordinal));
        var cheap = Array.FindIndex(lines, l => l.Contains("Contoso.Small.RunAsync", StringComparison.Ordinal));
        Assert.InRange(costly, 0, cheap - 1);
        // Calls counted by the hop pass print as they are; the allocation pass's estimates carry ~ and their bound.
        Assert.Matches(CostlyFigures, lines[costly]);
        // Four samples: the estimate's bound is as wide as the figure itself.
        Assert.Matches(@"~4,300 ±98%\s+-\s+~2\.9 ±0\.0%\s+-\s+-\s+~12\.2 KB ±98%", Assert.Single(lines, l => l.Contains(KestrelName, StringComparison.Ordinal)));
        Assert.Matches(@"Contoso\.Small\.RunAsync\s+10\s", lines[cheap]);
        Assert.All(lines, l => Assert.Equal(l.TrimEnd(), l));
        Assert.Contains(lines, l => l.Contains("threadpool", StringComparison.Ordinal) && l.Contains("75.0 %", StringComparison.Ordinal));
    }

    [Fact]
    public void Markdown_escapes_generic_names_and_right_aligns_numbers()
    {
        var text = Render(ReportFormat.Markdown);

        Assert.Contains("| Method | Calls | Elapsed/call | Bytes/call |", text, StringComparison.Ordinal);
        Assert.Contains("| --- | ---: | ---: | ---: |", text, StringComparison.Ordinal);
        Assert.Contains("PriceCache&lt;TKey, TValue&gt;", text, StringComparison.Ordinal);
        Assert.Contains("| 1,000 | ~20.7 ms ±1.4% | ~112 ±0.4% |", text, StringComparison.Ordinal);
        Assert.Contains("| ~4,300 ±98% |", text, StringComparison.Ordinal);
    }

    [Fact]
    public void Csv_has_one_row_per_method_with_plain_numbers()
    {
        var lines = Render(ReportFormat.Csv).Split('\n', StringSplitOptions.RemoveEmptyEntries);

        Assert.Equal(4, lines.Length);
        Assert.StartsWith("method,methodKey,calls,callsErrorBound,callsKind,sampledCalls,suspendingCalls,bytesPerCall,bytesPerCallErrorBound,objectsPerCall,objectsPerCallErrorBound,hopsPerCall,hopsPerCallErrorBound,bytes,bytesErrorBound,bytesSamples,", lines[0], StringComparison.Ordinal);
        Assert.StartsWith($"\"{LongName}\",Contoso.Pricing.VeryLongNamespaceName.PriceCache.GetOrAddPriceForTheGivenSymbolAsync,1000,0,exact,1000,1000,112,0.45,1,0,1,0,112000,5600,400,", lines[1], StringComparison.Ordinal);
        Assert.StartsWith($"{KestrelName},{KestrelKey},4300,4214,estimate,4300,,2.9,0,", lines[2], StringComparison.Ordinal);
        Assert.StartsWith("Contoso.Small.RunAsync,Contoso.Small.RunAsync,10,0,exact,,10,,,,,,,,,,", lines[3], StringComparison.Ordinal);
    }

    [Fact]
    public void Json_round_trips_through_the_library_serializer()
    {
        var report = AsyncCostReportJson.Deserialize(Render(ReportFormat.Json));

        Assert.Equal(3, report.Methods.Count);
        Assert.Equal(AsyncCostReport.CurrentSchemaVersion, report.SchemaVersion);
    }

    private static readonly AsyncCostReport WebReport = Report with
    {
        Methods =
        [
            Framework("Microsoft.AspNetCore.Server.Kestrel.Core", "Microsoft.AspNetCore.Server.Kestrel.Core.Internal.Http.HttpProtocol.ProcessRequests", 900),
            Framework("System.Net.Http", "System.Net.Http.HttpConnection.SendAsync", 300),
            Framework("Microsoft.AspNetCore.Server.Kestrel.Core", "Microsoft.AspNetCore.Server.Kestrel.Core.Internal.Http.Http1Connection.ParseRequest", 100),
            // The user's rows, without the Kestrel-named one the width tests use (these tests place the real Kestrel rows).
            .. Report.Methods.Where(m => m.MethodKey != KestrelKey),
        ],
    };

    [Fact]
    public void Framework_methods_come_after_the_users_one_row_per_assembly_with_its_totals()
    {
        var lines = Render(WebReport, new ReportView(ReportFormat.Table)).Split('\n');

        // The methods table's rows: after its header's rule, up to the blank line before its note.
        var rows = lines.SkipWhile(l => !l.Contains("Async methods", StringComparison.Ordinal)).SkipWhile(l => !l.StartsWith('─')).Skip(1).TakeWhile(l => l.Trim().Length > 0).ToList();
        Assert.Equal(4, rows.Count);
        Assert.Contains(LongName, rows[0], StringComparison.Ordinal);
        Assert.Contains("Contoso.Small.RunAsync", rows[1], StringComparison.Ordinal);
        Assert.Matches(@"\[Microsoft\.AspNetCore\.Server\.Kestrel\.Core: 2 methods\]\s+20\s+.*\s+1,000 B\s", rows[2]);
        Assert.Matches(@"\[System\.Net\.Http: 1 method\]\s+10\s+.*\s+300 B\s", rows[3]);
        Assert.Contains(lines, l => l.Contains("--all-methods lists them", StringComparison.Ordinal));
    }

    [Fact]
    public void All_methods_lists_the_framework_methods_one_by_one_csv_groups_them_like_the_table_and_json_keeps_every_row()
    {
        var table = Render(WebReport, new ReportView(ReportFormat.Table, AllMethods: true));
        int Line(string name) => table.IndexOf(name, StringComparison.Ordinal);
        Assert.True(Line("Contoso.Small.RunAsync") < Line("HttpProtocol.ProcessRequests"));
        Assert.True(Line("HttpProtocol.ProcessRequests") < Line("HttpConnection.SendAsync"));
        Assert.True(Line("HttpConnection.SendAsync") < Line("Http1Connection.ParseRequest"));
        Assert.DoesNotContain("methods]", table, StringComparison.Ordinal);

        var csv = Render(WebReport, new ReportView(ReportFormat.Csv)).Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal(5, csv.Length);
        Assert.EndsWith(",framework,Microsoft.AspNetCore.Server.Kestrel.Core", csv[3], StringComparison.Ordinal);

        var json = AsyncCostReportJson.Deserialize(Render(WebReport, new ReportView(ReportFormat.Json)));
        Assert.Equal(5, json.Methods.Count);
        Assert.Equal(MethodOrigin.Framework, json.Methods.Single(m => m.MethodKey.EndsWith("SendAsync", StringComparison.Ordinal)).Origin);
        Assert.Equal("System.Net.Http", json.Methods.Single(m => m.MethodKey.EndsWith("SendAsync", StringComparison.Ordinal)).Assembly);
    }

    private static MethodCost Framework(string assembly, string key, double bytes) => new()
    {
        MethodKey = key,
        DisplayName = key,
        Assembly = assembly,
        Origin = MethodOrigin.Framework,
        Calls = Figure.Exact(10, FigureSource.AllocationPass),
        Bytes = Figure.Exact(bytes, FigureSource.AllocationPass),
    };

    private static string Render(AsyncCostReport report, ReportView view)
    {
        using var writer = new StringWriter();
        ReportWriter.Write(report, null, view, writer, isTerminal: false);
        return writer.ToString();
    }

    private static string Render(ReportFormat format) => Render(Report, new ReportView(format));

    private const string CostlyFigures = @"1,000\s+~20\.7 ms ±1\.4%\s+~112 ±0\.4%\s+~1\.0 ±0\.0%\s+1\.0\s+~109\.4 KB ±5\.0%\s+90\.0 %\s+allocations\+hops";

    [Theory]
    [InlineData(100)]
    [InlineData(130)]
    public void A_terminal_table_fits_its_width_with_names_shortened_in_the_middle_and_columns_aligned(int width)
    {
        using var writer = new StringWriter();
        ConsoleTableWriter.Write(ReportDocument.Create(Report), writer, isTerminal: true, width);
        var lines = System.Text.RegularExpressions.Regex.Replace(writer.ToString(), "\u001b\\[[0-9;?]*[A-Za-z]", "").Split('\n').Select(l => l.TrimEnd('\r')).ToList();

        Assert.All(lines, l => Assert.True(l.Length <= width, $"{l.Length} > {width}: {l}"));
        // Whole on a line of its own, or shortened in the middle beside its figures: the start says where, the end which method.
        var name = Assert.Single(lines, l => l.Contains("Contoso.Pri", StringComparison.Ordinal) && l.Contains("SymbolAsync", StringComparison.Ordinal));
        Assert.True(name.Contains(LongName, StringComparison.Ordinal) || name.Contains('…', StringComparison.Ordinal), name);
        // The figures line up under their headers (right-aligned numbers end where the header ends).
        var header = lines.Single(l => l.Contains("Bytes/call", StringComparison.Ordinal));
        var figures = lines[lines.IndexOf(name) + (name.Contains("1,000", StringComparison.Ordinal) ? 0 : 1)];
        // Too narrow for every column, details go first (rightmost first) and the note names them; the rest line up under
        // their headers (right-aligned numbers end where the header ends).
        (string Header, string Figure)[] columns =
        [
            ("Calls", "1,000"), ("Elapsed/call", "~20.7 ms ±1.4%"), ("Bytes/call", "~112 ±0.4%"), ("Obj/call", "~1.0 ±0.0%"), ("Hops/call", "1.0"),
            ("Total bytes", "~109.4 KB ±5.0%"), ("Share", "90.0 %"), ("Pass", "allocations+hops"),
        ];
        var shown = columns.Where(c => header.Contains(c.Header, StringComparison.Ordinal)).ToList();
        Assert.Matches(string.Join(@"\s+", shown.Select(c => System.Text.RegularExpressions.Regex.Escape(c.Figure))), figures);
        foreach (var (column, figure) in shown.Where(c => c.Header != "Pass"))
        {
            Assert.Equal(header.IndexOf(column, StringComparison.Ordinal) + column.Length, figures.IndexOf(figure, StringComparison.Ordinal) + figure.Length);
        }

        var leftOut = columns.Except(shown).Select(c => c.Header).ToList();
        string[] kept = ["Calls", "Elapsed/call", "Bytes/call", "Hops/call", "Share"];
        Assert.Equal(kept, shown.Select(c => c.Header).Intersect(kept));
        if (leftOut.Count > 0)
        {
            Assert.Contains($"Left out for width: {string.Join(", ", leftOut)} (--wide", string.Join(" ", lines.Select(l => l.Trim())), StringComparison.Ordinal);
        }

        // The web server's name keeps its type and method whole; its generic arguments go first.
        Assert.Single(lines, l => l.Contains("HttpProtocol.ProcessRequests<…>", StringComparison.Ordinal));
    }

    [Fact]
    public void Shortening_keeps_the_end_longer_than_the_start()
    {
        Assert.Equal("Contoso.Pri….GetPriceAsync", ConsoleTableWriter.ShortenMiddle("Contoso.Pricing.Service.GetPriceAsync", 26));
        Assert.Equal("Contos…enSymbolAsync", ConsoleTableWriter.ShortenMiddle("Contoso.Pricing.GetOrAddPriceForTheGivenSymbolAsync", 20));
        Assert.Equal("Short.RunAsync", ConsoleTableWriter.ShortenMiddle("Short.RunAsync", 20));
        Assert.Equal("Cache<…>.GetAsync", ConsoleTableWriter.ShortenMiddle("Cache<Ns.Key, Ns.Value>.GetAsync", 20));
        Assert.Equal("Micros….Http.HttpProtocol.ProcessRequests<…>", ConsoleTableWriter.ShortenMiddle(KestrelName, 44));
    }
}
