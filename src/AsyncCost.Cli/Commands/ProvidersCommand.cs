using System.CommandLine;
using System.Text.Json;
using System.Text.Json.Nodes;
using AsyncCost.Report;
using AsyncCost.Sessions;

namespace AsyncCost.Cli.Commands;

/// <summary>`providers`: what to enable to record a pass with dotnet-trace or dotnet-monitor, so `report` reads the trace
/// like one of its own (printed from the providers the tool's own sessions enable, so the two never drift).</summary>
internal static class ProvidersCommand
{
    public static readonly CommandHelp Help = new(
        [
            "dotnet-asynccost providers",
            "dotnet-trace collect -p 1234 --duration 00:00:30 -o run.allocations.nettrace --providers \"$(dotnet-asynccost providers --pass allocations)\"",
            "dotnet-asynccost providers --pass hops --for dotnet-monitor > hops-trace-request.json",
        ],
        [ExitCode.Success, ExitCode.UsageError],
        "The providers were printed.");

    private enum Tool
    {
        DotNetTrace,
        DotNetMonitor,
    }

    public static Command Create()
    {
        var pass = new Option<string?>("--pass")
        {
            Description = "One pass: allocations, hops or cpu. Without it, all three: for dotnet-trace one line each after a # comment, for dotnet-monitor one JSON object keyed by pass.",
            HelpName = "allocations|hops|cpu",
        };
        pass.AcceptOnlyFromAmong("allocations", "hops", "cpu");
        var tool = new Option<string>("--for")
        {
            Description = "The recording tool: dotnet-trace (its --providers value) or dotnet-monitor (the JSON body of POST /trace).",
            DefaultValueFactory = _ => "dotnet-trace",
            HelpName = "dotnet-trace|dotnet-monitor",
        };
        tool.AcceptOnlyFromAmong("dotnet-trace", "dotnet-monitor");
        var command = new Command("providers", "Print the EventPipe providers of each pass for dotnet-trace or dotnet-monitor: record one trace per pass with them, then read the traces with 'report'.")
        {
            pass, tool,
        };
        command.SetAction(parse =>
        {
            var target = parse.GetValue(tool) == "dotnet-monitor" ? Tool.DotNetMonitor : Tool.DotNetTrace;
            var passes = parse.GetValue(pass) switch
            {
                "allocations" => [MeasurementPasses.Allocations],
                "hops" => [MeasurementPasses.Hops],
                "cpu" => [MeasurementPasses.Cpu],
                _ => new[] { MeasurementPasses.Allocations, MeasurementPasses.Hops, MeasurementPasses.Cpu },
            };
            if (target == Tool.DotNetMonitor)
            {
                // One JSON document: a trace request, or one per pass keyed by its name.
                var json = passes.Length == 1
                    ? PassProviders.ForDotNetMonitor(passes[0])
                    : new JsonObject(passes.Select(p => KeyValuePair.Create(p.ToString().ToLowerInvariant(), (JsonNode?)PassProviders.ForDotNetMonitor(p))));
                Console.Out.WriteLine(json.ToJsonString(new JsonSerializerOptions { WriteIndented = true }));
                return 0;
            }
            foreach (var one in passes)
            {
                if (passes.Length > 1)
                {
                    Console.Out.WriteLine($"# {Describe(one)}");
                }
                Console.Out.WriteLine(PassProviders.ForDotNetTrace(one));
            }
            return 0;
        });
        return command;
    }

    private static string Describe(MeasurementPasses pass) => pass switch
    {
        MeasurementPasses.Allocations => "allocations pass (TPL events off): bytes and objects per async method",
        MeasurementPasses.Hops => "hops pass (TPL events on): hops and blocking waits per async method",
        _ => "cpu pass (stack samples, dotnet-trace's default): time running and blocked",
    };
}
