using AsyncCost.Cli.Tests.Infrastructure;

namespace AsyncCost.Cli.Tests;

/// <summary>The command tree, help and usage errors, driven through the real tool.</summary>
public sealed class CommandLineTests
{
    [Fact]
    public async Task Version_prints_the_package_version()
    {
        var result = await ChildProcess.RunToolAsync("--version");

        Assert.Equal(0, result.ExitCode);
        Assert.Matches(@"^\d+\.\d+\.\d+", result.StandardOutput);
    }

    [Fact]
    public async Task Root_help_lists_every_command_examples_and_every_exit_code()
    {
        var result = await ChildProcess.RunToolAsync("--help");

        Assert.Equal(0, result.ExitCode);
        foreach (var command in new[] { "ps", "collect", "report", "monitor", "schema" })
        {
            Assert.Matches($@"(?m)^\s+{command}\b", result.StandardOutput);
        }

        Assert.Contains("Examples:", result.StandardOutput, StringComparison.Ordinal);
        // Each meaning wraps under itself at 80 columns: read the words, not the lines.
        var words = System.Text.RegularExpressions.Regex.Replace(result.StandardOutput, @"\s+", " ");
        foreach (var (code, meaning) in ExitCodes.Catalog)
        {
            Assert.Contains($" {(int)code} {meaning}", words, StringComparison.Ordinal);
        }
    }

    [Theory]
    [InlineData("ps")]
    [InlineData("collect")]
    [InlineData("report")]
    [InlineData("monitor")]
    [InlineData("schema")]
    [InlineData("providers")]
    public async Task Every_command_has_help_with_examples_and_exit_codes(string command)
    {
        var result = await ChildProcess.RunToolAsync(command, "--help");

        Assert.Equal(0, result.ExitCode);
        Assert.Contains("Usage:", result.StandardOutput, StringComparison.Ordinal);
        Assert.Contains($"Examples:\n  dotnet-asynccost {command}", result.StandardOutput, StringComparison.Ordinal);
        Assert.Contains("Exit codes:\n    0  ", result.StandardOutput, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("Unrecognized command or argument 'frobnicate'", "frobnicate")]
    [InlineData("Unrecognized option '--bogus'", "report", "x.nettrace", "--bogus")]
    [InlineData("Unrecognized option or argument '--bogus'; put a command to launch after '--'", "collect", "--bogus")]
    [InlineData("--duration: 'soon' is not a positive time; use seconds or a unit (5, 5s, 500ms, 2m or 00:00:05)", "collect", "-p", "1", "--duration", "soon")]
    [InlineData("--duration: '0s' is not a positive time", "monitor", "-p", "1", "--duration", "0s")]
    [InlineData("--duration: '-5' is not a positive time", "collect", "-p", "1", "--duration=-5")]
    [InlineData("--passes: unknown pass 'gc'", "collect", "-p", "1", "--passes", "allocations,gc")]
    [InlineData("--format: unknown format 'xml'", "report", "x.nettrace", "--format", "xml")]
    [InlineData("collect needs exactly one target", "collect")]
    [InlineData("collect needs exactly one target", "collect", "-p", "1", "-n", "app")]
    [InlineData("collect needs exactly one target", "collect", "-p", "1", "--", "dotnet", "app.dll")]
    [InlineData("monitor needs exactly one target", "monitor")]
    [InlineData("Argument 'gc' not recognized", "providers", "--pass", "gc")]
    [InlineData("Argument 'perfview' not recognized", "providers", "--for", "perfview")]
    [InlineData("-p/--process-id: 'abc' is not a process id", "collect", "-p", "abc")]
    [InlineData("-p/--process-id: '-3' is not a process id", "monitor", "-p", "-3")]
    [InlineData("--hop-duty must be more than 0 and at most 1", "collect", "-p", "1", "--hop-duty", "0")]
    [InlineData("--hop-duty must be more than 0 and at most 1", "collect", "-p", "1", "--hop-duty", "1.5")]
    [InlineData("--operations: the operation count must be a positive whole number", "compare", "a.json", "b.json", "--operations", "0")]
    [InlineData("--operations: the operation count must be a positive whole number", "compare", "a.json", "b.json", "--operations", "-5")]
    [InlineData("Required argument missing for command: 'report'", "report")]
    [InlineData("Required command was not provided", new string[0])]
    public async Task Usage_errors_exit_2_with_one_line(string message, params string[] args)
    {
        var result = await ChildProcess.RunToolAsync(args);

        Expect.OneLineError(result, 2, message);
    }

    [Theory]
    [InlineData("5", 5_000)]
    [InlineData("5s", 5_000)]
    [InlineData("2.5s", 2_500)]
    [InlineData("500ms", 500)]
    [InlineData("2m", 120_000)]
    [InlineData("1h", 3_600_000)]
    [InlineData("00:00:30", 30_000)]
    [InlineData("0:01:30", 90_000)]
    [InlineData("00:00:03.5", 3_500)]
    [InlineData("00:00:00:30", 30_000)] // dotnet-trace's dd:hh:mm:ss
    public void Every_duration_option_takes_seconds_units_and_hh_mm_ss(string text, int milliseconds)
    {
        foreach (var command in new[] { "collect", "monitor" })
        {
            var parse = Commands.CliApp.CreateRootCommand().Parse([command, "-p", "1", "--duration", text]);

            Assert.Empty(parse.Errors);
            Assert.Equal(TimeSpan.FromMilliseconds(milliseconds), parse.GetValue<TimeSpan?>("--duration"));
        }
    }

    [Fact]
    public async Task Ps_lists_a_running_dotnet_process_by_id_and_command_line()
    {
        using var workload = ChildProcess.StartWorkload(null, "yield", "1", "--wait");
        await workload.WaitForLineAsync(l => l.StartsWith("READY", StringComparison.Ordinal));

        // --wide: one line per process, its command line whole beside it (WidthTests has the 80-column layout).
        var result = await ChildProcess.RunToolAsync("ps", "--wide");

        Assert.Equal(0, result.ExitCode);
        var row = result.StandardOutput.Split('\n').Single(l => l.TrimStart().StartsWith(workload.Id + " ", StringComparison.Ordinal));
        Assert.Contains("AsyncCost.Workload.dll yield 1 --wait", row, StringComparison.Ordinal);
        Expect.PlainText(result.StandardOutput);
    }

    [Fact]
    public async Task Schema_prints_the_versioned_json_schema_of_reports()
    {
        var result = await ChildProcess.RunToolAsync("schema");

        Assert.Equal(0, result.ExitCode);
        var schema = await NJsonSchema.JsonSchema.FromJsonAsync(result.StandardOutput);
        Assert.Contains("schemaVersion", schema.Properties.Keys);
        Assert.Contains("methods", schema.Properties.Keys);
    }

    [Fact]
    public void Docs_document_every_exit_code()
    {
        var page = File.ReadAllText(Path.Combine(Repository.Root, "docs", "json-and-exit-codes.md"));

        foreach (var (code, meaning) in ExitCodes.Catalog)
        {
            // The docs' table spells the same meaning, with code formatting and without the final period.
            var words = meaning.TrimEnd('.').Replace("DOTNET_EnableDiagnostics=0", "`DOTNET_EnableDiagnostics=0`", StringComparison.Ordinal)
                .Replace("DOTNET_EnableDiagnostics_IPC=0", "`DOTNET_EnableDiagnostics_IPC=0`", StringComparison.Ordinal)
                .Replace("(-o)", "(`-o`)", StringComparison.Ordinal).Replace("with -p", "with `-p`", StringComparison.Ordinal)
                .Replace("(collect -- <command>:", "(`collect -- <command>`:", StringComparison.Ordinal);
            Assert.Contains($"| {(int)code} | {words} |", page, StringComparison.Ordinal);
        }
    }
}
