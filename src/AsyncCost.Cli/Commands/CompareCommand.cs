using System.CommandLine;
using System.Text.Json;
using System.Text.Json.Nodes;
using AsyncCost.Cli.Rendering;
using AsyncCost.Cli.Terminal;
using AsyncCost.Findings;
using AsyncCost.Report;

namespace AsyncCost.Cli.Commands;

/// <summary>`compare`: two JSON reports (a run and its fix) side by side.</summary>
internal static class CompareCommand
{
    public static readonly CommandHelp Help = new(
        [
            "dotnet-asynccost compare before.json after.json",
            "dotnet-asynccost compare costly.json fixed.json --operations 400 --format markdown",
            "dotnet-asynccost compare costly.json fixed.json --sarif costly.sarif",
            "dotnet-asynccost compare main.json pr.json --fail-on-regression --threshold 25 --annotations github",
            "dotnet-asynccost compare asynccost-budget.json pr.json --fail-on-regression",
        ],
        [ExitCode.Success, ExitCode.UsageError, ExitCode.ReportFileInvalid, ExitCode.RegressionFound, ExitCode.NothingToJudge, ExitCode.FindingsFileNotFound,
            ExitCode.FindingsFileInvalid],
        "The comparison was written (with --fail-on-regression: no figure got worse beyond its bound and the threshold).");

    public static Command Create()
    {
        var before = new Argument<string>("before") { Description = "The first run's JSON report ('collect --format json', or the .json that -o keeps), or a budget file (asynccost-budget.json; 'schema --budget')." };
        var after = new Argument<string>("after") { Description = "The second run's JSON report." };
        var operations = CommonOptions.Operations("How many operations each run did: figures are then shown per operation of that count. Without it, "
            + "per operation of each report's own counts when both have them (printed by the command, or 'collect --operations'), else per second "
            + "of recording, with no verdict.");
        var threshold = new Option<double>("--threshold")
        {
            Description = "The smallest change, in percent, that the verdict names and --fail-on-regression fails on, beyond the figures' own bounds "
                + "(for throughput: each operation taking that much longer). Default 10.",
            HelpName = "percent",
            DefaultValueFactory = _ => FigureDifference.RunToRunTolerance * 100,
        };
        threshold.Validators.Add(result =>
        {
            if (result.GetValueOrDefault<double>() is not (>= 0 and <= 1000))
            {
                result.AddError("--threshold: a percentage from 0 to 1000 (e.g. 10 for 10 %).");
            }
        });
        var failOnRegression = new Option<bool>("--fail-on-regression")
        {
            Description = "Exit with code 26 when throughput or a cost per operation (async-method bytes, thread-pool hops) got worse beyond its bound "
                + "and the threshold, naming each on stderr; 27 when the runs' operations are unknown, so nothing can be judged.",
        };
        var annotations = new Option<string?>("--annotations")
        {
            Description = "Also write each regression as a CI annotation on stdout, after the report: 'github' (GitHub Actions ::error workflow commands) "
                + "or 'azure' (Azure Pipelines ##vso[task.logissue] logging commands). "
                + "With table or markdown only.",
            HelpName = "github|azure",
        };
        annotations.AcceptOnlyFromAmong("github", "azure");
        var sarif = CommonOptions.Sarif("Show the time of the AsyncCost analyzer findings of this SARIF log, the first run's code's, in both runs: "
            + "each finding the first run timed, its basis measured again in the second (gone, reduced, unchanged, increased or not observable). "
            + "Without it, the findings a first report written with --sarif holds. Repeat it for several logs, or name a folder for every *.sarif in it.");
        var format = CommonOptions.Format();
        var wide = CommonOptions.Wide();
        var command = new Command("compare", "Show two measured runs side by side: throughput, bytes, hops, work items and context switches, per operation "
            + "when the operations are known (--operations, or each report's own counts), else per second of recording (no verdict then).")
        {
            before, after, operations, threshold, failOnRegression, annotations, sarif, format, wide,
        };
        command.SetAction(parse =>
        {
            var beforePath = parse.GetValue(before)!;
            var afterPath = parse.GetValue(after)!;
            var chosenFormat = parse.GetValue(format);
            var annotate = parse.GetValue(annotations) switch
            {
                "github" => AnnotationStyle.GitHub,
                "azure" => AnnotationStyle.Azure,
                _ => AnnotationStyle.None,
            };
            if (annotate != AnnotationStyle.None && chosenFormat is not (ReportFormat.Table or ReportFormat.Markdown))
            {
                throw new CliException(ExitCode.UsageError, "--annotations writes to stdout beside a table or markdown report, not inside json, csv or html.");
            }

            var sarifPaths = parse.GetValue(sarif) ?? [];
            var first = ReadObject(beforePath);
            if (IsBudget(first) && sarifPaths.Length > 0)
            {
                throw new CliException(ExitCode.UsageError, "--sarif compares the findings' time in two runs; a budget file is no run.");
            }

            var run = ReadReport(afterPath, ReadObject(afterPath));
            var comparison = IsBudget(first)
                ? Comparison.AgainstBudget(beforePath, ReadBudget(beforePath, first), afterPath, run, parse.GetValue(operations), parse.GetValue(threshold) / 100)
                : Comparison.Create(beforePath, ReadReport(beforePath, first), afterPath, run, parse.GetValue(operations), parse.GetValue(threshold) / 100,
                    sarifPaths.Length > 0 ? ReadSarif(sarifPaths) : ReadFindings(beforePath, first));
            if (comparison.SameReport)
            {
                ErrorOutput.WriteLine($"dotnet-asynccost: warning: {beforePath} and {afterPath} are the same report: a run compared with itself shows no change.");
            }

            switch (chosenFormat)
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

            return parse.GetValue(failOnRegression) ? (int)RegressionGate.Judge(comparison, annotate, Console.Out, Console.Error, ErrorOutput.Width) : 0;
        });
        return command;
    }

    /// <summary>The JSON object in a file given to compare.</summary>
    private static JsonObject ReadObject(string path)
    {
        string text;
        try
        {
            text = File.ReadAllText(path);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw new CliException(ExitCode.ReportFileInvalid, $"Cannot read report {path}: {e.Message}");
        }

        try
        {
            return JsonNode.Parse(text) as JsonObject
                ?? throw new CliException(ExitCode.ReportFileInvalid, $"Cannot read report {path}: it is JSON but not an object, so neither a report nor a budget of this tool.");
        }
        catch (JsonException e)
        {
            // A hand-written budget's usual slip is a trailing comma: say where, and after which field.
            var field = JsonErrorPlace.FieldBefore(text);
            throw new CliException(ExitCode.ReportFileInvalid, $"Cannot read {path}: it is not valid JSON at line {e.LineNumber + 1}, column {e.BytePositionInLine + 1}"
                + (field is null ? "" : $", after the field \"{field}\"") + " (a trailing comma, or a missing comma, quote or value?).");
        }
    }

    /// <summary>The findings of the SARIF logs, their warnings on stderr (as 'report --sarif' does).</summary>
    private static IReadOnlyList<AnalyzerFinding> ReadSarif(IReadOnlyList<string> paths)
    {
        var sarif = SarifFindingsReader.ReadAll(paths);
        foreach (var warning in sarif.Warnings)
        {
            ErrorOutput.WriteLine($"dotnet-asynccost: warning: {warning.Message}");
        }

        return sarif.Findings;
    }

    /// <summary>The findings a report written with --sarif holds, or null for a plain report.</summary>
    private static IReadOnlyList<AnalyzerFinding>? ReadFindings(string path, JsonObject root)
    {
        try
        {
            return HotFindingsJson.FindingsOf(root);
        }
        catch (JsonException e)
        {
            throw new CliException(ExitCode.ReportFileInvalid, $"Cannot read report {path}: its findings are not this tool's ({e.Message}).");
        }
    }

    /// <summary>A budget file: an object with "budgetVersion".</summary>
    private static bool IsBudget(JsonObject root) => root.ContainsKey("budgetVersion");

    private static BudgetFile ReadBudget(string path, JsonObject root) => BudgetFile.Read(root, path);

    /// <summary>A report, or the measured report inside a hot-findings document (--sarif).</summary>
    private static AsyncCostReport ReadReport(string path, JsonObject root)
    {
        if (IsBudget(root))
        {
            throw new CliException(ExitCode.ReportFileInvalid, $"Cannot read report {path}: it is a budget; give a budget first and a measured run second (compare budget.json run.json).");
        }

        var report = root["measured"] is JsonObject measured ? measured : root;
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
