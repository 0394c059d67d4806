using AsyncCost.Cli.Tests.Infrastructure;

namespace AsyncCost.Cli.Tests;

/// <summary>`report` of traces that take seconds to read: progress on stderr, and a stop that does not wait for the end.</summary>
public sealed class LongReadTests
{
    private const int Copies = 4;

    [Fact]
    public async Task A_long_read_shows_its_progress_and_a_stop_ends_it_before_the_last_trace()
    {
        using var directory = new TemporaryDirectory("asynccost-long-read-");
        var traces = await RecordHopTracesAsync(directory);

        var whole = await ChildProcess.RunToolAsync(["report", "--format", "json", .. traces]);
        Assert.True(whole.ExitCode == 0, whole.ToString());
        var progress = whole.ErrorLines.Where(l => l.StartsWith("Reading run.", StringComparison.Ordinal)).ToList();
        Assert.NotEmpty(progress);
        Assert.All(progress, line => Assert.Matches(@"^Reading run\.\d\.hops\.nettrace \(\d/4\)  \d\d:\d\d:\d\d  [\d,]+ events  \d+ % of [\d.]+ MB$", line));
        Assert.All(progress, line => Assert.True(line.Length <= 80, line));

        using var tool = ChildProcess.StartTool(["report", "--format", "json", .. traces]);
        await tool.WaitForLineAsync(l => l.StartsWith("Reading run.", StringComparison.Ordinal));
        tool.Signal("TERM");
        var stopped = await tool.WaitForExitAsync();

        Expect.OneLineError(stopped, 20, "Stopped while reading the traces");
        Assert.DoesNotContain(stopped.ErrorLines, l => l.StartsWith("Reading ", StringComparison.Ordinal) && l.Contains($"({Copies}/{Copies})", StringComparison.Ordinal));
        Assert.Equal("", stopped.StandardOutput);
    }

    /// <summary>A few seconds of the hop pass on the yield loop, copied so that reading them all takes several seconds.</summary>
    private static async Task<string[]> RecordHopTracesAsync(TemporaryDirectory directory)
    {
        var basePath = directory.File("run");
        var recorded = await ChildProcess.RunToolAsync("collect", "--passes", "hops", "--duration", "00:00:04", "-o", basePath,
            "--", "dotnet", Repository.WorkloadDll, "yield", "300000000");
        Assert.True(recorded.ExitCode == 0, recorded.ToString());
        var traces = Enumerable.Range(1, Copies).Select(i => directory.File($"run.{i}.hops.nettrace")).ToArray();
        foreach (var trace in traces)
        {
            File.Copy(basePath + ".nettrace", trace); // one pass: collect writes <base>.nettrace
        }
        return traces;
    }
}
