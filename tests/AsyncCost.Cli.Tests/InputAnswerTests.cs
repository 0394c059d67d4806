using System.Text.Json.Nodes;
using AsyncCost.Cli.Tests.Infrastructure;
using AsyncCost.Report;

namespace AsyncCost.Cli.Tests;

/// <summary>Inputs that once got a wrong answer: each now gets the right one (or one clear line and its exit code).</summary>
public sealed class InputAnswerTests
{
    private static readonly string RecordedDirectory = Path.Combine(Repository.Root, "tests", "AsyncCost.Cli.Tests", "Recorded");
    private static readonly string[] Traces =
    [
        Path.Combine(RecordedDirectory, "chatty.allocations.nettrace"),
        Path.Combine(RecordedDirectory, "chatty.hops.nettrace"),
    ];

    [Theory]
    [InlineData("[1, 2, 3]")]
    [InlineData("\"a string\"")]
    [InlineData("42")]
    public async Task Compare_of_JSON_that_is_not_an_object_is_24(string json)
    {
        var path = Path.Combine(Path.GetTempPath(), $"asynccost-{Guid.NewGuid():N}.json");
        await File.WriteAllTextAsync(path, json);
        try
        {
            var result = await ChildProcess.RunToolAsync("compare", path, path);

            Expect.OneLineError(result, 24, path);
        }
        finally
        {
            File.Delete(path);
        }
    }

    [Fact]
    public async Task Compare_writes_json_as_json_and_csv_with_raw_numbers()
    {
        using var directory = new TemporaryDirectory("asynccost-compare-");
        var run = directory.File("run.json");
        Assert.Equal(0, (await ChildProcess.RunToolAsync(["report", .. Traces, "--format", "json", "-o", run])).ExitCode);
        var report = AsyncCostReportJson.Deserialize(await File.ReadAllTextAsync(run));

        var json = await ChildProcess.RunToolAsync("compare", run, run, "--operations", "4", "--format", "json");
        var csv = await ChildProcess.RunToolAsync("compare", run, run, "--operations", "4", "--format", "csv");

        Assert.True(json.ExitCode == 0, json.ToString());
        // A file compared with itself is named as such: its figures cannot differ.
        Assert.Contains(Expect.Messages(json.StandardError), m => m.StartsWith($"dotnet-asynccost: warning: {run} and {run} are the same report", StringComparison.Ordinal));
        var comparison = JsonNode.Parse(json.StandardOutput)!;
        Assert.StartsWith($"{run} and {run} are the same report", (string)comparison["summary"]!, StringComparison.Ordinal);
        Assert.Equal(4, (long)comparison["operations"]!);
        var hops = comparison["figures"]!.AsArray().Single(f => (string)f!["figure"]! == "hops")!;
        Assert.Equal(report.Totals.Hops!.Value / 4, (double)hops["before"]!["value"]!);
        Assert.Equal("exact", (string)hops["before"]!["kind"]!);
        Assert.Equal(1, (double)hops["ratio"]!);
        Assert.True((bool)hops["perOperation"]!);

        Assert.True(csv.ExitCode == 0, csv.ToString());
        var lines = csv.StandardOutput.TrimEnd().Split('\n');
        Assert.Equal("figure,perOperation,before,beforeErrorBound,after,afterErrorBound,ratio,ratioRelativeBound,withinNoise,judgement", lines[0]);
        var allocated = lines.Single(l => l.StartsWith("allocatedBytes,", StringComparison.Ordinal)).Split(',');
        // A spreadsheet reads the cell as the number itself, not "225.1 KB".
        Assert.Equal(report.Totals.AllocatedBytes!.Value / 4, double.Parse(allocated[2], System.Globalization.CultureInfo.InvariantCulture));
        Assert.DoesNotContain("×", csv.StandardOutput, StringComparison.Ordinal);
        Assert.DoesNotContain(" KB", csv.StandardOutput, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Output_naming_an_existing_directory_writes_inside_it()
    {
        using var parent = new TemporaryDirectory("asynccost-out-");
        var target = Directory.CreateDirectory(parent.File("reports"));

        var result = await ChildProcess.RunToolAsync(["report", .. Traces, "-o", target.FullName]);

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.True(File.Exists(Path.Combine(target.FullName, "asynccost.txt")), result.ToString());
        Assert.True(File.Exists(Path.Combine(target.FullName, "asynccost.json")), result.ToString());
        Assert.Equal(["reports"], new DirectoryInfo(parent.Path).EnumerateFileSystemInfos().Select(f => f.Name));
    }

    [Fact]
    public async Task Output_naming_a_report_file_writes_that_file_and_prints_nothing()
    {
        using var directory = new TemporaryDirectory("asynccost-named-");
        var page = directory.File("x.html");

        var result = await ChildProcess.RunToolAsync(["report", .. Traces, "--format", "html", "-o", page]);

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Equal("", result.StandardOutput);
        Assert.StartsWith("<!DOCTYPE html>", await File.ReadAllTextAsync(page), StringComparison.Ordinal);
        Assert.Contains($"Report written to {page}", result.StandardError, StringComparison.Ordinal);
        // The name without its extension keeps the JSON for 'compare', as a base name would.
        Assert.Equal(["x.html", "x.json"], Directory.GetFiles(directory.Path).Select(Path.GetFileName).Order(StringComparer.Ordinal));
        AsyncCostReportJson.Deserialize(await File.ReadAllTextAsync(directory.File("x.json")));
    }

    [Fact]
    public async Task A_flame_graph_named_json_is_written_to_that_name_with_the_compare_json_beside_it()
    {
        using var directory = new TemporaryDirectory("asynccost-flame-");
        var flame = directory.File("flame.json");

        var result = await ChildProcess.RunToolAsync("report", Repository.Recorded("webshop.cpu.nettrace"), "--format", "speedscope", "-o", flame);

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Equal("", result.StandardOutput);
        Assert.Contains("speedscope", (string)JsonNode.Parse(await File.ReadAllTextAsync(flame))!["$schema"]!, StringComparison.Ordinal);
        Assert.Equal(["flame.json", "flame.report.json"], Directory.GetFiles(directory.Path).Select(Path.GetFileName).Order(StringComparer.Ordinal));
        AsyncCostReportJson.Deserialize(await File.ReadAllTextAsync(directory.File("flame.report.json")));
    }

    [Fact]
    public async Task Output_as_a_base_name_adds_the_formats_extension_and_prints_nothing()
    {
        using var directory = new TemporaryDirectory("asynccost-base-");

        var result = await ChildProcess.RunToolAsync(["report", .. Traces, "--format", "markdown", "-o", directory.File("run1")]);

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Equal("", result.StandardOutput);
        Assert.Equal(["run1.json", "run1.md"], Directory.GetFiles(directory.Path).Select(Path.GetFileName).Order(StringComparer.Ordinal));
    }

    [Fact]
    public async Task Report_of_a_directory_says_it_is_a_directory()
    {
        var result = await ChildProcess.RunToolAsync("report", RecordedDirectory);

        Expect.OneLineError(result, 15, RecordedDirectory + " is a directory");
    }

    [Fact]
    public async Task A_second_ctrl_c_leaves_no_empty_report_file()
    {
        using var workload = await ChildProcess.StartYieldLoopAsync();
        using var directory = new TemporaryDirectory("asynccost-twice-");
        try
        {
            var basePath = directory.File("run");
            using var tool = ChildProcess.StartTool("collect", "-p", workload.IdText, "--passes", "hops", "-o", basePath);
            await tool.WaitForLineAsync(l => l.StartsWith("Recording pass 1/1", StringComparison.Ordinal));
            await Task.Delay(500);

            // The first stops recording; the second, before the session has stopped, ends the tool at once.
            tool.Signal("INT");
            tool.Signal("INT");
            await tool.WaitForExitAsync();

            var report = new FileInfo(basePath + ".txt");
            Assert.True(!report.Exists || report.Length > 0, "an empty report file was left behind");
        }
        finally
        {
            await workload.StopLoopAsync();
        }
    }

    [Theory]
    [InlineData(null)]
    [InlineData("00:00:02")]
    public async Task A_launched_command_that_fails_before_its_runtime_starts_gets_exit_code_25_with_or_without_a_duration(string? duration)
    {
        var result = await ChildProcess.RunToolAsync(["collect", .. DurationOption(duration), "--", "bash", "-c", "exit 3"]);

        Expect.OneLineError(result, 25, "bash exited with code 3 before a .NET runtime started");
        Assert.Equal("", result.StandardOutput);
    }

    [Theory]
    [InlineData(null)]
    [InlineData("00:00:02")]
    public async Task Dotnet_given_an_app_that_is_not_there_is_refused_before_anything_runs(string? duration)
    {
        // The muxer would hand "such.dll" to the SDK as a command: the SDK's runtime, not an app, would be measured.
        var result = await ChildProcess.RunToolAsync(["collect", .. DurationOption(duration), "--", "dotnet", "/no/such.dll"]);

        Expect.OneLineError(result, 14, "/no/such.dll does not exist");
        Assert.Equal("", result.StandardOutput);
    }

    [Fact]
    public async Task An_output_folder_used_again_keeps_no_report_of_the_earlier_run()
    {
        using var directory = new TemporaryDirectory("asynccost-reused-");
        string[] launch = ["--passes", "allocations", "--", "dotnet", Repository.WorkloadDll, "yield", "1000"];

        var first = await ChildProcess.RunToolAsync(["collect", "-o", directory.Path, .. launch]);
        Assert.True(first.ExitCode == 0, first.ToString());
        Assert.True(File.Exists(directory.File("asynccost.txt")));
        var second = await ChildProcess.RunToolAsync(["collect", "-o", directory.Path, "--format", "markdown", .. launch]);

        Assert.True(second.ExitCode == 0, second.ToString());
        Assert.False(File.Exists(directory.File("asynccost.txt")), "the first run's table report is still there");
        Assert.True(File.Exists(directory.File("asynccost.md")));
        Assert.True(File.Exists(directory.File("asynccost.json")));
    }

    private static string[] DurationOption(string? duration) => duration is null ? [] : ["--duration", duration];

    [Fact]
    public async Task Diagnostics_IPC_off_says_so_not_that_it_is_not_dotnet()
    {
        using var workload = ChildProcess.StartWorkload(new Dictionary<string, string> { ["DOTNET_EnableDiagnostics_IPC"] = "0" }, "yield", "1", "--wait");
        await workload.WaitForLineAsync(l => l.StartsWith("READY", StringComparison.Ordinal));

        var result = await ChildProcess.RunToolAsync("collect", "-p", workload.IdText);

        Expect.OneLineError(result, 12, "DOTNET_EnableDiagnostics_IPC=0");
    }

    [Fact]
    public async Task A_process_whose_proc_entry_is_denied_says_permission_denied()
    {
        // Only root can run the tool as another user (setpriv); xunit 2 has no runtime skip, so elsewhere this test has nothing to check.
        if (Environment.UserName != "root")
        {
            return;
        }

        using var sleeper = ChildProcess.Start("sleep", ["600"]);
        using var tool = ChildProcess.Start("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "dotnet", Repository.ToolDll, "collect", "-p", sleeper.IdText]);
        var result = await tool.WaitForExitAsync();

        Expect.OneLineError(result, 13, "Permission denied reading /proc/" + sleeper.IdText);
        Assert.Contains("runs as root", result.StandardError, StringComparison.Ordinal);
    }

    [Fact]
    public async Task NO_COLOR_on_a_terminal_gives_plain_text()
    {
        // script(1) gives the tool a pseudo-terminal, so it renders as for a person.
        var command = $"dotnet '{Repository.ToolDll}' report '{Traces[1]}'";
        var styled = await RunOnTerminalAsync(command, new Dictionary<string, string> { ["TERM"] = "xterm-256color" });
        var plain = await RunOnTerminalAsync(command, new Dictionary<string, string> { ["TERM"] = "xterm-256color", ["NO_COLOR"] = "1" });

        Assert.Matches("\u001b\\[[0-9;]*m", styled.StandardOutput);
        Assert.True(plain.ExitCode == 0, plain.ToString());
        Assert.Contains("Async methods, most costly first", plain.StandardOutput, StringComparison.Ordinal);
        Assert.DoesNotMatch("\u001b\\[[0-9;]*m", plain.StandardOutput);
    }

    private static async Task<ProcessResult> RunOnTerminalAsync(string command, IReadOnlyDictionary<string, string> environment)
    {
        using var terminal = ChildProcess.Start("script", ["-qc", command, "/dev/null"], environment);
        return await terminal.WaitForExitAsync();
    }

    [Fact]
    public void Cli_docs_build_the_workload_their_examples_run()
    {
        var page = File.ReadAllText(Path.Combine(Repository.Root, "docs", "cli.md"));

        var build = page.IndexOf("dotnet build tests/AsyncCost.Workload -c Release -o workload", StringComparison.Ordinal);
        Assert.InRange(build, 0, page.IndexOf("workload/AsyncCost.Workload.dll yield", StringComparison.Ordinal));
        Assert.True(File.Exists(Path.Combine(Repository.Root, "tests", "AsyncCost.Workload", "AsyncCost.Workload.csproj")));
    }
}
