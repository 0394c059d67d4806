using AsyncCost.Report;

namespace AsyncCost.Cli.Rendering;

/// <summary>The formats a report can be written in.</summary>
internal enum ReportFormat
{
    Table,
    Markdown,
    Json,
    Csv,
}

/// <summary>Writes a report in one format.</summary>
internal static class ReportWriter
{
    public static string FileExtension(ReportFormat format) => format switch
    {
        ReportFormat.Markdown => ".md",
        ReportFormat.Json => ".json",
        ReportFormat.Csv => ".csv",
        _ => ".txt",
    };

    public static void Write(AsyncCostReport report, ReportFormat format, TextWriter output, bool isTerminal)
    {
        switch (format)
        {
            case ReportFormat.Json:
                output.WriteLine(AsyncCostReportJson.Serialize(report));
                break;
            case ReportFormat.Csv:
                CsvWriter.Write(ReportDocument.MethodsRaw(report), output);
                break;
            case ReportFormat.Markdown:
                MarkdownWriter.Write(ReportDocument.Create(report), output);
                break;
            default:
                ConsoleTableWriter.Write(ReportDocument.Create(report), output, isTerminal);
                break;
        }

        output.Flush();
    }
}
