using System.Text.Json.Nodes;
using System.Text.RegularExpressions;
using AsyncCost.Cli.Commands;
using AsyncCost.Cli.Tests.Infrastructure;
using AsyncCost.Cli.Rendering;
using AsyncCost.Findings;
using AsyncCost.Report;

namespace AsyncCost.Cli.Tests;

/// <summary>'compare' on reports built in memory: a difference inside the noise is marked as such in every format, a real one is named.</summary>
public sealed class ComparisonTests
{
    private const int Operations = 200;

    [Fact]
    public void A_rerun_of_the_same_code_shows_its_sampled_differences_as_noise_in_every_format()
    {
        // Two runs of one program: one allocation sample each way (±196 %), the same hops, a few percent apart in switches.
        var first = Run(asyncBytes: Estimate(102_400, 200_700), hops: 1_200, voluntarySwitches: 6_000);
        var second = Run(asyncBytes: Estimate(204_800, 401_400), hops: 1_201, voluntarySwitches: 6_250);

        var comparison = Comparison.Create("run1.json", first, "run2.json", second, Operations);

        Assert.True(Compared(comparison, "asyncMethodBytes").WithinNoise);
        Assert.Matches(@"Async-method bytes per op\s+~512 B ±196%\s+~1\.0 KB ±196%\s+≈ 2\.00× \(noise\)", Table(comparison));
        Assert.Contains("| Async-method bytes per op | ~512 B ±196% | ~1.0 KB ±196% | ≈ 2.00× (noise) |", Markdown(comparison), StringComparison.Ordinal);
        Assert.EndsWith(",true,unchanged", Csv(comparison).Single(l => l.StartsWith("asyncMethodBytes,", StringComparison.Ordinal)), StringComparison.Ordinal);
        Assert.True((bool)JsonFigure(comparison, "asyncMethodBytes")["withinNoise"]!);
        // Twice as many bytes, but the bounds overlap: not a change; nor are hops and switches a few percent apart.
        Assert.Equal("run2 and run1 show no change beyond the noise or 10 % in throughput, bytes in async methods and thread-pool hops; "
            + "context switches, a count that moves with the machine's load, differ by less than 10 %.",
            comparison.Summary());
        Assert.EndsWith(comparison.Summary(), Table(comparison).TrimEnd(), StringComparison.Ordinal);
    }

    [Fact]
    public void A_real_improvement_is_named_with_its_factor_and_is_not_marked_as_noise()
    {
        var costly = Run(asyncBytes: Estimate(2_048_000, 102_400), hops: 1_200, voluntarySwitches: 6_000);
        var fixedTwin = Run(asyncBytes: Estimate(1_024_000, 51_200), hops: 1_000, voluntarySwitches: 60);

        var comparison = Comparison.Create("ChattyPipeline.json", costly, "ChattyPipeline.Fixed.json", fixedTwin, Operations);

        Assert.False(Compared(comparison, "asyncMethodBytes").WithinNoise);
        Assert.Matches(@"Async-method bytes per op\s+~10\.0 KB ±5\.0%\s+~5\.0 KB ±5\.0%\s+0\.50× ±7\.1%", Table(comparison));
        Assert.Matches(@"Thread-pool hops per op\s+6\s+5\s+0\.83×", Table(comparison));
        Assert.False((bool)JsonFigure(comparison, "hops")["withinNoise"]!);
        Assert.Equal("ChattyPipeline.Fixed allocates 2.0× fewer bytes in async methods per operation (±7.1%) and makes 1.2× fewer thread-pool hops per operation "
            + "than ChattyPipeline; every difference named is outside its bound and beyond 10 %; it also makes 100× fewer voluntary context switches (threads blocking) per operation, "
            + "a count that moves with the machine's load, not a cost with a bound (rerun both to confirm); no change beyond the noise or 10 % in throughput.",
            comparison.Summary());
        Assert.Equal(comparison.Summary(), (string)JsonNode.Parse(comparison.Json())!["summary"]!);
    }

    [Fact]
    public void A_run_whose_allocation_pass_sampled_no_async_method_is_below_a_bound_not_zero()
    {
        var sampled = Run(asyncBytes: Estimate(102_400, 200_700), hops: 1_200, voluntarySwitches: 6_000);
        var none = Run(asyncBytes: null, hops: 1_200, voluntarySwitches: 6_000);

        var comparison = Comparison.Create("run1.json", sampled, "run2.json", none, Operations);

        // Fewer than 3 samples' worth (3 × 100 KB over 200 operations) may hide behind a run that sampled nothing.
        Assert.Matches(@"Async-method bytes per op\s+~512 B ±196%\s+<1\.5 KB\s+≈ 0\.00× \(noise\)", Table(comparison));
        Assert.Equal("estimate", (string)JsonFigure(comparison, "asyncMethodBytes")["after"]!["kind"]!);
        // The other way round there is no ratio, but the bounds still overlap: noise, and not a change either.
        var reversed = Comparison.Create("run2.json", none, "run1.json", sampled, Operations);
        Assert.Matches(@"Async-method bytes per op\s+<1\.5 KB\s+~512 B ±196%\s+≈ \(noise\)", Table(reversed));
        Assert.Contains("no change beyond the noise or 10 % in throughput, bytes in async methods", reversed.Summary(), StringComparison.Ordinal);
    }

    [Fact]
    public void Bytes_from_different_passes_are_not_compared()
    {
        var allocationPass = Run(asyncBytes: Estimate(1_024_000, 51_200), hops: 1_000, voluntarySwitches: 60);
        var hopPass = Run(asyncBytes: Estimate(2_048_000, 102_400, FigureSource.HopPass), hops: 1_000, voluntarySwitches: 60);

        var comparison = Comparison.Create("a.json", allocationPass, "b.json", hopPass, Operations);

        Assert.Matches(@"Async-method bytes per op\s+~5\.0 KB ±5\.0%\s+~10\.0 KB ±5\.0%\s+passes differ", Table(comparison));
        Assert.Contains("; bytes in async methods come from different passes and are not compared;", comparison.Summary(), StringComparison.Ordinal);
    }

    [Fact]
    public void The_comparison_table_fits_100_columns()
    {
        var comparison = Comparison.Create("artifacts/demo/ChattyPipeline.json", Run(Estimate(2_048_000, 102_400), 1_200, 6_000),
            "artifacts/demo/ChattyPipeline.Fixed.json", Run(Estimate(1_024_000, 51_200), 1_000, 60), Operations);
        using var writer = new StringWriter();

        ConsoleTableWriter.Write(comparison.Document(), writer, isTerminal: true, width: 100);

        var lines = Regex.Replace(writer.ToString(), "\u001b\\[[0-9;?]*[A-Za-z]", "").Split('\n').Select(l => l.TrimEnd('\r')).ToList();
        Assert.All(lines, l => Assert.True(l.Length <= 100, $"{l.Length} > 100: {l}"));
        Assert.Contains(lines, l => Regex.IsMatch(l.TrimEnd(), @"^  Thread-pool hops per op\s+6\s+5\s+0\.83×$"));
    }

    [Fact]
    public void Context_switches_are_a_load_dependent_count_never_a_difference_outside_a_bound()
    {
        // The same code twice on a machine whose load changed: 6.5× fewer switches, no other difference.
        var comparison = Comparison.Create("run1.json", Run(Estimate(1_024_000, 51_200), 1_000, 6_500), "run2.json", Run(Estimate(1_024_000, 51_200), 1_000, 1_000), Operations);

        Assert.Matches(@"Voluntary context switches per op\s+32\.5\s+5\s+0\.15× \(load\)", Table(comparison));
        Assert.Equal("loadDependent", (string)JsonFigure(comparison, "voluntaryContextSwitches")["before"]!["kind"]!);
        Assert.Equal("run2 makes 6.5× fewer voluntary context switches (threads blocking) per operation than run1, a count that moves with the machine's load, "
            + "not a cost with a bound (rerun both to confirm); no change beyond the noise or 10 % in throughput, bytes in async methods and thread-pool hops.", comparison.Summary());
        Assert.DoesNotContain("outside its bound", comparison.Summary(), StringComparison.Ordinal);
    }

    [Fact]
    public void Without_operations_two_whole_launched_runs_are_not_assumed_to_have_done_the_same_work()
    {
        var costly = Run(Estimate(2_048_000, 102_400), 1_200, 6_000) with { RowBasis = RowBasis.Run };
        var fixedTwin = Run(Estimate(512_000, 25_600), 1_200, 6_000) with { RowBasis = RowBasis.Run };

        var comparison = Comparison.Create("costly.json", costly, "fixed.json", fixedTwin, operations: null);

        Assert.Equal(ComparisonBasis.PerSecond, comparison.Basis);
        Assert.StartsWith("No verdict on cost", comparison.Summary(), StringComparison.Ordinal);
        Assert.All(comparison.Figures, f => Assert.NotEqual(Judgement.Regressed, comparison.Judge(f)));
    }

    [Fact]
    public void Runs_of_different_length_that_know_their_operations_are_judged_per_operation_of_each_run_with_throughput_first()
    {
        // Two five-second runs: the costly one did 320 orders (300 under the hop pass's tracing), its twin 1,232 (1,100), with
        // the same 6 hops and ~2 KB of async-method bytes per order. Per run the twin would "make 3.9× more hops".
        var costly = Counted(Run(Estimate(320 * 2_048, 102_400), 300 * 6, 6_000), (320, 5.2), (300, 5.4));
        var fixedTwin = Counted(Run(Estimate(1_232 * 2_048, 204_800), 1_100 * 6, 1_500), (1_232, 5.1), (1_100, 5.3));

        var comparison = Comparison.Create("ChattyPipeline.json", costly, "ChattyPipeline.Fixed.json", fixedTwin, operations: null);

        Assert.Equal(ComparisonBasis.PerOperation, comparison.Basis);
        Assert.Equal((6, 6), (Compared(comparison, "hops").Before!.Value, Compared(comparison, "hops").After!.Value));
        Assert.Equal(2_048, Compared(comparison, "asyncMethodBytes").After!.Value, precision: 6);
        // Throughput by the commands' own clocks: 320 / 5.2 s against 1,232 / 5.1 s.
        Assert.Equal(1_232 / 5.1 / (320 / 5.2), Compared(comparison, "throughput").Difference!.Ratio!.Value, precision: 9);
        // Each run's passes did different work under the hop pass's tracing: the title names each pass's count.
        Assert.Equal("Before and after, per operation (each run's own: 320 in the allocations pass, 300 in the hops pass; and 1,232 in the allocations pass, 1,100 in the hops pass)",
            comparison.Title);
        Assert.Equal("Before and after, per operation (each run's own: 320 and 1,232)",
            Comparison.Create("a.json", Counted(costly, (320, 5.2), (320, 5.4)), "b.json", Counted(fixedTwin, (1_232, 5.1), (1_232, 5.3)), operations: null).Title);
        Assert.StartsWith("ChattyPipeline.Fixed runs 3.9× more operations per second than ChattyPipeline; every difference named is outside its bound and beyond 10 %",
            comparison.Summary(), StringComparison.Ordinal);
        Assert.EndsWith("no change beyond the noise or 10 % in bytes in async methods and thread-pool hops.", comparison.Summary(), StringComparison.Ordinal);
        Assert.Empty(comparison.Regressions);
        Assert.Equal(Judgement.Improved, comparison.Judge(Compared(comparison, "throughput")));

        // The other way round, the throughput fall is the one regression, named with both figures.
        var reversed = Comparison.Create("ChattyPipeline.Fixed.json", fixedTwin, "ChattyPipeline.json", costly, operations: null);
        Assert.Equal(["throughput"], reversed.Regressions.Select(f => f.Key));
        Assert.Equal("Throughput (ops/s): 242 in ChattyPipeline.Fixed, 62 in ChattyPipeline (3.9× fewer), worse beyond its bound and the 10 % threshold",
            Assert.Single(reversed.RegressionLines()));
        Assert.Equal(["throughput"], JsonNode.Parse(reversed.Json())!["regressions"]!.AsArray().Select(k => (string)k!));
        Assert.Equal("regressed", (string)JsonFigure(reversed, "throughput")["judgement"]!);
        // A threshold the user sets: a 3.9× fall is within 400 %.
        Assert.Empty(Comparison.Create("a.json", fixedTwin, "b.json", costly, operations: null, threshold: 4).Regressions);
    }

    [Fact]
    public void A_run_held_to_a_budget_fails_only_on_the_limits_it_exceeds_beyond_its_bound_and_the_threshold()
    {
        var run = Counted(Run(Estimate(400 * 2_048, 40_960), 400 * 6, 6_000), (400, 4), (400, 5)); // 100 ops/s, ~2 KB ±5 % and 6 hops per op
        var budget = new BudgetFile { BudgetVersion = 1, MinimumThroughput = 150, AsyncMethodBytesPerOperation = 1_900, HopsPerOperation = 6 };

        var comparison = Comparison.AgainstBudget("asynccost-budget.json", budget, "pr.json", run, operations: null, threshold: 0.10);

        Assert.Equal(["throughput", "asyncMethodBytes", "hops"], comparison.Figures.Select(f => f.Key));
        Assert.Equal(("Budget", "Measured"), comparison.Headings);
        // 100 ops/s is 1.5× under the least 150: a regression. 2,048 B ±5 % is over 1,900 B by 7.8 %: outside the bound, but
        // within the 10 % threshold. Six hops are the budget's own: unchanged.
        Assert.Equal(["throughput"], comparison.Regressions.Select(f => f.Key));
        Assert.Equal(Judgement.Unchanged, comparison.Judge(comparison.Figures[1]));
        Assert.StartsWith("pr runs 1.5× fewer operations per second than its budget (asynccost-budget)", comparison.Summary(), StringComparison.Ordinal);
        Assert.Matches(@"Budget and measured, per operation \(400 operations\)", Table(comparison));
        // A threshold of 0 fails on any excess beyond the run's bound.
        Assert.Equal(["throughput", "asyncMethodBytes"], Comparison.AgainstBudget("b.json", budget, "pr.json", run, null, threshold: 0).Regressions.Select(f => f.Key));
    }

    [Fact]
    public void Each_figure_is_divided_by_its_own_passs_operations_when_the_passes_of_a_run_did_different_work()
    {
        // An app that stops itself after 3 s: 6,601,796 calls of 104 B and one hop each untraced, 186,610 under the hop pass's
        // tracing. Bytes over the hop pass's operations would read 3.7 KB, hops over the allocation pass's 0.03.
        var run = Counted(Run(Estimate(6_601_796 * 104.0, 6_601_796 * 104.0 * 0.02), 186_610, 600), (6_601_796, 3.0), (186_610, 3.0)) with { RowBasis = RowBasis.EachPass };
        var budget = new BudgetFile { BudgetVersion = 1, AsyncMethodBytesPerOperation = 50, HopsPerOperation = 2 };

        var comparison = Comparison.AgainstBudget("asynccost-budget.json", budget, "costly.json", run, operations: null, threshold: 0.10);

        Assert.Equal(104, Compared(comparison, "asyncMethodBytes").After!.Value, 9);
        Assert.Equal(1, Compared(comparison, "hops").After!.Value, 9);
        Assert.Equal(["asyncMethodBytes"], comparison.Regressions.Select(f => f.Key));
        Assert.Equal("Budget and measured, per operation (6,601,796 operations in the allocations pass, 186,610 in the hops pass)", comparison.Title);
        // The fixed twin, which allocates nothing in async methods and never hops, keeps the same budget.
        var fixedTwin = Counted(Run(Estimate(0, 300_000), 0, 600), (39_284_554, 3.0), (49_096_289, 3.0)) with { RowBasis = RowBasis.EachPass };
        Assert.Empty(Comparison.AgainstBudget("asynccost-budget.json", budget, "fixed.json", fixedTwin, operations: null, threshold: 0.10).Regressions);

        // Measured without its hop pass, the run has no hops to hold to the budget's limit: the gate says so, and judges nothing.
        var allocationsOnly = run with { Passes = [run.Passes[0]], Totals = new ProcessTotals() };
        var unheld = Comparison.AgainstBudget("asynccost-budget.json", budget with { AsyncMethodBytesPerOperation = 200 }, "pr.json", allocationsOnly, operations: null, threshold: 0.10);
        Assert.Equal(["hops"], unheld.UnheldLimits.Select(f => f.Key));
        Assert.Matches(@"Thread-pool hops per op\s+2\s+-", Table(unheld));
        using var error = new StringWriter();
        Assert.Equal(ExitCode.NothingToJudge, RegressionGate.Judge(unheld, AnnotationStyle.None, TextWriter.Null, error, width: 400));
        Assert.Contains("cannot hold pr to asynccost-budget: the budget limits Thread-pool hops per op, which the run has no figure for", error.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public void Operations_given_to_compare_count_only_for_a_run_that_knows_none_and_a_contradiction_is_refused()
    {
        // Two runs that stopped themselves after 5 s and said so: 288 and 1,040 orders, 6 hops each per order.
        var costly = Counted(Run(Estimate(288 * 2_048, 20_480), 288 * 6, 600), (288, 5.0), (288, 5.0));
        var fixedTwin = Counted(Run(Estimate(1_040 * 2_048, 40_960), 1_040 * 6, 600), (1_040, 5.0), (1_040, 5.0));

        var refused = Assert.Throws<OperationsContradictedException>(() => Comparison.Create("costly.json", costly, "fixed.json", fixedTwin, operations: 288));
        Assert.Equal((288, 1_040), (refused.Given, refused.Known));
        Assert.StartsWith("--operations 288 contradicts the 1,040 operations fixed.json's allocations pass knows", refused.Message, StringComparison.Ordinal);
        // A count that agrees with what the runs know is no contradiction; each run's own count divides its figures.
        var itself = Comparison.Create("a.json", costly, "b.json", costly, operations: 288);
        Assert.Equal(6, Compared(itself, "hops").After!.Value, 9);
        // One report twice is named as such, and the gate judges nothing on it.
        Assert.True(itself.SameReport);
        Assert.StartsWith("a.json and b.json are the same report", itself.Summary(), StringComparison.Ordinal);
        using (var error = new StringWriter())
        {
            Assert.Equal(ExitCode.NothingToJudge, RegressionGate.Judge(itself, AnnotationStyle.None, TextWriter.Null, error, width: 400));
            Assert.Contains("a.json and b.json are the same report", error.ToString(), StringComparison.Ordinal);
        }
        Assert.False(Comparison.Create("a.json", costly, "b.json", fixedTwin, operations: null).SameReport);

        // A run that knows none (attached) takes the given count; the run that knows its own keeps it.
        var attached = Run(Estimate(1_040 * 2_048, 40_960), 1_040 * 6, 600);
        var comparison = Comparison.Create("attached.json", attached, "fixed.json", fixedTwin, operations: 1_040);
        Assert.Equal(ComparisonBasis.PerOperation, comparison.Basis);
        Assert.Equal((6, 6), (Compared(comparison, "hops").Before!.Value, Compared(comparison, "hops").After!.Value));
        Assert.Empty(comparison.Regressions);
    }

    [Fact]
    public async Task Compare_reads_a_budget_file_refuses_a_misspelt_one_and_prints_its_schema()
    {
        using var directory = new TemporaryDirectory("asynccost-budget-");
        var run = directory.File("run.json");
        await File.WriteAllTextAsync(run, AsyncCostReportJson.Serialize(Counted(Run(Estimate(400 * 2_048, 40_960), 400 * 6, 6_000), (400, 4), (400, 5))));
        var budget = directory.File("asynccost-budget.json");
        await File.WriteAllTextAsync(budget, """{ "budgetVersion": 1, "minimumThroughput": 150, "hopsPerOperation": 6 }""");
        var misspelt = directory.File("misspelt.json");
        await File.WriteAllTextAsync(misspelt, """{ "budgetVersion": 1, "hopsPerOp": 6 }""");

        var failed = await ChildProcess.RunToolAsync("compare", budget, run, "--fail-on-regression");
        Assert.True(failed.ExitCode == 26, failed.ToString());
        // Redirected, each line fits 80 columns; the regression goes on, indented, under its own first line.
        Assert.Equal("dotnet-asynccost: run regressed against asynccost-budget: Throughput (ops/s): 150 in asynccost-budget, 100 in run (1.5× fewer), worse beyond its bound and the 10 % threshold",
            Assert.Single(Expect.Messages(failed.StandardError)));
        Assert.Equal(0, (await ChildProcess.RunToolAsync("compare", budget, run, "--fail-on-regression", "--threshold", "60")).ExitCode);
        // Azure Pipelines reads its own logging command, '%' escaped as it expects.
        var azure = await ChildProcess.RunToolAsync("compare", budget, run, "--fail-on-regression", "--annotations", "azure");
        Assert.True(azure.ExitCode == 26, azure.ToString());
        Assert.Contains("##vso[task.logissue type=error]AsyncCost regression: Throughput (ops/s): 150 in asynccost-budget, 100 in run (1.5× fewer), worse beyond its bound and the 10 %AZP25 threshold",
            azure.StandardOutput.Split('\n').Select(l => l.TrimEnd('\r')));

        var refused = await ChildProcess.RunToolAsync("compare", misspelt, run);
        Assert.Equal(24, refused.ExitCode);
        Assert.Contains("hopsPerOp", refused.StandardError, StringComparison.Ordinal);
        Assert.Equal(24, (await ChildProcess.RunToolAsync("compare", run, budget)).ExitCode);

        var schema = await ChildProcess.RunToolAsync("schema", "--budget");
        Assert.Equal(0, schema.ExitCode);
        var properties = JsonNode.Parse(schema.StandardOutput)!["properties"]!.AsObject().Select(p => p.Key);
        Assert.Equal(["$schema", "budgetVersion", "minimumThroughput", "asyncMethodBytesPerOperation", "hopsPerOperation", "methods"], properties);

        // A trailing comma is a JSON error that names the file, the line and the field before it, not "cannot read report".
        var trailingComma = directory.File("trailing.json");
        await File.WriteAllTextAsync(trailingComma, "{\n  \"budgetVersion\": 1,\n  \"hopsPerOperation\": 6,\n}\n");
        var comma = await ChildProcess.RunToolAsync("compare", trailingComma, run);
        Assert.Equal(24, comma.ExitCode);
        Assert.Equal($"dotnet-asynccost: Cannot read {trailingComma}: it is not valid JSON at line 4, column 1, after the field \"hopsPerOperation\" (a trailing comma, or a missing comma, quote or value?).",
            Assert.Single(Expect.Messages(comma.StandardError)));
    }

    [Theory]
    [InlineData("""{ "budgetVersion": 1 }""", "it sets no limit, so it would hold the run to nothing")]
    [InlineData("""{ "budgetVersion": 1, "asyncMethodBytesPerOperation": -50 }""", "asyncMethodBytesPerOperation is -50: a limit is 0 or more")]
    [InlineData("""{ "budgetVersion": 1, "minimumThroughput": -5 }""", "minimumThroughput is -5: a limit is 0 or more")]
    [InlineData("""{ "budgetVersion": 1, "hopsPerOperation": null }""", "hopsPerOperation must be a number, not null")]
    [InlineData("""{ "budgetVersion": 1, "hopsPerOperation": "7" }""", "hopsPerOperation must be a number, not \"7\"")]
    [InlineData("""{ "budgetVersion": 2, "hopsPerOperation": 7 }""", "budgetVersion 2 is not 1")]
    [InlineData("""{ "budgetVersion": 1, "hopsPerOp": 7 }""", "hopsPerOp is not a budget field (known: $schema, budgetVersion, minimumThroughput, asyncMethodBytesPerOperation, hopsPerOperation, methods)")]
    [InlineData("""{ "budgetVersion": 1, "methods": { "Shop.Orders.ReserveAsync": { "bytesPerOp": 50 } } }""", "methods.Shop.Orders.ReserveAsync.bytesPerOp is not a method limit (known: bytesPerOperation, hopsPerOperation, blockingWaitsPerOperation)")]
    [InlineData("""{ "budgetVersion": 1, "methods": { "Shop.Orders.ReserveAsync": { "bytesPerOperation": -1 } } }""", "methods.Shop.Orders.ReserveAsync.bytesPerOperation is -1")]
    [InlineData("""{ "budgetVersion": 1, "methods": { "Shop.Orders.ReserveAsync": 50 } }""", "methods.Shop.Orders.ReserveAsync must be an object of limits")]
    [InlineData("""{ "budgetVersion": 1, "methods": { "Shop.Orders.ReserveAsync": { } } }""", "methods.Shop.Orders.ReserveAsync sets no limit")]
    [InlineData("""{ "budgetVersion": 1, "methods": { "ReserveAsync()": { "hopsPerOperation": 1 } } }""", "methods: \"ReserveAsync()\" is not a method key")]
    public async Task A_budget_that_would_hold_nothing_or_names_a_field_wrongly_is_refused_naming_the_file_and_the_field(string json, string why)
    {
        // The schema 'schema --budget' prints refuses it too (all but a key that is no method key, which only the tool reads).
        var schema = await NJsonSchema.JsonSchema.FromJsonAsync(BudgetFile.JsonSchema().ToJsonString());
        if (!why.StartsWith("methods: ", StringComparison.Ordinal))
        {
            Assert.NotEmpty(schema.Validate(json));
        }
        Assert.Empty(schema.Validate(await File.ReadAllTextAsync(Path.Combine(Repository.Root, "samples", "ChattyPipeline.Fixed", "asynccost-budget.json"))));

        var refused = Assert.Throws<CliException>(() => BudgetFile.Read(JsonNode.Parse(json)!.AsObject(), "asynccost-budget.json"));

        Assert.Equal(ExitCode.ReportFileInvalid, refused.ExitCode);
        Assert.StartsWith("Cannot read budget asynccost-budget.json: " + why, refused.Message, StringComparison.Ordinal);
        // The field is named in the file's words, never by a type of this tool.
        Assert.DoesNotContain("AsyncCost.", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_budgets_method_limits_hold_each_methods_figures_per_operation_of_their_own_pass_and_a_misspelt_method_is_no_such_method()
    {
        // 400 operations in both passes: ReserveAsync allocates 104 B and hops once per operation; AuditAsync ran without a row.
        var run = Counted(Run(Estimate(400 * 104, 400 * 2), 400, 600), (400, 4), (400, 5)) with
        {
            Methods =
            [
                new MethodCost
                {
                    MethodKey = "Shop.Orders.ReserveAsync", DisplayName = "Shop.Orders.ReserveAsync", Bytes = Estimate(400 * 104, 400 * 2),
                    Hops = Figure.Exact(400, FigureSource.HopPass), BlockingWaits = Figure.Exact(0, FigureSource.HopPass),
                },
            ],
            MethodsThatRan = ["Shop.Orders.AuditAsync", "Shop.Orders.ReserveAsync"],
        };
        var budget = new BudgetFile
        {
            BudgetVersion = 1,
            Methods = new Dictionary<string, MethodLimits>
            {
                ["Shop.Orders.ReserveAsync"] = new() { BytesPerOperation = 50, HopsPerOperation = 1, BlockingWaitsPerOperation = 0 },
                ["Shop.Orders.AuditAsync"] = new() { BytesPerOperation = 0, HopsPerOperation = 0 },
            },
        };

        var comparison = Comparison.AgainstBudget("asynccost-budget.json", budget, "pr.json", run, operations: null, threshold: 0.10);

        Assert.Equal(104, Compared(comparison, "method:Shop.Orders.ReserveAsync:bytes").After!.Value, 9);
        Assert.Equal(["method:Shop.Orders.ReserveAsync:bytes"], comparison.Regressions.Select(f => f.Key));
        Assert.Contains("over the budget's method limits: Shop.Orders.ReserveAsync bytes per op ~104 B", comparison.Summary(), StringComparison.Ordinal);
        // A method that ran unseen cost nothing its passes could see: 0 hops exactly, 0 bytes within the unsampled bound.
        Assert.Equal(0, Compared(comparison, "method:Shop.Orders.AuditAsync:hops").After!.Value);
        Assert.Empty(comparison.UnheldLimits);

        // A misspelt key is no method of the run, for every kind of limit: the gate says so, with the nearest names.
        var misspelt = budget with { Methods = new Dictionary<string, MethodLimits> { ["Shop.Orders.ReserveAsnyc"] = new() { BytesPerOperation = 200, HopsPerOperation = 2, BlockingWaitsPerOperation = 1 } } };
        var unknown = Comparison.AgainstBudget("asynccost-budget.json", misspelt, "pr.json", run, operations: null, threshold: 0.10);
        Assert.Equal(3, unknown.UnheldLimits.Count);
        using var error = new StringWriter();
        Assert.Equal(ExitCode.NothingToJudge, RegressionGate.Judge(unknown, AnnotationStyle.None, TextWriter.Null, error, width: 1_000));
        Assert.Contains("the budget limits Shop.Orders.ReserveAsnyc bytes per op, no such method in pr: no row and no method its trace names has the key "
            + "Shop.Orders.ReserveAsnyc (nearest: Shop.Orders.ReserveAsync, Shop.Orders.AuditAsync)", error.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_gate_judges_nothing_per_second_and_says_so_with_its_own_exit_code()
    {
        using var directory = new TemporaryDirectory("asynccost-gate-");
        var before = directory.File("before.json");
        var after = directory.File("after.json");
        await File.WriteAllTextAsync(before, AsyncCostReportJson.Serialize(Run(Estimate(2_048_000, 102_400), 1_200, 6_000)));
        await File.WriteAllTextAsync(after, AsyncCostReportJson.Serialize(Run(Estimate(8_192_000, 102_400), 4_800, 6_000)));

        var result = await ChildProcess.RunToolAsync("compare", before, after, "--fail-on-regression");

        Assert.True(result.ExitCode == 27, result.ToString());
        Assert.StartsWith("dotnet-asynccost: cannot judge a regression: the runs' operations are unknown", result.StandardError, StringComparison.Ordinal);
        // Given the operations, the 4× bytes and hops per operation are regressions.
        var judged = await ChildProcess.RunToolAsync("compare", before, after, "--operations", "200", "--fail-on-regression", "--format", "json");
        Assert.True(judged.ExitCode == 26, judged.ToString());
        Assert.Equal(["asyncMethodBytes", "hops"], JsonNode.Parse(judged.StandardOutput)!["regressions"]!.AsArray().Select(k => (string)k!));
    }

    [Fact]
    public void A_cost_from_none_to_some_per_operation_is_a_regression()
    {
        var before = Counted(Run(asyncBytes: null, hops: 0, voluntarySwitches: 100), (1_000_000, 2), (1_000_000, 3));
        var after = Counted(Run(asyncBytes: null, hops: 1_000_000, voluntarySwitches: 100), (1_000_000, 2), (1_000_000, 3));

        var comparison = Comparison.Create("valuetask.json", before, "task.json", after, operations: null);

        Assert.Equal(["hops"], comparison.Regressions.Select(f => f.Key));
        Assert.Contains("task makes more thread-pool hops per operation than valuetask", comparison.Summary(), StringComparison.Ordinal);
    }

    [Fact]
    public void Without_operations_runs_recorded_for_a_time_are_shown_per_second_of_their_passes_and_not_judged()
    {
        // Attached for 5 s each; the fixed twin serves 4× the requests at a quarter of the bytes each: the same bytes per second.
        var costly = Run(Estimate(2_048_000, 102_400), 1_200, 6_000);
        var fixedTwin = Run(Estimate(2_048_000, 102_400), 4_800, 6_000);

        var comparison = Comparison.Create("costly.json", costly, "fixed.json", fixedTwin, operations: null);

        Assert.Equal(ComparisonBasis.PerSecond, comparison.Basis);
        // Each figure over its own pass's time: bytes over the allocation pass's 2 s, hops over the hop pass's 3 s.
        Assert.Equal((1_024_000, 1_024_000), (Compared(comparison, "asyncMethodBytes").Before!.Value, Compared(comparison, "asyncMethodBytes").After!.Value));
        Assert.Contains("Async-method bytes/s", Table(comparison), StringComparison.Ordinal);
        Assert.Matches(@"Thread-pool hops/s\s+400\s+1,600\s+4\.00×", Table(comparison));
        Assert.StartsWith("No verdict on cost: costly and fixed recorded for a time, not a known number of operations", comparison.Summary(), StringComparison.Ordinal);
        Assert.Contains("Give --operations N", comparison.Summary(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Real_runs_given_their_operations_are_judged_per_operation_and_runs_cut_by_the_duration_per_second()
    {
        using var directory = new TemporaryDirectory("asynccost-compare-twins-");
        // task-sync allocates a Task<decimal> per call; its ValueTask twin allocates nothing and runs faster.
        async Task<string> CollectAsync(string name, string scenario, string count, params string[] options)
        {
            var result = await ChildProcess.RunToolAsync(["collect", "--passes", "allocations", "--operations", count, .. options, "--format", "json", "--", "dotnet", Repository.WorkloadDll, scenario, count]);
            Assert.True(result.ExitCode == 0, result.ToString());
            var path = directory.File(name + ".json");
            await File.WriteAllTextAsync(path, result.StandardOutput);
            return path;
        }

        async Task<JsonNode> CompareAsync(string before, string after)
        {
            var result = await ChildProcess.RunToolAsync("compare", before, after, "--format", "json");
            Assert.True(result.ExitCode == 0, result.ToString());
            return JsonNode.Parse(result.StandardOutput)!;
        }

        // Whole runs of the same 300,000 calls, as collect --operations recorded: per operation, with a verdict.
        var costly = await CollectAsync("costly", "task-sync", "300000");
        Assert.Equal(300_000, (long)JsonNode.Parse(await File.ReadAllTextAsync(costly))!["passes"]![0]!["operations"]!);
        var whole = await CompareAsync(costly, await CollectAsync("fixed", "valuetask-sync", "300000"));
        Assert.Equal("perOperation", (string)whole["basis"]!);
        Assert.Matches(@"^fixed (runs [0-9.]+× (more|fewer) operations per second and )?allocates ≥?[0-9.,]+× fewer bytes in async methods per operation \(", (string)whole["summary"]!);

        // Cut by --duration, each run did as many calls as it could in its second, not the count it was given: unknown, so
        // per second, and no verdict.
        var cutCostly = await CollectAsync("costly-cut", "task-sync", "2000000000", "--duration", "00:00:01");
        Assert.Null(JsonNode.Parse(await File.ReadAllTextAsync(cutCostly))!["passes"]![0]!["operations"]);
        var cut = await CompareAsync(cutCostly, await CollectAsync("fixed-cut", "valuetask-sync", "2000000000", "--duration", "00:00:01"));
        Assert.Equal("perSecond", (string)cut["basis"]!);
        Assert.True((double)JsonFigure(cut, "asyncMethodBytes")["before"]!["value"]! > 0);
        Assert.StartsWith("No verdict on cost: costly-cut and fixed-cut recorded for a time, not a known number of operations", (string)cut["summary"]!, StringComparison.Ordinal);
    }

    [Fact]
    public void The_first_runs_findings_are_timed_in_both_runs_in_the_table_the_json_and_the_page()
    {
        // WebShop's loop (its cost in Stock.ReserveAsync) and its blocking wait; the Fixed twin's code has neither finding.
        var loop = new AnalyzerFinding("AC0001", "warning", "await in a loop", "/repo/samples/WebShop/Checkout.cs", 16, 13, "WebShop.Checkout.CheckoutAsync", FindingCostKind.Hops)
        {
            CostMethodKeys = ["WebShop.Stock.ReserveAsync"],
        };
        var blocking = new AnalyzerFinding("AC0006", "warning", "blocks on a task", "/repo/samples/WebShop/Checkout.cs", 20, 24, "WebShop.Checkout.CheckoutAsync", FindingCostKind.Blocking);
        // Each checkout awaits its reservations one after another (one run a checkout): 40 ms a checkout, 30 ms of it saved
        // if run together; the twin makes one call.
        static Figure Timed(double value) => new() { Value = value, ErrorBound = value * 0.05, Samples = 200, Sampled = true, Source = FigureSource.HopPass };
        AsyncCostReport Shop(long reserveCalls, double reserveMs, double blockedMs, long waits) => Run(Estimate(102_400, 5_120), 1_200, 6_000) with
        {
            Methods =
            [
                new MethodCost
                {
                    MethodKey = "WebShop.Checkout.CheckoutAsync", DisplayName = "WebShop.Checkout.CheckoutAsync", BlockingWaits = Figure.Exact(waits, FigureSource.HopPass),
                    BlockedMilliseconds = Figure.Exact(blockedMs, FigureSource.HopPass), LongestBlockedMilliseconds = waits > 0 ? 2 : null,
                    AwaitedCalls =
                    [
                        new AwaitedCall
                        {
                            MethodKey = "WebShop.Stock.ReserveAsync", DisplayName = "WebShop.Stock.ReserveAsync", Runs = Figure.Exact(200, FigureSource.HopPass),
                            CallsPerRun = reserveCalls / 200.0, Groups = Figure.Exact(0, FigureSource.HopPass), SequentialMilliseconds = Timed(reserveMs),
                            WaitedMilliseconds = Timed(reserveMs), SavingIfTogetherPerRunMilliseconds = Timed(reserveMs * 0.75 / 200),
                            SavingIfTogetherMilliseconds = Timed(reserveMs * 0.75),
                        },
                    ],
                },
                new MethodCost
                {
                    MethodKey = "WebShop.Stock.ReserveAsync", DisplayName = "WebShop.Stock.ReserveAsync", SuspendingCalls = Figure.Exact(reserveCalls, FigureSource.HopPass),
                    ElapsedMilliseconds = new Figure { Value = reserveMs, ErrorBound = reserveMs * 0.05, Samples = reserveCalls, Sampled = true, Source = FigureSource.HopPass },
                },
            ],
        };
        var costly = Shop(reserveCalls: 4_000, reserveMs: 8_000, blockedMs: 2_000, waits: 1_000);
        var fixedTwin = Shop(reserveCalls: 1_000, reserveMs: 2_000, blockedMs: 0, waits: 0);

        var comparison = Comparison.Create("WebShop.json", costly, "WebShop.Fixed.json", fixedTwin, Operations, findings: [blocking, loop]);

        // Per operation of the 200 given: 40 ms of stock round trips per checkout, 10 in the twin; 10 ms blocked, none.
        var table = Table(comparison);
        Assert.Contains("The first run's findings, their time per operation", table, StringComparison.Ordinal);
        Assert.Matches(@"1\s+AC0001\s+Checkout\.cs:16\s+elapsed: WebShop\.Stock\.ReserveAsync\s+~40\.0 ms ±5\.0%\s+~10\.0 ms ±5\.0%\s+reduced 0\.25×", table);
        Assert.Matches(@"2\s+AC0006\s+Checkout\.cs:20\s+blocked: WebShop\.Checkout\.CheckoutAsync\s+10\.0 ms\s+0 ms\s+gone", table);
        // The loop's predicted saving, 30 ms a checkout, against what the checkout waited on its reservations: 40 ms, then 10.
        Assert.Contains("The first run's predicted savings, measured per operation", table, StringComparison.Ordinal);
        Assert.True(System.Text.RegularExpressions.Regex.IsMatch(table, @"1\s+AC0001\s+Checkout\.cs:16\s+~30\.0 ms ±5\.0%\s+~30\.0 ms ±\d+\.\d%\s+yes"), table);
        var times = JsonNode.Parse(comparison.Json())!["findingTimes"]!.AsArray();
        Assert.Equal(["reduced", "gone"], times.Select(t => (string)t!["change"]!));
        Assert.Equal(0.25, (double)times[0]!["ratio"]!, 9);
        Assert.Equal(["WebShop.Stock.ReserveAsync"], times[0]!["costIn"]!.AsArray().Select(k => (string)k!));
        Assert.Equal(("calleeElapsed", "operation"), ((string)times[0]!["basis"]!, (string)times[0]!["per"]!));
        Assert.Equal((30.0, true), ((double)times[0]!["savingMeasured"]!["value"]!, (bool)times[0]!["savingWithinPrediction"]!));
        Assert.Null(times[1]!["savingPredicted"]);
        using (var page = new StringWriter())
        {
            HtmlReport.Write(comparison, page);
            Assert.Contains("<section id=\"finding-times\">", page.ToString(), StringComparison.Ordinal);
            Assert.Contains("reduced 0.25×", System.Net.WebUtility.HtmlDecode(page.ToString()), StringComparison.Ordinal);
        }

        using var narrow = new StringWriter();
        ConsoleTableWriter.Write(comparison.Document(), narrow, isTerminal: false, width: 80);
        Assert.All(narrow.ToString().Split('\n'), l => Assert.True(l.TrimEnd('\r').Length <= 80, $"{l.Length} > 80: {l}"));

        // The other way round the time increases; a time moves with the machine's load, so the gate never fails on it.
        var reversed = Comparison.Create("WebShop.Fixed.json", fixedTwin, "WebShop.json", costly, Operations, findings: [blocking, loop]);
        Assert.Equal([TimeChange.Increased, TimeChange.Increased], reversed.FindingTimes!.Changes.Select(c => c.Change));
        Assert.Empty(reversed.Regressions);
        // Without operations, per second of each run's hop pass.
        var perSecond = Comparison.Create("WebShop.json", costly, "WebShop.Fixed.json", fixedTwin, operations: null, findings: [blocking, loop]);
        Assert.Equal(8_000 / 3.0, perSecond.FindingTimes!.Changes[0].Before.Time.Milliseconds!.Value, 9);
        Assert.Contains("The first run's findings, their time per second of recording", Table(perSecond), StringComparison.Ordinal);
    }

    private static JsonNode JsonFigure(JsonNode comparison, string key) =>
        comparison["figures"]!.AsArray().Single(f => (string)f!["figure"]! == key)!;

    private static AsyncCostReport Run(Figure? asyncBytes, long hops, long voluntarySwitches) => new()
    {
        Source = new ReportSource { Kind = SourceKind.Launch },
        Duration = TimeSpan.FromSeconds(5),
        Passes =
        [
            new PassSummary { Pass = MeasurementPasses.Allocations, AllocationEvent = "AllocationSampled", Duration = TimeSpan.FromSeconds(2) },
            new PassSummary { Pass = MeasurementPasses.Hops, Duration = TimeSpan.FromSeconds(3) },
        ],
        Methods = asyncBytes is null ? [] : [new MethodCost { MethodKey = "App.Pipeline.RunAsync", DisplayName = "App.Pipeline.RunAsync", Bytes = asyncBytes }],
        Totals = new ProcessTotals
        {
            Hops = Figure.Exact(hops, FigureSource.HopPass),
            VoluntaryContextSwitches = voluntarySwitches,
            InvoluntaryContextSwitches = 10,
        },
    };

    /// <summary>The report with each pass's operations and the seconds the command said they took, in pass order.</summary>
    private static AsyncCostReport Counted(AsyncCostReport report, params (long Operations, double Seconds)[] counts) => report with
    {
        RowBasis = RowBasis.Run,
        Passes = [.. report.Passes.Zip(counts, (pass, count) => new PassSummary
        {
            Pass = pass.Pass, AllocationEvent = pass.AllocationEvent, Duration = pass.Duration, Operations = count.Operations, OperationSeconds = count.Seconds,
        })],
    };

    private static Figure Estimate(double value, double bound, FigureSource source = FigureSource.AllocationPass) =>
        new() { Value = value, ErrorBound = bound, Samples = 4, Sampled = true, Source = source };

    private static ComparedFigure Compared(Comparison comparison, string key) => comparison.Figures.Single(f => f.Key == key);

    private static JsonNode JsonFigure(Comparison comparison, string key) =>
        JsonNode.Parse(comparison.Json())!["figures"]!.AsArray().Single(f => (string)f!["figure"]! == key)!;

    private static string Table(Comparison comparison)
    {
        using var writer = new StringWriter();
        ConsoleTableWriter.Write(comparison.Document(), writer, isTerminal: false);
        return writer.ToString();
    }

    private static string Markdown(Comparison comparison)
    {
        using var writer = new StringWriter();
        MarkdownWriter.Write(comparison.Document(), writer);
        return writer.ToString();
    }

    private static string[] Csv(Comparison comparison)
    {
        using var writer = new StringWriter();
        CsvWriter.Write(comparison.Raw(), writer);
        return writer.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries);
    }
}
