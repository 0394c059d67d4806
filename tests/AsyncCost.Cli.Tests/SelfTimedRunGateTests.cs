using System.Globalization;
using System.Text.Json.Nodes;
using AsyncCost.Cli.Tests.Infrastructure;

namespace AsyncCost.Cli.Tests;

/// <summary>
/// An app that stops itself after a time, launched under collect as docs/ci.md's workflow runs one: each pass's run does
/// different work (the hop pass's tracing slows it many times over), so the gate must hold each figure to its own pass's
/// operations. Before, the hop pass's count of calls times the bytes per call, over the allocation pass's operations, read
/// ~3 B for a 104 B call and passed a 50 B budget.
/// </summary>
public sealed class SelfTimedRunGateTests
{
    [Fact]
    public async Task An_app_that_stops_itself_reads_its_own_bytes_per_operation_fails_a_budget_under_them_and_its_fixed_twin_keeps_it()
    {
        using var directory = new TemporaryDirectory("asynccost-self-timed-");
        var budget = directory.File("asynccost-budget.json");
        await File.WriteAllTextAsync(budget, """{ "budgetVersion": 1, "asyncMethodBytesPerOperation": 50, "hopsPerOperation": 2 }""");

        async Task<(string Report, IReadOnlyList<WorkloadResult> Truth)> CollectAsync(string name, string scenario)
        {
            var basePath = directory.File(name);
            var result = await ChildProcess.RunToolAsync("collect", "-o", basePath, "--", "dotnet", Repository.WorkloadDll, scenario, "10000", "--for-seconds=1.5");
            Assert.True(result.ExitCode == 0, result.ToString());
            // The launched command's output (its RESULT and 'asynccost:' lines, one run per pass) goes to the tool's stderr.
            return (basePath + ".json", WorkloadResult.ParseAll(result.StandardError));
        }

        // yield: one Task.Yield per call, a state-machine box (~104 B) and one hop.
        var (costly, truth) = await CollectAsync("costly", "yield");
        var report = JsonNode.Parse(await File.ReadAllTextAsync(costly))!;
        var operations = report["passes"]!.AsArray().Select(p => (long)p!["operations"]!).ToList();
        Assert.Equal(truth.Select(t => (long)t.Count), operations);
        // The runs did different work (always, unless tracing cost nothing): the rows stand on each pass, not on one run.
        Assert.Equal(operations.Distinct().Count() > 1 ? "eachPass" : "run", (string)report["rowBasis"]!);

        var gate = await ChildProcess.RunToolAsync("compare", budget, costly, "--fail-on-regression", "--format", "json");
        Assert.True(gate.ExitCode == 26, gate.ToString());
        var comparison = JsonNode.Parse(gate.StandardOutput)!;
        Assert.Equal(["asyncMethodBytes"], comparison["regressions"]!.AsArray().Select(k => (string)k!));
        // The allocation pass's run counted its own bytes exactly (the GC's count over its calls, start-up excluded); the
        // sampled figure per operation of that same pass lies within 15 % of it (its bound is a few percent).
        var bytesPerOperation = (double)comparison["figures"]!.AsArray().Single(f => (string)f!["figure"]! == "asyncMethodBytes")!["after"]!["value"]!;
        Assert.InRange(bytesPerOperation, truth[0].BytesPerOp * 0.85, truth[0].BytesPerOp * 1.15);
        Assert.Equal(1.0, (double)comparison["figures"]!.AsArray().Single(f => (string)f!["figure"]! == "hops")!["after"]!["value"]!, 0.1);
        Assert.Contains("Async-method bytes per op: 50 B in asynccost-budget", gate.StandardError, StringComparison.Ordinal);

        // valuetask-sync: the fixed twin completes synchronously as a ValueTask, allocating nothing: it keeps the budget.
        var (fixedTwin, _) = await CollectAsync("fixed", "valuetask-sync");
        var kept = await ChildProcess.RunToolAsync("compare", budget, fixedTwin, "--fail-on-regression");
        Assert.True(kept.ExitCode == 0, kept.ToString());

        // --operations against the counts the runs printed is refused, naming both.
        var contradicted = await ChildProcess.RunToolAsync("compare", costly, fixedTwin, "--operations", "288");
        Assert.True(contradicted.ExitCode == 2, contradicted.ToString());
        Assert.Contains($"--operations 288 contradicts the {operations[0].ToString("N0", CultureInfo.InvariantCulture)} operations costly.json's allocations pass knows", Expect.Messages(contradicted.StandardError)[0], StringComparison.Ordinal);
    }

    [Fact]
    public async Task Collect_refuses_operations_that_contradict_the_count_the_command_printed()
    {
        var result = await ChildProcess.RunToolAsync("collect", "--passes", "allocations", "--operations", "5", "--", "dotnet", Repository.WorkloadDll, "yield", "1000", "--for-seconds=0.2");

        Assert.True(result.ExitCode == 2, result.ToString());
        Assert.Matches(@"^dotnet-asynccost: --operations 5 contradicts the [0-9,]+ operations the command's run in its allocations pass knows",
            Assert.Single(Expect.Messages(result.StandardError), m => m.StartsWith("dotnet-asynccost:", StringComparison.Ordinal)));
    }
}
