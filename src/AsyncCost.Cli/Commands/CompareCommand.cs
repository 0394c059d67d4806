using System.CommandLine;
using System.Text.Json;
using System.Text.Json.Nodes;
using AsyncCost.Cli.Rendering;
using AsyncCost.Report;

namespace AsyncCost.Cli.Commands;

/// <summary>`compare`: two JSON reports (a run and its fix) side by side.</summary>
internal static class CompareCommand
{
    public static readonly CommandHelp Help = new(
        [
            "dotnet-asynccost compare before.json after.json",
            "dotnet-asynccost compare costly.json fixed.json --operations 400 --format markdown",
        ],
        [ExitCode.Success, ExitCode.UsageError, ExitCode.ReportFileInvalid]);

    public static Command Create()
    {
        var before = new Argument<string>("before") { Description = "The first run's JSON report ('collect --format json', or the .json that -o keeps)." };
        var after = new Argument<string>("after") { Description = "The second run's JSON report." };
        var operations = new Option<long?>("--operations")
        {
            Description = "How many operations each run did: figures are then shown per operation.",
            HelpName = "count",
        };
        var format = CommonOptions.Format();
        var command = new Command("compare", "Show two measured runs side by side: bytes, hops and work items (per operation with --operations), context switches per second.")
        {
            before, after, operations, format,
        };
        command.SetAction(parse =>
        {
            var beforePath = parse.GetValue(before)!;
            var afterPath = parse.GetValue(after)!;
            var document = ComparisonDocument.Create(beforePath, Read(beforePath), afterPath, Read(afterPath), parse.GetValue(operations));
            switch (parse.GetValue(format))
            {
                case ReportFormat.Markdown:
                    MarkdownWriter.Write(document, Console.Out);
                    break;
                case ReportFormat.Csv:
                case ReportFormat.Json:
                    // One table of plain cells: csv serves spreadsheets and scripts alike.
                    CsvWriter.Write(document.Tables[0], Console.Out);
                    break;
                default:
                    ConsoleTableWriter.Write(document, Console.Out, isTerminal: !Console.IsOutputRedirected);
                    break;
            }

            return 0;
        });
        return command;
    }

    /// <summary>A report, or the measured report inside a hot-findings document (--sarif).</summary>
    private static AsyncCostReport Read(string path)
    {
        try
        {
            var root = JsonNode.Parse(File.ReadAllText(path));
            var report = root?["measured"] is JsonObject measured ? measured : root;
            return AsyncCostReportJson.Deserialize(report?.ToJsonString() ?? "null");
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or JsonException)
        {
            throw new CliException(ExitCode.ReportFileInvalid, $"Cannot read report {path}: {e.Message}");
        }
    }
}
