using System.Globalization;
using System.Text.Json.Nodes;

namespace AsyncCost.Samples.Tests;

/// <summary>
/// 'dotnet-asynccost compare' on real runs of ChattyPipeline: a rerun of the same sample differs only within the noise,
/// and the Fixed twin's real improvement (no thread blocked per hand-off) is named as a change.
/// </summary>
[Collection(BuiltSamplesDefinition.Name)]
public sealed class SampleCompareTests(BuiltSamples samples) : IDisposable
{
    private const int Orders = 200;
    private static readonly TimeSpan RunTimeout = TimeSpan.FromMinutes(3);
    private readonly DirectoryInfo _directory = Directory.CreateTempSubdirectory("asynccost-sample-compare-");

    [Fact]
    public async Task A_rerun_is_noise_and_the_fixed_twin_is_a_change()
    {
        Assert.True(samples.Build.ExitCode == 0, $"samples build failed: {samples.Build}");
        var first = await CollectAsync("ChattyPipeline", "run1");
        var second = await CollectAsync("ChattyPipeline", "run2");
        var fixedTwin = await CollectAsync("ChattyPipeline.Fixed", "fixed");

        var rerun = await CompareAsync(first, second);
        var fix = await CompareAsync(first, fixedTwin);

        // The sampled async-method bytes of one sample run twice: the bounds overlap, so it is marked as noise.
        Assert.True((bool)Figure(rerun, "asyncMethodBytes")["withinNoise"]!, rerun.ToJsonString());
        // Hops per order are the sample's own logic: the same in both runs, and so not named as a change.
        Assert.InRange((double)Figure(rerun, "hops")["ratio"]!, 0.9, 1.1);
        var rerunSummary = (string)rerun["summary"]!;
        Assert.DoesNotContain("bytes in async methods per operation", rerunSummary, StringComparison.Ordinal);
        Assert.DoesNotContain("thread-pool hops per operation", rerunSummary, StringComparison.Ordinal);

        // The twin no longer blocks a thread per hand-off: far fewer voluntary context switches, named as a change. Its hops
        // per order stay the same (4 lookups + 1 discount + 1 hand-off through the channel, where the costly one has a
        // Task.Yield and a blocked consumer thread): the same within 10 %, and so not named.
        var switches = Figure(fix, "voluntaryContextSwitches");
        Assert.False((bool)switches["withinNoise"]!, fix.ToJsonString());
        Assert.InRange((double)switches["ratio"]!, 0.05, 0.5);
        Assert.InRange((double)Figure(fix, "hops")["ratio"]!, 0.9, 1.1);
        Assert.Matches(@"^fixed makes [0-9.]+× fewer voluntary context switches \(threads blocking\) per operation than run1, a count that moves with the machine's load", (string)fix["summary"]!);

        // Without --operations: both are launched runs of the same 200 orders, so they are compared per run, not per second
        // (the twin runs faster, so per second it would do more of everything).
        var perRun = await CompareAsync(first, fixedTwin, operations: null);
        Assert.Equal("perRun", (string)perRun["basis"]!);
        Assert.Matches(@"^fixed makes [0-9.]+× fewer voluntary context switches \(threads blocking\) per run than run1", (string)perRun["summary"]!);
    }

    public void Dispose() => _directory.Delete(recursive: true);

    private async Task<string> CollectAsync(string sample, string name)
    {
        var output = Path.Combine(_directory.FullName, name);
        var run = await DotnetCommand.RunAsync(
            [Repository.ToolDll, "collect", "--format", "json", "-o", output, "--", "dotnet", Repository.SampleAssembly(sample),
                "--operations", Orders.ToString(CultureInfo.InvariantCulture)],
            RunTimeout);
        Assert.True(run.ExitCode == 0, run.ToString());
        return output + ".json";
    }

    private static async Task<JsonNode> CompareAsync(string before, string after, int? operations = Orders)
    {
        var compare = await DotnetCommand.RunAsync(
            [Repository.ToolDll, "compare", before, after, .. operations is { } count ? ["--operations", count.ToString(CultureInfo.InvariantCulture)] : Array.Empty<string>(), "--format", "json"],
            RunTimeout);
        Assert.True(compare.ExitCode == 0, compare.ToString());
        return JsonNode.Parse(compare.StandardOutput)!;
    }

    private static JsonNode Figure(JsonNode comparison, string key) =>
        comparison["figures"]!.AsArray().Single(f => (string)f!["figure"]! == key)!;
}
