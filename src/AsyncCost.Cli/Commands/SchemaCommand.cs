using System.CommandLine;
using AsyncCost.Cli.Rendering;
using AsyncCost.Findings;
using AsyncCost.Report;

namespace AsyncCost.Cli.Commands;

/// <summary>`schema`: the JSON schema of `--format json` reports (generated from the library's model, so it cannot drift).</summary>
internal static class SchemaCommand
{
    public static readonly CommandHelp Help = new(
        ["dotnet-asynccost schema > asynccost-report.schema.json", "dotnet-asynccost schema --hot-findings > asynccost-hot-findings.schema.json",
            "dotnet-asynccost schema --budget > asynccost-budget.schema.json"],
        [ExitCode.Success],
        "The schema was printed.");

    public static Command Create()
    {
        var hotFindings = new Option<bool>("--hot-findings") { Description = "The schema of reports written with --format json --sarif (findings ranked by cost) instead." };
        var budget = new Option<bool>("--budget") { Description = "The schema of a budget file that 'compare budget.json run.json' holds a run to instead." };
        var command = new Command("schema", $"Print the JSON schema (version {AsyncCostReport.CurrentSchemaVersion}) of reports written with --format json.") { hotFindings, budget };
        command.SetAction(parse =>
        {
            var schema = parse.GetValue(budget) ? BudgetFile.JsonSchema()
                : parse.GetValue(hotFindings) ? HotFindingsJson.GetSchema() : AsyncCostReportJson.GetSchema();
            Console.Out.WriteLine(schema.ToJsonString(AsyncCostReportJson.Options));
            return 0;
        });
        return command;
    }
}
