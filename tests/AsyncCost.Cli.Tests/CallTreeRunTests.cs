using System.Globalization;
using System.Text.Json.Nodes;
using AsyncCost.Cli.Tests.Infrastructure;
using Xunit.Abstractions;

namespace AsyncCost.Cli.Tests;

/// <summary>
/// Real runs of the workload's loop of independent timer calls (Fetches.FetchEachAsync): awaited one after another, the
/// same with a blocking wait after them, and run together with Task.WhenAll. The first run's call tree predicts what
/// running each loop's calls together saves; compare measures it on the loop's own path against the Task.WhenAll run.
/// </summary>
public class CallTreeRunTests(ITestOutputHelper output)
{
    private const string Operations = "100";
    private const string LoopMethod = "AsyncCost.Workload.Fetches.FetchEachAsync";
    private const string Callee = "AsyncCost.Workload.Fetches.FetchAsync";

    [Fact]
    public async Task A_loops_predicted_saving_is_checked_against_the_same_calls_run_together_and_told_apart_from_a_blocking_wait_in_its_method()
    {
        using var directory = new TemporaryDirectory("asynccost-call-tree-");
        var sarif = await WriteSarifAsync(directory.File("fetches.sarif"));
        var inTurn = await CollectAsync(directory, "fetch-in-turn");
        var blocking = await CollectAsync(directory, "fetch-in-turn-blocking");
        var together = await CollectAsync(directory, "fetch-together");

        // The tree of each run, per operation: the loop's method awaits its 4 fetches one after another, or starts them together.
        var inTurnTree = JsonNode.Parse(await File.ReadAllTextAsync(inTurn))!["callTree"]!;
        Assert.Equal("operation", (string)inTurnTree["per"]!);
        var fetches = Callees(inTurnTree, LoopMethod).Single(n => (string)n["methodKey"]! == Callee);
        Assert.InRange((double)fetches["callsPerRun"]!, 3.5, 4.0);
        Assert.InRange((double)fetches["calls"]!["value"]!, 3.5, 4.05);
        Assert.True((double)fetches["savingIfTogetherMilliseconds"]!["value"]! > 0, fetches.ToJsonString());
        // Blocking on a timer between the loop's executions leaves each execution a run of its own.
        var fetchesBeside = Callees(JsonNode.Parse(await File.ReadAllTextAsync(blocking))!["callTree"]!, LoopMethod).Single(n => (string)n["methodKey"]! == Callee);
        Assert.InRange((double)fetchesBeside["callsPerRun"]!, 3.5, 4.0);
        var fetchesTogether = Callees(JsonNode.Parse(await File.ReadAllTextAsync(together))!["callTree"]!, LoopMethod).Single(n => (string)n["methodKey"]! == Callee);
        Assert.InRange((double)fetchesTogether["callsPerGroup"]!, 3.5, 4.0);
        Assert.Null(fetchesTogether["savingIfTogetherMilliseconds"]);

        // The loop's prediction, checked: a measured saving, within the predicted interval.
        var loop = await CompareAsync(inTurn, together, sarif, "AC0001");
        Report("in turn → together", loop);
        Assert.True((bool?)loop["savingWithinPrediction"] == true, loop.ToJsonString());
        // Three of four fetches' timers go: the measured saving is of that order (timers stretch under load), never nothing.
        var measured = (double)loop["savingMeasured"]!["value"]!;
        Assert.InRange(measured, 0.5 * (Fetches.PerRun - 1) * Fetches.FetchMilliseconds, 4.0 * Fetches.PerRun * Fetches.FetchMilliseconds);

        // The same loop in a method that also blocks: its saving is measured on its own path, the blocking wait's fix not
        // credited to it, and the wait's own time goes.
        var loopBeside = await CompareAsync(blocking, together, sarif, "AC0001");
        Report("in turn and blocking → together", loopBeside);
        Assert.True((bool?)loopBeside["savingWithinPrediction"] == true, loopBeside.ToJsonString());
        var wait = await CompareAsync(blocking, together, sarif, "AC0006");
        Assert.Equal("gone", (string)wait["change"]!);
        Assert.Null(wait["savingPredicted"]);
    }

    /// <summary>The children of the first node of <paramref name="methodKey"/> in the tree, depth first.</summary>
    private static IEnumerable<JsonNode> Callees(JsonNode tree, string methodKey)
    {
        IEnumerable<JsonNode> All(JsonNode node) => [node, .. node["children"]!.AsArray().SelectMany(c => All(c!))];
        var nodes = tree["roots"]!.AsArray().SelectMany(r => All(r!));
        return nodes.First(n => (string)n["methodKey"]! == methodKey)["children"]!.AsArray().Select(c => c!);
    }

    private static async Task<string> CollectAsync(TemporaryDirectory directory, string scenario)
    {
        var result = await ChildProcess.RunToolAsync(["collect", "--passes", "hops", "--operations", Operations, "--format", "json", "--", "dotnet", Repository.WorkloadDll, scenario, Operations]);
        Assert.True(result.ExitCode == 0, result.ToString());
        var path = directory.File(scenario + ".json");
        await File.WriteAllTextAsync(path, result.StandardOutput);
        return path;
    }

    /// <summary>compare's findingTimes entry of the rule's finding (its first row, which holds the saving's check).</summary>
    private static async Task<JsonNode> CompareAsync(string before, string after, string sarif, string ruleId)
    {
        var result = await ChildProcess.RunToolAsync("compare", before, after, "--sarif", sarif, "--format", "json");
        Assert.True(result.ExitCode == 0, result.ToString());
        return JsonNode.Parse(result.StandardOutput)!["findingTimes"]!.AsArray().First(t => (string)t!["ruleId"]! == ruleId)!;
    }

    private void Report(string what, JsonNode time)
    {
        var load = File.Exists("/proc/loadavg") ? File.ReadAllText("/proc/loadavg").Trim() : "unknown";
        output.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"{what}: predicted {time["savingPredicted"]?["value"]} ± {time["savingPredicted"]?["errorBound"]} to {time["savingPredictedIfOverlapping"]?["value"]} ms/op, measured {time["savingMeasured"]?["value"]} ± {time["savingMeasured"]?["errorBound"]} ms/op, within: {time["savingWithinPrediction"]}; load {load}"));
        output.WriteLine((string?)time["savingExplanation"] ?? "");
    }

    /// <summary>The analyzer's findings in the loop's method, as a minimal SARIF log naming the lines marked in Fetches.cs.</summary>
    private static async Task<string> WriteSarifAsync(string path)
    {
        const string source = "tests/AsyncCost.Workload/Fetches.cs";
        var lines = await File.ReadAllLinesAsync(Path.Combine(Repository.Root, source));
        int Line(string mark) => Array.FindIndex(lines, l => l.TrimEnd().EndsWith("// " + mark, StringComparison.Ordinal)) + 1;
        static JsonObject Rule(string id, string cost) => new() { ["id"] = id, ["properties"] = new JsonObject { ["tags"] = new JsonArray("AsyncCost.Cost." + cost) } };
        JsonObject Result(string ruleId, string? costIn)
        {
            var custom = new JsonObject { ["AsyncCostMethod"] = LoopMethod };
            if (costIn is not null)
            {
                custom["AsyncCostCostIn"] = costIn;
            }
            return new JsonObject
            {
                ["ruleId"] = ruleId,
                ["level"] = "warning",
                ["message"] = new JsonObject { ["text"] = ruleId },
                ["locations"] = new JsonArray(new JsonObject
                {
                    ["physicalLocation"] = new JsonObject
                    {
                        ["artifactLocation"] = new JsonObject { ["uri"] = source },
                        ["region"] = new JsonObject { ["startLine"] = Line(ruleId), ["startColumn"] = 1 },
                    },
                }),
                ["properties"] = new JsonObject { ["customProperties"] = custom },
            };
        }
        Assert.True(Line("AC0001") > 0 && Line("AC0006") > 0, "Fetches.cs marks its findings' lines '// AC0001' and '// AC0006'.");
        var log = new JsonObject
        {
            ["version"] = "2.1.0",
            ["runs"] = new JsonArray(new JsonObject
            {
                ["tool"] = new JsonObject { ["driver"] = new JsonObject { ["name"] = "Microsoft (R) Visual C# Compiler", ["rules"] = new JsonArray(Rule("AC0001", "Hops"), Rule("AC0006", "Blocking")) } },
                ["results"] = new JsonArray(Result("AC0001", Callee), Result("AC0006", null)),
            }),
        };
        await File.WriteAllTextAsync(path, log.ToJsonString());
        return path;
    }

    /// <summary>The workload's figures (tests/AsyncCost.Workload/Fetches.cs), which the bounds above are generous against.</summary>
    private static class Fetches
    {
        public const int PerRun = 4;
        public const double FetchMilliseconds = 4;
    }
}
