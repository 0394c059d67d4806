using AsyncCost.Cli.Tests.Infrastructure;
using AsyncCost.Report;

namespace AsyncCost.Cli.Tests;

/// <summary>`collect -- dotnet AsyncCost.Workload.dll yield N` and `report` on the traces it kept.</summary>
[Collection(LaunchedWorkloadGroup.Name)]
public sealed class CollectLaunchTests(LaunchedWorkloadRun run)
{
    [Fact]
    public void Runs_the_command_once_per_pass_passes_its_output_through_and_exits_with_its_code()
    {
        Assert.True(run.Result.ExitCode == 0, run.Result.ToString());
        Assert.Equal(2, run.WorkloadResults.Count);
        Assert.All(run.WorkloadResults, r => Assert.Equal(LaunchedWorkloadRun.Calls, r.Count));
        // The message wraps at 80 columns: read its words.
        Assert.Contains("once per pass, allocations (TPL events off) then hops (TPL events on)",
            System.Text.RegularExpressions.Regex.Replace(run.Result.StandardError, @"\s+", " "), StringComparison.Ordinal);
        Assert.Equal(SourceKind.Launch, run.Report.Source.Kind);
        Assert.Equal(0, run.Report.Source.ExitCode);
        Assert.Equal([MeasurementPasses.Allocations, MeasurementPasses.Hops], run.Report.Passes.Select(p => p.Pass));
        Expect.NoStackTrace(run.Result);
    }

    [Fact]
    public void The_report_goes_to_the_o_file_alone_and_the_commands_output_goes_to_stderr()
    {
        Assert.NotEmpty(run.ReportJson);
        Assert.Equal("", run.Result.StandardOutput); // a file written with -o is not also printed
        Assert.Equal(2, run.Result.ErrorLines.Count(l => l.StartsWith("RESULT ", StringComparison.Ordinal)));
    }

    [Fact]
    public async Task A_chatty_commands_output_goes_to_the_child_output_file_and_stdout_stays_valid_json()
    {
        const int Lines = 20_000;
        using var directory = new TemporaryDirectory("asynccost-chatty-");
        var childOutput = directory.File("app.log");
        // The shell prints before it becomes the .NET process (exec keeps the pid the tool launched and waits for).
        var script = $"i=0; while [ $i -lt {Lines} ]; do echo \"chatty line $i\"; i=$((i+1)); done; exec dotnet \"$0\" task-sync 1000";

        var result = await ChildProcess.RunToolAsync("collect", "--passes", "allocations", "--format", "json", "--child-output", childOutput, "--", "sh", "-c", script, Repository.WorkloadDll);

        Assert.True(result.ExitCode == 0, result.ToString());
        var report = AsyncCostReportJson.Deserialize(result.StandardOutput);
        Assert.Equal(SourceKind.Launch, report.Source.Kind);
        Assert.DoesNotContain(result.ErrorLines, l => l.StartsWith("chatty line", StringComparison.Ordinal));
        var logged = await File.ReadAllLinesAsync(childOutput);
        Assert.Equal(Lines, logged.Count(l => l.StartsWith("chatty line ", StringComparison.Ordinal)));
        Assert.Single(logged, l => l.StartsWith("RESULT ", StringComparison.Ordinal));
    }

    [Fact]
    public void Status_lines_are_plain_periodic_lines_when_stderr_is_redirected()
    {
        Expect.PlainText(run.Result.StandardError);
        Assert.Contains(run.Result.ErrorLines, l => l.StartsWith("Recording pass 1/2 (allocations)", StringComparison.Ordinal));
        Assert.Contains(run.Result.ErrorLines, l => l.StartsWith("Recording pass 2/2 (hops)", StringComparison.Ordinal));
    }

    [Fact]
    public void Report_rows_match_the_workloads_known_costs()
    {
        // The first run is the allocation pass (TPL events off): its in-process bytes are the truth for bytes/call.
        ReportAssertions.MatchesYieldTruth(run.Report, run.WorkloadResults[0].BytesPerOp);
        Assert.Equal(ReportAssertions.YieldMethodKey, run.Report.Methods.OrderByDescending(m => m.Bytes?.Value ?? 0).First().MethodKey);
    }

    [Fact]
    public async Task Json_output_validates_against_the_published_schema()
    {
        var schemaText = (await ChildProcess.RunToolAsync("schema")).StandardOutput;
        var schema = await NJsonSchema.JsonSchema.FromJsonAsync(schemaText);

        var errors = schema.Validate(run.ReportJson);

        Assert.True(errors.Count == 0, string.Join("\n", errors.Select(e => $"{e.Path}: {e.Kind}")));
    }

    [Fact]
    public void Output_option_keeps_one_trace_per_pass_and_the_report()
    {
        Assert.All(run.Traces, trace => Assert.True(new FileInfo(trace).Length > 0, trace));
        Assert.Equal(run.Traces, run.Report.Source.TraceFiles);
        Assert.Contains("Report written to " + run.BasePath + ".json", run.Result.StandardError, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Report_on_the_kept_traces_gives_the_same_rows()
    {
        var result = await ChildProcess.RunToolAsync(["report", .. run.Traces, "--format", "json"]);

        Assert.True(result.ExitCode == 0, result.ToString());
        var offline = AsyncCostReportJson.Deserialize(result.StandardOutput);
        Assert.Equal(SourceKind.TraceFile, offline.Source.Kind);
        Assert.Equal(run.Report.Methods.Select(m => m.MethodKey).Order(), offline.Methods.Select(m => m.MethodKey).Order());
        foreach (var live in run.Report.Methods)
        {
            var saved = offline.Methods.Single(m => m.MethodKey == live.MethodKey);
            Assert.Equal(live.Calls?.Value, saved.Calls?.Value);
            Assert.Equal(live.Bytes?.Value, saved.Bytes?.Value);
            Assert.Equal(live.Hops?.Value, saved.Hops?.Value);
        }
    }

    // A trace does not keep what its run printed: 'report --operations N' gives every pass the count again, as collect had it,
    // so findings' times and compare go per operation; without it a saved trace's passes have none.
    [Fact]
    public async Task Report_takes_the_runs_operations_again()
    {
        var counted = await ChildProcess.RunToolAsync(["report", .. run.Traces, "--operations", "250", "--format", "json"]);
        var uncounted = await ChildProcess.RunToolAsync(["report", .. run.Traces, "--format", "json"]);
        var refused = await ChildProcess.RunToolAsync(["report", .. run.Traces, "--operations", "0"]);

        Assert.True(counted.ExitCode == 0, counted.ToString());
        Assert.All(AsyncCostReportJson.Deserialize(counted.StandardOutput).Passes, pass => Assert.Equal(250, pass.Operations));
        Assert.All(AsyncCostReportJson.Deserialize(uncounted.StandardOutput).Passes, pass => Assert.Null(pass.Operations));
        Assert.NotEqual(0, refused.ExitCode);
        Assert.Contains("--operations: the operation count must be a positive whole number.", string.Join(' ', refused.StandardError.Split((char[]?)null, StringSplitOptions.RemoveEmptyEntries)), StringComparison.Ordinal);
    }

    // The allocation trace alone (small, quick to read): calls, bytes/call, objects/call, no hops and no elapsed time. Every
    // figure is then an estimate from samples: "~" and its bound in text, its bound and kind in csv. Objects per call is ~1
    // (a box per call), not exactly 1 in csv: a sample of a one-off object the method made (its first call's) is its too.
    [Theory]
    [InlineData("table", @"YieldOnceAsync\s+~[\d,]+ ±[\d.]+%\s+-\s+~[\d.]+ ±[\d.]+%\s+~1\.0 ±[\d.]+%\s+-\s+~[\d.]+ MB ±[\d.]+%\s+[\d.]+ %\s+allocations")]
    [InlineData("markdown", @"\| AsyncCost\.Workload\.Scenarios\.YieldOnceAsync \| ~[\d,]+ ±[\d.]+% \| - \| ~[\d.]+ ±[\d.]+% \| ~1\.0 ±[\d.]+% \| - \|")]
    [InlineData("csv", @"(?m)^AsyncCost\.Workload\.Scenarios\.YieldOnceAsync,AsyncCost\.Workload\.Scenarios\.YieldOnceAsync,(\d+(\.\d+)?),[\d.]+,estimate,\1,,[\d.]+,[\d.E+-]+,(?:1|1\.0\d*|0\.9\d*),")]
    public async Task Report_prints_the_rows_in_each_text_format(string format, string rowPattern)
    {
        var result = await ChildProcess.RunToolAsync("report", run.Traces[0], "--format", format, "--wide");

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Matches(rowPattern, result.StandardOutput);
        Expect.PlainText(result.StandardOutput);
    }

    [Fact]
    public async Task A_truncated_trace_is_16_and_still_reports_what_was_readable()
    {
        var bytes = await File.ReadAllBytesAsync(run.Traces[0]);
        var truncated = run.BasePath + ".truncated.nettrace";
        await File.WriteAllBytesAsync(truncated, bytes[..(bytes.Length * 2 / 3)]);

        var result = await ChildProcess.RunToolAsync("report", truncated, "--wide");

        Expect.OneLineError(result, 16, "truncated.nettrace ends early, after ");
        Assert.DoesNotContain(".;", result.StandardError, StringComparison.Ordinal);
        Assert.Contains("stopped: trace truncated (cut short: figures cover only what was gathered)", result.StandardOutput, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Ctrl_c_while_a_launched_command_records_stops_every_pass_reports_and_exits_0()
    {
        using var tool = ChildProcess.StartTool("collect", "--format", "json", "--", "dotnet", Repository.WorkloadDll, "yield", "100000", "--loop");
        await tool.WaitForLineAsync(l => l.StartsWith("RESULT", StringComparison.Ordinal));

        tool.Signal("INT");
        var result = await tool.WaitForExitAsync();

        Assert.True(result.ExitCode == 0, result.ToString());
        var report = AsyncCostReportJson.Deserialize(result.StandardOutput);
        Assert.Equal(StopReason.Canceled, report.StopReason);
        Assert.Equal([MeasurementPasses.Allocations], report.Passes.Select(p => p.Pass));
        ReportAssertions.YieldRow(report);
        Assert.Contains(report.Warnings, w => w.Code == "passes-not-run" && w.Message.Contains("the hops pass never ran", StringComparison.Ordinal));
    }
}

/// <summary>`collect --duration -- command`: the tool ends the command, so its time, exit code and leftovers are the tool's.</summary>
public sealed class CollectLaunchDurationTests
{
    [Fact]
    public async Task A_duration_is_split_between_the_passes_and_a_command_the_tool_ended_has_no_exit_code_and_leaves_no_files()
    {
        using var directory = new TemporaryDirectory("asynccost-duration-");
        var basePath = directory.File("run");
        // The workload loops until its stdin closes, which the test keeps open: only the duration ends it.
        using var tool = ChildProcess.StartTool("collect", "--duration", "00:00:06", "-o", basePath, "--format", "json",
            "--", "dotnet", Repository.WorkloadDll, "yield", "100000", "--loop");
        var result = await tool.WaitForExitAsync();

        Assert.True(result.ExitCode == 0, result.ToString());
        var report = AsyncCostReportJson.Deserialize(await File.ReadAllTextAsync(basePath + ".json"));
        Assert.Equal(StopReason.DurationElapsed, report.StopReason);
        Assert.Null(report.Source.ExitCode);
        Assert.Equal(2, report.Passes.Count);
        // Each pass records its 3 s share, not the whole 6 s; the hop pass's stop also flushes its event buffer (seconds
        // on a loaded machine), which is reading what was recorded, not recording.
        Assert.Equal(MeasurementPasses.Allocations, report.Passes[0].Pass);
        Assert.All(report.Passes, pass => Assert.InRange(pass.Duration.TotalSeconds, 2.5, 4.0));
        Assert.Contains(report.Warnings, w => w.Code == "launched-per-pass");
        // The duration, not the command, ended each launch: the report says so.
        Assert.True(report.CutShort);
        Assert.All(report.Passes, pass => Assert.True(pass.CutShort));
        Assert.Contains(report.Warnings, w => w.Code == "duration-ended-command");
        var text = await ChildProcess.RunToolAsync(["report", .. report.Source.TraceFiles]);
        Assert.DoesNotContain("Exit code: 137", text.StandardOutput, StringComparison.Ordinal);

        // A runtime asked to stop (SIGTERM) removes its diagnostic socket and debugger pipes.
        foreach (var pid in report.Passes.Select(p => p.ProcessId!.Value))
        {
            var leftovers = Directory.EnumerateFiles(Path.GetTempPath(), $"dotnet-diagnostic-{pid}-*")
                .Concat(Directory.EnumerateFiles(Path.GetTempPath(), $"clr-debug-pipe-{pid}-*")).ToList();
            Assert.True(leftovers.Count == 0, string.Join(", ", leftovers));
        }
    }

    [Fact]
    public async Task Stopping_in_the_first_pass_runs_no_second_one_and_says_no_more_than_what_ran()
    {
        using var directory = new TemporaryDirectory("asynccost-stopped-");
        var basePath = directory.File("run");
        using var tool = ChildProcess.StartTool("collect", "-o", basePath, "--format", "json", "--", "dotnet", Repository.WorkloadDll, "yield", "100000", "--loop");
        await tool.WaitForLineAsync(line => line.StartsWith("Recording pass 1/2", StringComparison.Ordinal));
        tool.SendLine("");

        var result = await tool.WaitForExitAsync();

        Assert.True(result.ExitCode == 0, result.ToString());
        var report = AsyncCostReportJson.Deserialize(await File.ReadAllTextAsync(basePath + ".json"));
        Assert.Equal(StopReason.Canceled, report.StopReason);
        Assert.Single(report.Passes);
        Assert.Null(report.Source.ExitCode);
        Assert.DoesNotContain(report.Warnings, w => w.Code == "launched-per-pass");
    }
}
