using System.Text.Json.Nodes;
using System.Text.RegularExpressions;

namespace AsyncCost.Samples.Tests;

/// <summary>
/// 'dotnet-asynccost compare' on real runs of ChattyPipeline, each bounded by the sample's own --duration (so the runs do
/// different amounts of work, and say how much: "asynccost: N operations in S s"): a rerun of the same sample differs only
/// within the noise, the Fixed twin's ~4× throughput is named first, and the CI gate fails the costly build against its
/// fixed twin with the message a user reads, and passes the fix.
/// </summary>
[Collection(BuiltSamplesDefinition.Name)]
public sealed class SampleCompareTests(BuiltSamples samples) : IDisposable
{
    private const string SampleDuration = "2s";
    private static readonly TimeSpan RunTimeout = TimeSpan.FromMinutes(3);
    private readonly DirectoryInfo _directory = Directory.CreateTempSubdirectory("asynccost-sample-compare-");

    [Fact]
    public async Task Runs_bounded_by_time_are_judged_per_operation_and_the_gate_fails_the_regressed_build()
    {
        Assert.True(samples.Build.ExitCode == 0, $"samples build failed: {samples.Build}");
        var first = await CollectAsync("ChattyPipeline", "run1");
        var second = await CollectAsync("ChattyPipeline", "run2");
        var fixedTwin = await CollectAsync("ChattyPipeline.Fixed", "fixed");

        var rerun = await CompareAsync(first, second);
        var fix = await CompareAsync(first, fixedTwin);

        // Each report holds its runs' own counts, so the comparison is per operation without --operations.
        Assert.Equal("perOperation", (string)fix["basis"]!);
        Assert.True((long)Figure(fix, "operations")["after"]!["value"]! > (long)Figure(fix, "operations")["before"]!["value"]!, fix.ToJsonString());
        // The sampled async-method bytes of one sample run twice: the bounds overlap, so it is marked as noise.
        Assert.True((bool)Figure(rerun, "asyncMethodBytes")["withinNoise"]!, rerun.ToJsonString());
        // Hops per order are the sample's own logic: the same in both runs, and so not named as a change.
        Assert.InRange((double)Figure(rerun, "hops")["ratio"]!, 0.9, 1.1);
        var rerunSummary = (string)rerun["summary"]!;
        Assert.DoesNotContain("bytes in async methods per operation", rerunSummary, StringComparison.Ordinal);
        Assert.DoesNotContain("thread-pool hops per operation", rerunSummary, StringComparison.Ordinal);

        // The twin hands orders on without blocking a thread and runs the lookups of an order together: ~4× the orders per
        // second, named first; its hops per order stay the same (4 lookups + 1 discount + 1 hand-off), so no cost is named.
        Assert.InRange((double)Figure(fix, "throughput")["ratio"]!, 2, 8);
        Assert.InRange((double)Figure(fix, "hops")["ratio"]!, 0.9, 1.1);
        Assert.Matches(@"^fixed runs [0-9.]+× more operations per second than run1; every difference named is outside its bound", (string)fix["summary"]!);
        Assert.DoesNotContain(" more bytes", (string)fix["summary"]!, StringComparison.Ordinal);
        Assert.DoesNotContain(" more thread-pool hops", (string)fix["summary"]!, StringComparison.Ordinal);

        // The gate: the costly build after its fix is a regression (exit 26, each figure named on stderr); the fix passes (0).
        var regressed = await RunToolAsync("compare", fixedTwin, first, "--fail-on-regression");
        Assert.True(regressed.ExitCode == 26, regressed.ToString());
        Assert.StartsWith("dotnet-asynccost: run1 regressed against fixed:\n", regressed.StandardError.ReplaceLineEndings("\n"), StringComparison.Ordinal);
        // Redirected, every line fits 80 columns: a regression goes on under its first line, indented further.
        var stderrLines = regressed.StandardError.ReplaceLineEndings("\n").Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.All(stderrLines, line => Assert.True(line.Length <= 80, $"{line.Length} > 80: {line}"));
        var regressions = stderrLines.Skip(1).Aggregate(new List<string>(), (items, line) =>
        {
            if (line.StartsWith("    ", StringComparison.Ordinal)) { items[^1] += " " + line.Trim(); } else { items.Add(line.Trim()); }
            return items;
        });
        Assert.Contains(regressions, item => Regex.IsMatch(item,
            @"^Throughput \(ops/s\): [0-9,.]+ in fixed, [0-9,.]+ in run1 \([0-9.]+× fewer\), worse beyond its bound and the 10 % threshold$"));
        var improved = await RunToolAsync("compare", first, fixedTwin, "--fail-on-regression");
        Assert.True(improved.ExitCode == 0, improved.ToString());
        Assert.Empty(improved.StandardError);

        // The same gate against the budget checked in beside the Fixed twin, which holds costs alone (no throughput): the twin
        // keeps it, the costly build fails it on a cost, its producer's hop per order (a yield the twin makes once per run).
        var budget = Path.Combine(Repository.Root, "samples", "ChattyPipeline.Fixed", "asynccost-budget.json");
        var kept = await RunToolAsync("compare", budget, fixedTwin, "--fail-on-regression");
        Assert.True(kept.ExitCode == 0, kept.ToString());
        var broken = await RunToolAsync("compare", budget, first, "--fail-on-regression", "--annotations", "github");
        Assert.True(broken.ExitCode == 26, broken.ToString());
        Assert.DoesNotContain("Throughput (ops/s)", broken.StandardOutput, StringComparison.Ordinal);
        Assert.Matches(@"(?m)^::error title=AsyncCost regression::ChattyPipeline\.OrderPipeline\.ProduceOrdersAsync hops per op: 0\.5 in asynccost-budget, [0-9.]+ in run1 \([0-9.]+× more\), worse beyond its bound and the 10 %25 threshold$",
            broken.StandardOutput.ReplaceLineEndings("\n"));
    }

    public void Dispose() => _directory.Delete(recursive: true);

    private async Task<string> CollectAsync(string sample, string name)
    {
        var output = Path.Combine(_directory.FullName, name);
        var run = await RunToolAsync("collect", "--format", "json", "-o", output, "--", "dotnet", Repository.SampleAssembly(sample), "--duration", SampleDuration);
        Assert.True(run.ExitCode == 0, run.ToString());
        return output + ".json";
    }

    private static async Task<JsonNode> CompareAsync(string before, string after)
    {
        var compare = await RunToolAsync("compare", before, after, "--format", "json");
        Assert.True(compare.ExitCode == 0, compare.ToString());
        return JsonNode.Parse(compare.StandardOutput)!;
    }

    private static Task<CommandResult> RunToolAsync(params string[] arguments) => DotnetCommand.RunAsync([Repository.ToolDll, .. arguments], RunTimeout);

    private static JsonNode Figure(JsonNode comparison, string key) =>
        comparison["figures"]!.AsArray().Single(f => (string)f!["figure"]! == key)!;
}
