using System.Globalization;
using System.Text.Json.Nodes;
using AsyncCost.Cli.Tests.Infrastructure;
using AsyncCost.Report;

namespace AsyncCost.Cli.Tests;

/// <summary>
/// A saved trace names its methods by itself: recorded in one place, read anywhere, whatever recorded it.
/// </summary>
[Collection(LaunchedWorkloadGroup.Name)]
public sealed class PortableTraceTests
{
    private static readonly string WorkloadDirectory = Path.GetDirectoryName(Repository.WorkloadDll)!;

    /// <summary>A SARIF log with one finding in the workload's yield method, as the analyzer writes it.</summary>
    private const string Sarif = """
        {
          "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
          "version": "2.1.0",
          "runs": [{
            "tool": { "driver": { "name": "Microsoft (R) Visual C# Compiler", "rules": [
              { "id": "AC0005", "properties": { "tags": ["AsyncCost.Cost.Hops"] } } ] } },
            "results": [{
              "ruleId": "AC0005", "level": "warning", "message": { "text": "Task.Yield inside a loop" },
              "locations": [{ "physicalLocation": { "artifactLocation": { "uri": "file:///repo/Scenarios.cs" }, "region": { "startLine": 10 } } }],
              "properties": { "customProperties": { "AsyncCostMethod": "AsyncCost.Workload.Scenarios.YieldOnceAsync" } }
            }]
          }]
        }
        """;

    [Fact]
    public async Task A_report_reads_the_same_after_the_app_is_deleted_and_the_traces_moved()
    {
        using var recorded = new TemporaryDirectory("asynccost-recorded-");
        using var elsewhere = new TemporaryDirectory("asynccost-elsewhere-");
        var app = recorded.File("app");
        CopyDirectory(WorkloadDirectory, app);
        var sarif = recorded.File("build.sarif");
        await File.WriteAllTextAsync(sarif, Sarif);
        var run = recorded.File("run");
        var collect = await ChildProcess.RunToolAsync("collect", "-o", run, "--", "dotnet", Path.Combine(app, "AsyncCost.Workload.dll"), "yield", "100000");
        Assert.True(collect.ExitCode == 0, collect.ToString());
        string[] traces = [run + ".allocations.nettrace", run + ".hops.nettrace"];
        var before = await ReportJsonAsync(sarif, traces);

        Directory.Delete(app, recursive: true);
        var moved = traces.Select(t => elsewhere.File(Path.GetFileName(t))).ToArray();
        foreach (var (from, to) in traces.Zip(moved))
        {
            File.Move(from, to);
        }
        var after = await ReportJsonAsync(sarif, moved);

        Assert.Equal(Rows(before), Rows(after));
        Assert.Equal(Findings(before), Findings(after));
        Assert.Contains(Findings(after), f => f.StartsWith(ReportAssertions.YieldMethodKey + " exercised", StringComparison.Ordinal));
        Assert.DoesNotContain(Rows(after), row => row.StartsWith('?'));
        Assert.DoesNotContain(Warnings(after), code => code is "no-method-rundown" or "names-from-assemblies");
    }

    [Fact]
    public async Task Traces_recorded_by_dotnet_trace_with_the_documented_providers_give_the_same_figures()
    {
        await LocalTools.EnsureRestoredAsync();
        using var directory = new TemporaryDirectory("asynccost-dotnet-trace-");
        // Bytes need ~10,000 samples for a tight bound (11.5 M calls x 96 B); hops are exact counts.
        var allocations = await RecordWithDotNetTraceAsync("allocations", directory, 11_500_000);
        var hops = await RecordWithDotNetTraceAsync("hops", directory, 300_000);

        var result = await ChildProcess.RunToolAsync("report", allocations.Trace, hops.Trace, "--format", "json");

        Assert.True(result.ExitCode == 0, result.ToString());
        var report = AsyncCostReportJson.Deserialize(result.StandardOutput);
        ReportAssertions.MatchesYieldTruth(report, allocations.Truth.BytesPerOp, expectHops: false);
        var row = ReportAssertions.YieldRow(report);
        Assert.Equal(FigureSource.HopPass, row.Hops!.Source);
        Assert.InRange(row.Hops.Value, hops.Truth.Count * 0.98, hops.Truth.Count * 1.02);
        Assert.DoesNotContain(report.Warnings, w => w.Code is "no-allocation-events" or "no-tpl-events" or "no-method-rundown");
    }

    [Fact]
    public async Task A_hop_pass_trace_with_no_TPL_event_is_read_as_the_hop_pass_and_shows_zero_hops()
    {
        // task-sync never suspends and never uses the pool: its hop pass writes no TPL or thread-pool event at all. The traces'
        // names say nothing; the allocation trace's own events tell it apart, so the other is the hop pass.
        using var directory = new TemporaryDirectory("asynccost-no-tpl-");
        await LocalTools.EnsureRestoredAsync();
        var (allocations, _) = await RecordWithDotNetTraceAsync("allocations", directory, 200_000, "task-sync", "first.nettrace");
        var (hops, _) = await RecordWithDotNetTraceAsync("hops", directory, 200_000, "task-sync", "second.nettrace");

        var result = await ChildProcess.RunToolAsync("report", hops, allocations, "--format", "json");

        Assert.True(result.ExitCode == 0, result.ToString());
        var report = JsonNode.Parse(result.StandardOutput)!;
        Assert.Equal(["allocations", "hops"], report["passes"]!.AsArray().Select(p => (string)p!["pass"]!));
        var row = report["methods"]!.AsArray().Single(m => (string)m!["methodKey"]! == "AsyncCost.Workload.PriceService.GetPriceTaskAsync")!;
        Assert.Equal(0, (double)row["hops"]!["value"]!);
        Assert.Contains("no-tpl-events", Warnings(report));
    }

    [Fact]
    public async Task A_trace_without_TPL_events_or_method_rundown_says_which_figures_are_missing()
    {
        using var directory = new TemporaryDirectory("asynccost-partial-");
        var trace = directory.File("allocations-only.nettrace");
        // Allocation sampling and module loads: no TPL events, and no rundown of methods.
        await LocalTools.EnsureRestoredAsync();
        var record = await LocalTools.RunAsync("dotnet-trace", ["collect", "--providers", "Microsoft-Windows-DotNETRuntime:0x80000000008:4",
            "--rundown", "false", "-o", trace, "--", "dotnet", Repository.WorkloadDll, "yield", "200000"]);
        Assert.True(record.ExitCode == 0, record.ToString());

        var result = await ChildProcess.RunToolAsync("report", trace, "--format", "json");

        Assert.True(result.ExitCode == 0, result.ToString());
        var warnings = Warnings(JsonNode.Parse(result.StandardOutput)!);
        Assert.Contains("no-tpl-events", warnings);
        Assert.DoesNotContain("no-allocation-events", warnings);
        // The workload's assembly is still where the trace says, so names come from it, and the report says so.
        Assert.Contains("names-from-assemblies", warnings);
    }

    private static async Task<(string Trace, WorkloadResult Truth)> RecordWithDotNetTraceAsync(string pass, TemporaryDirectory directory, int calls,
        string scenario = "yield", string? fileName = null)
    {
        var providers = await ChildProcess.RunToolAsync("providers", "--pass", pass);
        Assert.True(providers.ExitCode == 0, providers.ToString());
        var trace = directory.File(fileName ?? $"run.{pass}.nettrace");
        var record = await LocalTools.RunAsync("dotnet-trace", ["collect", "--providers", providers.StandardOutput.Trim(), "--show-child-io",
            "-o", trace, "--", "dotnet", Repository.WorkloadDll, scenario, calls.ToString(CultureInfo.InvariantCulture)]);
        Assert.True(record.ExitCode == 0 && File.Exists(trace), record.ToString());
        return (trace, Assert.Single(WorkloadResult.ParseAll(record.StandardOutput)));
    }

    private static async Task<JsonNode> ReportJsonAsync(string sarif, IReadOnlyList<string> traces)
    {
        var result = await ChildProcess.RunToolAsync(["report", "--sarif", sarif, .. traces, "--format", "json"]);
        Assert.True(result.ExitCode == 0, result.ToString());
        return JsonNode.Parse(result.StandardOutput)!;
    }

    private static JsonNode Measured(JsonNode hotFindings) => hotFindings["measured"] ?? hotFindings;

    /// <summary>Every method row as one comparable line: key, name and figures.</summary>
    private static List<string> Rows(JsonNode hotFindings) =>
    [
        .. Measured(hotFindings)["methods"]!.AsArray().Select(m => string.Join(" ",
            (string?)m!["displayName"], (string?)m["methodKey"], m["calls"]?["value"]?.ToString(), m["bytes"]?["value"]?.ToString(), m["hops"]?["value"]?.ToString())),
    ];

    private static List<string> Findings(JsonNode hotFindings) =>
    [
        .. hotFindings["findings"]!.AsArray().Select(f => $"{(string?)f!["finding"]!["methodKey"]} {((bool)f["exercised"]! ? "exercised" : "not exercised")} {f["time"]?["milliseconds"]?["value"]}"),
    ];

    private static List<string> Warnings(JsonNode report) =>
        [.. Measured(report)["warnings"]!.AsArray().Select(w => (string)w!["code"]!)];

    private static void CopyDirectory(string from, string to)
    {
        foreach (var file in Directory.EnumerateFiles(from, "*", SearchOption.AllDirectories))
        {
            var target = Path.Combine(to, Path.GetRelativePath(from, file));
            Directory.CreateDirectory(Path.GetDirectoryName(target)!);
            File.Copy(file, target);
        }
    }
}

/// <summary>`providers`: what other tools are told to enable, printed from the definition the tool's own sessions use.</summary>
public sealed class ProvidersCommandTests
{
    [Fact]
    public async Task Prints_one_dotnet_trace_line_per_pass_after_a_comment()
    {
        var result = await ChildProcess.RunToolAsync("providers");

        Assert.True(result.ExitCode == 0, result.ToString());
        var lines = result.StandardOutput.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal(6, lines.Length);
        Assert.StartsWith("# allocations pass", lines[0], StringComparison.Ordinal);
        Assert.Contains("Microsoft-Windows-DotNETRuntime:0x", lines[1], StringComparison.Ordinal);
        Assert.DoesNotContain("TplEventSource", lines[1], StringComparison.Ordinal);
        Assert.StartsWith("# hops pass", lines[2], StringComparison.Ordinal);
        Assert.Contains("System.Threading.Tasks.TplEventSource:0x", lines[3], StringComparison.Ordinal);
        Assert.StartsWith("# cpu pass", lines[4], StringComparison.Ordinal);
        Assert.StartsWith("Microsoft-DotNETCore-SampleProfiler:0x", lines[5], StringComparison.Ordinal);
        // The comments fit 80 columns; the provider strings are for pasting, whole.
        Assert.All(lines.Where(l => l.StartsWith('#')), l => Assert.True(l.Length <= 80, $"{l.Length} columns: {l}"));
    }

    [Fact]
    public async Task Prints_dotnet_monitor_trace_requests_as_one_json_document()
    {
        var both = await ChildProcess.RunToolAsync("providers", "--for", "dotnet-monitor");
        var one = await ChildProcess.RunToolAsync("providers", "--for", "dotnet-monitor", "--pass", "hops");

        Assert.True(both.ExitCode == 0 && one.ExitCode == 0, both + "\n" + one);
        var request = JsonNode.Parse(one.StandardOutput)!;
        Assert.True((bool)request["RequestRundown"]!);
        Assert.Contains(request["Providers"]!.AsArray(), p => (string)p!["Name"]! == "System.Threading.Tasks.TplEventSource" && ((string)p["Keywords"]!).StartsWith("0x", StringComparison.Ordinal));
        var perPass = JsonNode.Parse(both.StandardOutput)!.AsObject();
        Assert.Equal(["allocations", "hops", "cpu"], perPass.Select(p => p.Key));
        Assert.Equal(request.ToJsonString(), perPass["hops"]!.ToJsonString());
    }
}
