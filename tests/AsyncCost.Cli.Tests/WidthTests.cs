using AsyncCost.Cli.Tests.Infrastructure;

namespace AsyncCost.Cli.Tests;

/// <summary>`report`, `collect`, `compare` and `ps` fit 80 columns when redirected (COLUMNS when set, as dotnet-counters does):
/// details left out and named, names shortened in the middle, free text wrapped; --wide keeps every column.</summary>
public sealed class WidthTests
{
    private static readonly string RecordedDirectory = Path.Combine(Repository.Root, "tests", "AsyncCost.Cli.Tests", "Recorded");
    private static readonly string[] Traces = [Path.Combine(RecordedDirectory, "chatty.allocations.nettrace"), Path.Combine(RecordedDirectory, "chatty.hops.nettrace")];
    private static readonly string Sarif = Path.Combine(RecordedDirectory, "chatty.sarif");

    [Fact]
    public async Task Report_fits_80_columns_when_redirected_and_names_what_it_left_out()
    {
        var result = await RunToolAsync(null, ["report", .. Traces, "--sarif", Sarif]);

        Assert.True(result.ExitCode == 0, result.ToString());
        AssertFits(result.StandardOutput, 80);
        Assert.Contains("Left out for width: ", result.StandardOutput, StringComparison.Ordinal);
        Assert.Contains("ProduceOrdersAsync", result.StandardOutput, StringComparison.Ordinal);
        Assert.DoesNotContain(new string('─', 81), result.StandardOutput, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Columns_set_in_the_environment_is_the_width_and_wide_keeps_every_column()
    {
        var at120 = await RunToolAsync("120", ["report", .. Traces, "--sarif", Sarif]);
        var wide = await RunToolAsync(null, ["report", .. Traces, "--sarif", Sarif, "--wide"]);

        Assert.True(at120.ExitCode == 0, at120.ToString());
        AssertFits(at120.StandardOutput, 120);
        Assert.True(wide.ExitCode == 0, wide.ToString());
        Assert.DoesNotContain("Left out for width", wide.StandardOutput, StringComparison.Ordinal);
        Assert.Contains(wide.StandardOutput.Split('\n'), l => l.Length > 120);
        Assert.Contains("Total bytes", wide.StandardOutput, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Compare_fits_80_columns_when_redirected()
    {
        using var directory = new TemporaryDirectory("asynccost-width-");
        var report = directory.File("run.json");
        var json = await RunToolAsync(null, ["report", .. Traces, "--format", "json"]);
        await File.WriteAllTextAsync(report, json.StandardOutput);

        var result = await RunToolAsync(null, ["compare", report, report, "--operations", "400"]);

        Assert.True(result.ExitCode == 0, result.ToString());
        AssertFits(result.StandardOutput, 80);
        Assert.Contains("Thread-pool hops per op", result.StandardOutput, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Ps_fits_80_columns_when_redirected_with_each_command_line_whole_under_its_process()
    {
        using var workload = await ChildProcess.StartYieldLoopAsync();
        try
        {
            var result = await RunToolAsync(null, ["ps"]);

            Assert.True(result.ExitCode == 0, result.ToString());
            AssertFits(result.StandardOutput, 80);
            var lines = result.StandardOutput.Split('\n').Select(l => l.Trim()).ToList();
            var row = lines.FindIndex(l => l.StartsWith(workload.IdText + " ", StringComparison.Ordinal));
            Assert.True(row >= 0, result.ToString());
            // The command line follows on the lines under the process, every word of it.
            var commandLine = string.Join(" ", lines.Skip(row + 1).TakeWhile(l => l.Length > 0 && !char.IsDigit(l[0])));
            Assert.Contains("yield 100000 --loop", commandLine, StringComparison.Ordinal);
        }
        finally
        {
            await workload.StopLoopAsync();
        }
    }

    /// <summary>Runs the tool redirected, with COLUMNS set to <paramref name="columns"/> (empty: unset, whatever the runner's is).</summary>
    private static async Task<ProcessResult> RunToolAsync(string? columns, string[] args)
    {
        using var tool = ChildProcess.Start("dotnet", [Repository.ToolDll, .. args], new Dictionary<string, string> { ["COLUMNS"] = columns ?? "" });
        return await tool.WaitForExitAsync();
    }

    private static void AssertFits(string output, int width) =>
        Assert.All(output.Split('\n'), line => Assert.True(line.TrimEnd('\r').Length <= width, $"{line.Length} > {width}: {line}\n{output}"));
}
