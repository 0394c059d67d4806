using System.CommandLine;
using AsyncCost.Cli.Rendering;
using AsyncCost.Cli.Terminal;
using AsyncCost.Report;
using AsyncCost.Sessions;

namespace AsyncCost.Cli.Commands;

/// <summary>`report`: the same report as `collect`, from saved .nettrace files.</summary>
internal static class ReportCommand
{
    public static readonly CommandHelp Help = new(
        [
            "dotnet-asynccost report app.allocations.nettrace app.hops.nettrace",
            "dotnet-asynccost report trace.nettrace --format markdown -o costs",
            "dotnet-asynccost report trace.nettrace --format json > costs.json",
            "dotnet-asynccost report --sarif build.sarif app.allocations.nettrace app.hops.nettrace",
        ],
        [
            ExitCode.Success, ExitCode.UsageError, ExitCode.TraceFileNotFound, ExitCode.TraceFileInvalid, ExitCode.OutputNotWritable,
            ExitCode.FindingsFileNotFound, ExitCode.FindingsFileInvalid,
        ],
        "The report was written.");

    public static Command Create()
    {
        var traces = new Argument<string[]>("trace")
        {
            Description = "The .nettrace file(s): one per pass as 'collect -o' writes them (<base>.allocations.nettrace, <base>.hops.nettrace), or a single trace. "
                + "Several traces of one pass (the slices <base>.<pass>.<n>.nettrace) are added up; a file named twice is read once. "
                + "A trace's pass is read from its events (TPL or thread-pool events: hops; allocation events: allocations); one with neither "
                + "is the pass its name says, else the one the others lack (a hop pass with no TPL event then shows 0 hops).",
            Arity = ArgumentArity.OneOrMore,
        };
        // An unknown option would otherwise be taken for a file name.
        traces.Validators.Add(result =>
        {
            foreach (var token in result.Tokens.Where(t => t.Value.StartsWith('-')))
            {
                result.AddError($"Unrecognized option '{token.Value}'.");
            }
        });
        var format = CommonOptions.Format();
        var output = CommonOptions.Output("Write the report to <file> instead of stdout: to that very file when it ends in .txt, .md, .json, .csv, .html "
            + "or .speedscope.json, else to <file>.<format extension>; plus <file>.json for 'compare'. An existing directory gets <dir>/asynccost.*.");
        var sarif = CommonOptions.Sarif();
        var allMethods = CommonOptions.AllMethods();
        var wide = CommonOptions.Wide();
        var operations = CommonOptions.Operations("How many operations the recorded run did in each pass (as 'collect --operations' or the run's "
            + "'asynccost: N operations' line said; a trace does not keep it): findings' times and 'compare' then go per operation.");
        var command = new Command("report", "Print the report of saved .nettrace files (what 'collect' measures, offline).") { traces, format, output, sarif, allMethods, wide, operations };
        command.SetAction((parse, _) => ReportRun.RunAsync(
            new ReportView(parse.GetValue(format), parse.GetValue(allMethods), parse.GetValue(wide)),
            parse.GetValue(output),
            parse.GetValue(sarif),
            hint: null,
            (_, stop, status) => ReadAsync(parse.GetValue(traces)!, parse.GetValue(operations), status, stop)));
        return command;
    }

    private static async Task<AsyncCostReport> ReadAsync(string[] traces, long? operations, StatusLine status, CancellationToken stop)
    {
        try
        {
            return await AsyncCostSession.ReadTraceAsync(traces, operations, status, stop).ConfigureAwait(false);
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
            throw new CliException(ExitCode.CanceledBeforeRecording, "Stopped while reading the traces: nothing was reported.");
        }
    }
}
