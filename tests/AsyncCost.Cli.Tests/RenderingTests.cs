using AsyncCost.Cli.Rendering;
using AsyncCost.Report;

using AsyncCost.Cli.Tests.Infrastructure;

namespace AsyncCost.Cli.Tests;

/// <summary>The text formats' shape, on a report built in memory (the end-to-end tests check them on real traces).</summary>
public sealed class RenderingTests
{
    private const string LongName = "Contoso.Pricing.VeryLongNamespaceName.PriceCache<TKey, TValue>.GetOrAddPriceForTheGivenSymbolAsync";

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
                Calls = new Figure { Value = 1000, ErrorBound = 50, Samples = 400, Sampled = true, Source = FigureSource.AllocationPass },
                Bytes = new Figure { Value = 112_000, ErrorBound = 5600, Samples = 400, Sampled = true, Source = FigureSource.AllocationPass },
                Objects = new Figure { Value = 1000, ErrorBound = 50, Samples = 400, Sampled = true, Source = FigureSource.AllocationPass },
                SuspendingCalls = Figure.Exact(1000, FigureSource.HopPass),
                Hops = Figure.Exact(1000, FigureSource.HopPass),
                ShareOfAsyncBytes = 1,
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
        Assert.Matches(@"1,000\s+112\s+1\.0\s+1\.0\s+109\.4 KB\s+100\.0 %\s+±5\.0 %\s+allocations\+hops", lines[costly]);
        Assert.All(lines, l => Assert.Equal(l.TrimEnd(), l));
        Assert.Contains(lines, l => l.Contains("threadpool", StringComparison.Ordinal) && l.Contains("75.0 %", StringComparison.Ordinal));
    }

    [Fact]
    public void Markdown_escapes_generic_names_and_right_aligns_numbers()
    {
        var text = Render(ReportFormat.Markdown);

        Assert.Contains("| Method | Calls | Bytes/call |", text, StringComparison.Ordinal);
        Assert.Contains("| --- | ---: | ---: |", text, StringComparison.Ordinal);
        Assert.Contains("PriceCache&lt;TKey, TValue&gt;", text, StringComparison.Ordinal);
    }

    [Fact]
    public void Csv_has_one_row_per_method_with_plain_numbers()
    {
        var lines = Render(ReportFormat.Csv).Split('\n', StringSplitOptions.RemoveEmptyEntries);

        Assert.Equal(3, lines.Length);
        Assert.StartsWith("method,methodKey,calls,suspendingCalls,bytesPerCall,objectsPerCall,hopsPerCall,bytes,bytesErrorBound,bytesSamples,", lines[0], StringComparison.Ordinal);
        Assert.StartsWith($"\"{LongName}\",Contoso.Pricing.VeryLongNamespaceName.PriceCache.GetOrAddPriceForTheGivenSymbolAsync,1000,1000,112,1,1,112000,5600,400,", lines[1], StringComparison.Ordinal);
        Assert.StartsWith("Contoso.Small.RunAsync,Contoso.Small.RunAsync,10,10,,,1,,,,", lines[2], StringComparison.Ordinal);
    }

    [Fact]
    public void Json_round_trips_through_the_library_serializer()
    {
        var report = AsyncCostReportJson.Deserialize(Render(ReportFormat.Json));

        Assert.Equal(2, report.Methods.Count);
        Assert.Equal(AsyncCostReport.CurrentSchemaVersion, report.SchemaVersion);
    }

    private static string Render(ReportFormat format)
    {
        using var writer = new StringWriter();
        ReportWriter.Write(Report, null, format, writer, isTerminal: false);
        return writer.ToString();
    }
}
