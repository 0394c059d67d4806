using System.CommandLine;
using AsyncCost.Report;

namespace AsyncCost.Cli.Commands;

/// <summary>`schema`: the JSON schema of `--format json` reports (generated from the library's model, so it cannot drift).</summary>
internal static class SchemaCommand
{
    public static readonly CommandHelp Help = new(["dotnet-asynccost schema > asynccost-report.schema.json"], [ExitCode.Success]);

    public static Command Create()
    {
        var command = new Command("schema", $"Print the JSON schema (version {AsyncCostReport.CurrentSchemaVersion}) of reports written with --format json.");
        command.SetAction(_ =>
        {
            Console.Out.WriteLine(AsyncCostReportJson.GetSchema().ToJsonString(AsyncCostReportJson.Options));
            return 0;
        });
        return command;
    }
}
