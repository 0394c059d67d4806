using AsyncCost.Findings;
using AsyncCost.Report;

namespace AsyncCost.Cli.Rendering;

/// <summary>The formats a report can be written in.</summary>
internal enum ReportFormat
{
    Table,
    Markdown,
    Json,
    Csv,
    Html,

    /// <summary>The cpu pass's stacks as a flame graph in speedscope's format, not the report.</summary>
    Speedscope,
}

/// <summary>How a report is shown: its format, whether the framework's and libraries' methods get a row each
/// (<c>--all-methods</c>) or one row per assembly below the application's own (JSON always keeps every row), and whether the
/// table on stdout keeps every column however wide (<c>--wide</c>; a file always does).</summary>
internal sealed record ReportView(ReportFormat Format, bool AllMethods = false, bool Wide = false);

/// <summary>Writes a report in one format.</summary>
internal static class ReportWriter
{
    /// <summary>What speedscope and dotnet-trace name its files.</summary>
    public const string SpeedscopeExtension = ".speedscope.json";

    public static string FileExtension(ReportFormat format) => format switch
    {
        ReportFormat.Markdown => ".md",
        ReportFormat.Json => ".json",
        ReportFormat.Csv => ".csv",
        ReportFormat.Html => ".html",
        ReportFormat.Speedscope => SpeedscopeExtension,
        _ => ".txt",
    };

    /// <param name="report">The measurement.</param>
    /// <param name="hot">The analyzer findings ranked by it (--sarif), or null.</param>
    /// <param name="view">The format, and the framework methods' rows.</param>
    /// <param name="output">Where to write.</param>
    /// <param name="isTerminal">Colour for a terminal.</param>
    /// <param name="stacks">The cpu pass's stacks, for the speedscope format (null for the others).</param>
    /// <param name="width">The table format's width (null: every column, rows on one line).</param>
    public static void Write(AsyncCostReport report, HotFindingsReport? hot, ReportView view, TextWriter output, bool isTerminal, StackProfile? stacks = null, int? width = null)
    {
        switch (view.Format)
        {
            case ReportFormat.Speedscope:
                output.WriteLine(SpeedscopeJson.Serialize(stacks ?? throw new ArgumentNullException(nameof(stacks)), stacks.TraceFiles.Count > 0 ? Path.GetFileName(stacks.TraceFiles[0]) : "asynccost"));
                break;
            case ReportFormat.Json:
                output.WriteLine(hot is null ? AsyncCostReportJson.Serialize(report) : HotFindingsJson.Serialize(hot));
                break;
            case ReportFormat.Csv:
                CsvWriter.Write(hot is null ? ReportDocument.MethodsRaw(report, view.AllMethods) : HotFindingsDocument.Raw(hot), output);
                break;
            case ReportFormat.Html:
                HtmlReport.Write(report, hot, view.AllMethods, output);
                break;
            case ReportFormat.Markdown:
                MarkdownWriter.Write(Document(report, hot, view.AllMethods), output);
                break;
            default:
                ConsoleTableWriter.Write(Document(report, hot, view.AllMethods), output, isTerminal, width);
                break;
        }

        output.Flush();
    }

    // The ranked findings come first: they are what the reader came for; the measurement follows as evidence.
    private static TextDocument Document(AsyncCostReport report, HotFindingsReport? hot, bool allMethods)
    {
        var document = ReportDocument.Create(report, allMethods);
        return hot is null ? document : document with { Tables = [HotFindingsDocument.Table(hot), .. document.Tables] };
    }
}
