using System.CommandLine;
using System.Text.Json;
using System.Text.Json.Nodes;
using AsyncCost.Cli.Rendering;
using AsyncCost.Cli.Terminal;
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
        [ExitCode.Success, ExitCode.UsageError, ExitCode.ReportFileInvalid],
        "The comparison was written.");

    public static Command Create()
    {
        var before = new Argument<string>("before") { Description = "The first run's JSON report ('collect --format json', or the .json that -o keeps)." };
        var after = new Argument<string>("after") { Description = "The second run's JSON report." };
        var operations = new Option<long?>("--operations")
        {
            Description = "How many operations each run did (a positive whole number): figures are then shown per operation. Without it, two launched runs are compared per run; anything else per second of recording, with no verdict.",
            HelpName = "count",
        };
        operations.Validators.Add(result =>
        {
            if (result.GetValueOrDefault<long?>() is <= 0)
            {
                result.AddError("--operations: the operation count must be a positive whole number.");
            }
        });
        var format = CommonOptions.Format();
        var wide = CommonOptions.Wide();
        var command = new Command("compare", "Show two measured runs side by side: bytes, hops, work items and context switches, per operation with --operations, else per run of a launched command, else per second of recording (no verdict then).")
        {
            before, after, operations, format, wide,
        };
        command.SetAction(parse =>
        {
            var beforePath = parse.GetValue(before)!;
            var afterPath = parse.GetValue(after)!;
            var comparison = Comparison.Create(beforePath, Read(beforePath), afterPath, Read(afterPath), parse.GetValue(operations));
            switch (parse.GetValue(format))
            {
                case ReportFormat.Markdown:
                    MarkdownWriter.Write(comparison.Document(), Console.Out);
                    break;
                case ReportFormat.Csv:
                    CsvWriter.Write(comparison.Raw(), Console.Out);
                    break;
                case ReportFormat.Json:
                    Console.Out.WriteLine(comparison.Json());
                    break;
                case ReportFormat.Html:
                    HtmlReport.Write(comparison, Console.Out);
                    break;
                case ReportFormat.Speedscope:
                    throw new CliException(ExitCode.UsageError, "--format speedscope draws one run's cpu stacks ('report <base>.cpu.nettrace --format speedscope'), not a comparison.");
                default:
                    ConsoleTableWriter.Write(comparison.Document(), Console.Out, isTerminal: !Console.IsOutputRedirected, OutputWidth.StandardOutput(parse.GetValue(wide)));
                    break;
            }

            return 0;
        });
        return command;
    }

    /// <summary>A report, or the measured report inside a hot-findings document (--sarif).</summary>
    private static AsyncCostReport Read(string path)
    {
        JsonObject report;
        try
        {
            if (JsonNode.Parse(File.ReadAllText(path)) is not JsonObject root)
            {
                throw new CliException(ExitCode.ReportFileInvalid, $"Cannot read report {path}: it is JSON but not an object, so not a report of this tool.");
            }

            report = root["measured"] is JsonObject measured ? measured : root;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw new CliException(ExitCode.ReportFileInvalid, $"Cannot read report {path}: {e.Message}");
        }
        catch (JsonException e)
        {
            throw new CliException(ExitCode.ReportFileInvalid, $"Cannot read report {path}: it is not JSON (line {e.LineNumber + 1}, byte {e.BytePositionInLine + 1}).");
        }

        try
        {
            return AsyncCostReportJson.Deserialize(report.ToJsonString());
        }
        catch (JsonException)
        {
            // The serializer's message names this tool's own types: what the user needs is what the file is not.
            throw new CliException(ExitCode.ReportFileInvalid, $"Cannot read report {path}: it is JSON, but not a report of this tool "
                + "(write one with 'dotnet-asynccost collect -o <file>' or '--format json'; 'dotnet-asynccost schema' prints its shape).");
        }
    }
}
