using System.Text.Json.Nodes;
using AsyncCost.Cli.Tests.Infrastructure;

namespace AsyncCost.Cli.Tests;

/// <summary>
/// The join of analyzer findings and measured costs (--sarif), on a recorded pair: the SARIF log of a build of
/// samples/ChattyPipeline (AsyncCost rules only) and the two traces of one `collect -o` run of it with --operations 100.
/// </summary>
public sealed class HotFindingsTests
{
    private static readonly string Sarif = Repository.Recorded("chatty.sarif");
    private static readonly string[] Traces = Repository.RecordedTraces("chatty");

    private const string ProducerKey = "ChattyPipeline.OrderPipeline.ProduceOrdersAsync";

    [Fact]
    public async Task Report_with_sarif_ranks_each_finding_by_its_time_and_credits_the_loop_with_its_callee()
    {
        var result = await ChildProcess.RunToolAsync(["report", "--sarif", Sarif, .. Traces, "--format", "json"]);

        Assert.True(result.ExitCode == 0, result.ToString());
        var hot = JsonNode.Parse(result.StandardOutput)!;
        Assert.Equal(3, (int)hot["schemaVersion"]!);
        var findings = hot["findings"]!.AsArray();
        Assert.Equal(5, findings.Count);
        Assert.Equal([1, 2, 3, 4, 5], findings.Select(f => (int)f!["rank"]!));
        Assert.All(findings, f =>
        {
            Assert.True((bool)f!["exercised"]!);
            Assert.Equal(ProducerKey, (string)f["finding"]!["methodKey"]!);
        });

        // The line lookups' loop is in the producer, but its cost is in the catalog's method it awaits, whose suspending calls
        // the hop pass timed: it ranks first, with a time of its own.
        var loop = findings[0]!;
        Assert.Equal("AC0001", (string)loop["finding"]!["ruleId"]!);
        Assert.Equal(["ChattyPipeline.PriceCatalog.GetPriceAsync"], loop["finding"]!["costMethodKeys"]!.AsArray().Select(k => (string)k!));
        Assert.Equal(["ChattyPipeline.PriceCatalog.GetPriceAsync"], loop["time"]!["methodKeys"]!.AsArray().Select(k => (string)k!));
        Assert.Equal("calleeElapsed", (string)loop["time"]!["basis"]!);
        Assert.Contains("ChattyPipeline.PriceCatalog.GetPriceAsync: 400 suspending call(s)", (string)loop["time"]!["explanation"]!, StringComparison.Ordinal);
        Assert.Equal("secondOfRecording", (string)loop["time"]!["per"]!);
        Assert.True((double)loop["time"]!["lowerBound"]! > 0, loop.ToJsonString());

        // The producer yields once per order: 100 hops in its one call, priced in time.
        var yieldFinding = findings.Single(f => (string)f!["finding"]!["ruleId"]! == "AC0005")!;
        Assert.Equal(100, (double)yieldFinding["method"]!["hops"]!["value"]!);
        Assert.Equal("hops", (string)yieldFinding["time"]!["basis"]!);
        Assert.Contains("100 thread-pool hops", (string)yieldFinding["time"]!["explanation"]!, StringComparison.Ordinal);

        // Findings with a time rank above those without; the WaitHandle waits (AC0007) are no task waits the hop pass times.
        var ranked = findings.Select(f => (RuleId: (string)f!["finding"]!["ruleId"]!, Timed: f["time"]!["milliseconds"] is not null)).ToList();
        Assert.True(ranked.TakeWhile(r => r.Timed).Count() == ranked.Count(r => r.Timed), string.Join(", ", ranked));
        Assert.All(findings.Where(f => (string)f!["finding"]!["ruleId"]! == "AC0007"), f =>
        {
            Assert.Equal("notObservable", (string)f!["verdict"]!);
            Assert.Contains("cpu pass", (string)f["verdictReason"]!, StringComparison.Ordinal);
        });
    }

    [Fact]
    public async Task The_findings_table_comes_first_and_names_rule_place_and_method()
    {
        // --wide: every name whole (WidthTests has the 80-column layout).
        var result = await ChildProcess.RunToolAsync(["report", "--sarif", Sarif, .. Traces, "--wide"]);

        Assert.True(result.ExitCode == 0, result.ToString());
        var output = result.StandardOutput;
        var findingsAt = output.IndexOf("Analyzer findings, ranked by what they cost in time", StringComparison.Ordinal);
        Assert.InRange(findingsAt, 0, output.IndexOf("Async methods, most costly first", StringComparison.Ordinal));
        Assert.Contains("AC0005", output, StringComparison.Ordinal);
        Assert.Contains("OrderPipeline.cs:62", output, StringComparison.Ordinal);
        Assert.Contains(ProducerKey, output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Several_sarif_logs_join_and_an_empty_one_is_warned_about_on_stderr_and_in_the_report()
    {
        using var directory = new TemporaryDirectory("asynccost-sarif-");
        // What a multi-project build with one ErrorLog path leaves for the project built first: a log without results.
        var empty = directory.File("library.sarif");
        await File.WriteAllTextAsync(empty, """{ "version": "2.1.0", "runs": [{ "results": [], "tool": { "driver": { "name": "csc" } } }] }""");
        File.Copy(Sarif, directory.File("app.sarif"));

        var repeated = await ChildProcess.RunToolAsync(["report", "--sarif", Sarif, "--sarif", empty, .. Traces, "--format", "json"]);
        var folder = await ChildProcess.RunToolAsync(["report", "--sarif", directory.Path, .. Traces, "--format", "json"]);

        foreach (var result in new[] { repeated, folder })
        {
            Assert.True(result.ExitCode == 0, result.ToString());
            Assert.Contains(Expect.Messages(result.StandardError), m => m.StartsWith("dotnet-asynccost: warning: " + empty + " has no results", StringComparison.Ordinal));
            var document = JsonNode.Parse(result.StandardOutput)!;
            Assert.Equal(5, document["findings"]!.AsArray().Count);
            Assert.Contains(document["measured"]!["warnings"]!.AsArray(), w => (string)w!["code"]! == "sarif-empty");
            Assert.DoesNotContain(document["measured"]!["warnings"]!.AsArray(), w => (string)w!["code"]! == "sarif-unmatched");
        }
    }

    [Fact]
    public async Task Another_applications_sarif_log_is_warned_about_when_none_of_its_methods_appear_in_the_run()
    {
        // ChattyPipeline's findings against the web shop's traces: no method of the log is a row or among the methods that ran.
        var result = await ChildProcess.RunToolAsync(["report", "--sarif", Sarif, .. Repository.RecordedTraces("webshop"), "--format", "json"]);

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Contains(Expect.Messages(result.StandardError), m => m.StartsWith("dotnet-asynccost: warning: None of the ", StringComparison.Ordinal)
            && m.Contains("appear in this run", StringComparison.Ordinal));
        var document = JsonNode.Parse(result.StandardOutput)!;
        Assert.Contains(document["measured"]!["warnings"]!.AsArray(), w => (string)w!["code"]! == "sarif-unmatched");
        Assert.All(document["findings"]!.AsArray(), f => Assert.Equal("notExercised", (string)f!["verdict"]!));
    }

    [Fact]
    public async Task With_no_finding_in_the_logs_the_findings_section_says_there_are_none()
    {
        using var directory = new TemporaryDirectory("asynccost-sarif-");
        var empty = directory.File("fixed.sarif");
        await File.WriteAllTextAsync(empty, """{ "version": "2.1.0", "runs": [{ "results": [], "tool": { "driver": { "name": "csc" } } }] }""");

        var table = await ChildProcess.RunToolAsync(["report", "--sarif", empty, .. Traces]);
        var page = await ChildProcess.RunToolAsync(["report", "--sarif", empty, .. Traces, "--format", "html"]);

        Assert.True(table.ExitCode == 0, table.ToString());
        Assert.Contains("There are none: the SARIF logs hold no AsyncCost finding.", table.StandardOutput, StringComparison.Ordinal);
        Assert.True(page.ExitCode == 0, page.ToString());
        Assert.Contains("<p>There are none: the SARIF logs hold no AsyncCost finding.</p>", page.StandardOutput, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_missing_sarif_file_is_22_before_anything_is_read()
    {
        var missing = Path.Combine(Path.GetTempPath(), Guid.NewGuid() + ".sarif");

        var result = await ChildProcess.RunToolAsync(["report", "--sarif", missing, .. Traces]);

        Expect.OneLineError(result, 22, missing);
        Assert.Equal("", result.StandardOutput);
    }

    [Fact]
    public async Task A_file_that_is_not_sarif_is_23()
    {
        var result = await ChildProcess.RunToolAsync(["report", "--sarif", Traces[0], .. Traces]);

        Expect.OneLineError(result, 23, "is not JSON");
    }

    [Fact]
    public async Task Compare_shows_two_runs_side_by_side_per_operation()
    {
        using var directory = new TemporaryDirectory("asynccost-compare-");
        var json = directory.File("run.json");
        var written = await ChildProcess.RunToolAsync(["report", .. Traces, "--format", "json", "-o", json]);
        Assert.True(written.ExitCode == 0, written.ToString());

        var result = await ChildProcess.RunToolAsync("compare", json, json, "--operations", "100", "--format", "csv");

        Assert.True(result.ExitCode == 0, result.ToString());
        var hops = result.StandardOutput.Split('\n').Single(l => l.StartsWith("hops,", StringComparison.Ordinal)).TrimEnd().Split(',');
        // The same run on both sides: equal raw figures per operation, ratio 1; exact counts, so no bound and not noise; unchanged.
        Assert.Equal(["hops", "true", hops[2], "0", hops[2], "0", "1", "0", "false", "unchanged"], hops);
        Assert.True(double.Parse(hops[2], System.Globalization.CultureInfo.InvariantCulture) > 0, string.Join(",", hops));
    }

    [Fact]
    public async Task Report_with_findings_and_o_writes_their_measured_costs_for_the_analyzer_and_a_later_run_without_findings_removes_them()
    {
        using var directory = new TemporaryDirectory("asynccost-costs-");
        var basePath = directory.File("run");
        var written = await ChildProcess.RunToolAsync(["report", .. Traces, "--sarif", Sarif, "-o", basePath]);
        Assert.True(written.ExitCode == 0, written.ToString());
        Assert.Contains("run.costs.tsv", written.StandardError, StringComparison.Ordinal);

        var lines = await File.ReadAllLinesAsync(basePath + ".costs.tsv");
        Assert.Equal("# asynccost measured costs 1", lines[0]);
        Assert.StartsWith("# measured: ", lines[1], StringComparison.Ordinal);
        // One row per ranked finding of the log, each naming the rule and the line the analyzer joins on.
        var rows = lines.Where(l => l.Length > 0 && l[0] != '#').Select(l => l.Split('\t')).ToList();
        var json = System.Text.Json.JsonDocument.Parse(await ChildProcess.RunToolAsync(["report", .. Traces, "--sarif", Sarif, "--format", "json"]) is { ExitCode: 0 } report
            ? report.StandardOutput : throw new InvalidOperationException("the JSON report failed"));
        Assert.Equal(json.RootElement.GetProperty("findings").GetArrayLength(), rows.Count);
        Assert.All(rows, row => Assert.Matches("^AC[0-9]{4}$", row[0]));

        // The same base without findings: the costs file of the earlier run would read as this run's, so it goes.
        var again = await ChildProcess.RunToolAsync(["report", .. Traces, "-o", basePath]);
        Assert.True(again.ExitCode == 0, again.ToString());
        Assert.False(File.Exists(basePath + ".costs.tsv"));
    }

    [Fact]
    public async Task Compare_with_findings_refuses_a_missing_log_a_budget_and_findings_it_did_not_write()
    {
        using var directory = new TemporaryDirectory("asynccost-compare-findings-");
        var json = directory.File("run.json");
        var written = await ChildProcess.RunToolAsync(["report", .. Traces, "--sarif", Sarif, "--format", "json", "-o", json]);
        Assert.True(written.ExitCode == 0, written.ToString());

        Expect.OneLineError(await ChildProcess.RunToolAsync("compare", json, json, "--sarif", directory.File("missing.sarif")), 22, "missing.sarif");

        var budget = directory.File("asynccost-budget.json");
        await File.WriteAllTextAsync(budget, """{ "budgetVersion": 1, "hopsPerOperation": 6 }""");
        Expect.OneLineError(await ChildProcess.RunToolAsync("compare", budget, json, "--sarif", Sarif), 2, "a budget file is no run");

        // A first report whose ranked findings are not this tool's: said, not thrown.
        var edited = System.Text.Json.Nodes.JsonNode.Parse(await File.ReadAllTextAsync(json))!.AsObject();
        Assert.True(edited["findings"] is System.Text.Json.Nodes.JsonArray { Count: > 0 }, "the report holds its ranked findings");
        edited["findings"]![0]!.AsObject().Remove("finding");
        var foreign = directory.File("foreign-findings.json");
        await File.WriteAllTextAsync(foreign, edited.ToJsonString());
        Expect.OneLineError(await ChildProcess.RunToolAsync("compare", foreign, json), 24, "its findings are not this tool's");
    }

    [Fact]
    public async Task Compare_of_a_file_that_is_not_a_report_is_24()
    {
        var result = await ChildProcess.RunToolAsync("compare", Sarif, Sarif);

        Expect.OneLineError(result, 24, "Cannot read report");
    }

    [Fact]
    public async Task Schema_describes_the_hot_findings_json()
    {
        var result = await ChildProcess.RunToolAsync("schema", "--hot-findings");

        Assert.True(result.ExitCode == 0, result.ToString());
        var schema = JsonNode.Parse(result.StandardOutput)!;
        Assert.StartsWith("AsyncCost hot findings", (string)schema["title"]!, StringComparison.Ordinal);
        Assert.NotNull(schema["properties"]!["findings"]);
        Assert.NotNull(schema["properties"]!["measured"]);
    }
}
