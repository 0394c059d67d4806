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

    [Theory]
    [InlineData("ps")]
    [InlineData("collect")]
    [InlineData("report")]
    [InlineData("monitor")]
    [InlineData("compare")]
    [InlineData("schema")]
    [InlineData("providers")]
    [InlineData(null)]
    public async Task Every_commands_help_fits_80_columns_when_redirected_and_says_what_its_own_exit_codes_mean(string? command)
    {
        var result = await RunToolAsync(null, command is null ? ["--help"] : [command, "--help"]);

        Assert.True(result.ExitCode == 0, result.ToString());
        AssertFits(result.StandardOutput, 80);
        var success = string.Join(" ", result.StandardOutput.Split('\n').SkipWhile(l => !l.StartsWith("Exit codes:", StringComparison.Ordinal)).Skip(1)
            .TakeWhile(l => !l.StartsWith("    2 ", StringComparison.Ordinal) && l.Length > 0).Select(l => l.Trim()));
        Assert.StartsWith("0 ", success, StringComparison.Ordinal);
        // Only collect (and the tool's own overview) launches a command whose exit code it passes on.
        Assert.Equal(command is "collect" or null, success.Contains("<command>", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Help_follows_COLUMNS_and_an_example_too_long_goes_on_under_itself_as_shell()
    {
        var result = await RunToolAsync("60", ["collect", "--help"]);

        Assert.True(result.ExitCode == 0, result.ToString());
        AssertFits(result.StandardOutput, 60);
        var examples = result.StandardOutput.Split('\n').SkipWhile(l => l != "Examples:").Skip(1).TakeWhile(l => l.Length > 0).ToList();
        Assert.Contains(examples, l => l.EndsWith(" \\", StringComparison.Ordinal));
        // Joined again, the lines are the example as written.
        var joined = string.Join(" ", examples.Select(l => l.Trim().TrimEnd('\\').Trim()));
        Assert.Contains(CollectExample, joined, StringComparison.Ordinal);
    }

    private const string CollectExample = "dotnet-asynccost collect --sarif build.sarif -- dotnet bin/Release/net10.0/MyApp.dll";

    [Fact]
    public void Status_lines_fit_80_columns_at_their_longest()
    {
        var recording = Terminal.StatusLine.Format(new AsyncCost.Sessions.SessionProgress(
            AsyncCost.Report.MeasurementPasses.Allocations, 2, 2, TimeSpan.FromMinutes(59), 12_345_678, 123L << 20, 4567L << 20));
        var reading = Terminal.StatusLine.Format(new AsyncCost.Sessions.TraceReadProgress(
            "/tmp/" + new string('x', 60) + ".allocations.2.nettrace", 12, 12, TimeSpan.FromMinutes(59), 12_345_678, 123L << 20, 4567L << 20));

        Assert.InRange(recording.Length, 1, 80);
        Assert.InRange(reading.Length, 1, 80);
        Assert.StartsWith("Reading xxxx", reading, StringComparison.Ordinal);
        Assert.Contains("….2.nettrace (12/12)", reading, StringComparison.Ordinal);
    }

    [Fact]
    public void A_message_longer_than_stderrs_width_goes_on_under_itself_indented()
    {
        var message = "dotnet-asynccost: " + string.Join(" ", Enumerable.Repeat("word", 40));

        var lines = Terminal.ErrorOutput.Fit(message, 80).Split(Environment.NewLine);

        Assert.True(lines.Length > 1);
        Assert.All(lines, l => Assert.InRange(l.Length, 1, 80));
        Assert.All(lines.Skip(1), l => Assert.StartsWith("  word", l, StringComparison.Ordinal));
        Assert.Equal(message, string.Join(" ", lines.Select(l => l.Trim())));
    }

    [Theory]
    [InlineData(" %")]
    [InlineData(" %)")]
    public void A_percent_sign_stays_on_the_line_of_its_number(string sign)
    {
        // Wrapped at 78 (80 less the later lines' indent): "~95" alone would end the first line exactly, its sign the next.
        var message = new string('x', 74) + " ~95" + sign + " of the time";

        var lines = Terminal.ErrorOutput.Fit(message, 80).Split(Environment.NewLine);

        Assert.Equal(["  ~95" + sign + " of the time"], lines.Skip(1));
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
