using System.Globalization;

namespace AsyncCost.Samples.Tests;

/// <summary>
/// A real BenchmarkDotNet run (benchmarks/AsyncCost.Benchmarks, its FullRun job: a fixed IterationCount, so the hop pass
/// has its operations; MemoryDiagnoser, so the allocation pass has its iteration) of the StockPrices pair with
/// [AsyncCostDiagnoser]: a Task&lt;decimal&gt; completing synchronously (its Task per call) and its ValueTask twin (nothing).
/// Asserted from the exported files, on exact counts and bounds, never on a timing.
/// </summary>
[Collection(BenchmarkRunDefinition.Name)]
public sealed class BenchmarkDiagnoserTests : IDisposable
{
    private const string TaskBenchmark = "GetStockPriceForAsync";
    private const string ValueTaskBenchmark = "GetStockPriceWithValueTaskAsync";
    private readonly DirectoryInfo _artifacts = Directory.CreateTempSubdirectory("asynccost-bdn-");

    [Fact]
    public async Task The_diagnoser_columns_agree_with_MemoryDiagnoser_on_the_StockPrices_pair()
    {
        var run = await DotnetCommand.RunAsync(
            [
                Repository.BenchmarksDll,
                "--filter", "*StockPricesBenchmarks." + TaskBenchmark, "*StockPricesBenchmarks." + ValueTaskBenchmark,
                "--artifacts", _artifacts.FullName,
            ],
            TimeSpan.FromMinutes(8));
        Assert.True(run.ExitCode == 0, run.ToString());
        var results = Path.Combine(_artifacts.FullName, "results");

        var markdownHeader = File.ReadLines(Single(results, "*StockPricesBenchmarks-report-github.md")).First(line => line.StartsWith("| Method", StringComparison.Ordinal));
        var table = Csv(Single(results, "*StockPricesBenchmarks-report.csv"));
        foreach (var column in new[] { "Allocated", "Async B/op", "Async B/op ±", "State machines/op", "State machines/op ±", "Hops/op", "Blocking waits/op" })
        {
            Assert.Contains(column, table[0]);
            Assert.Contains($" {column} |", markdownHeader, StringComparison.Ordinal);
        }
        var taskRow = Row(table, TaskBenchmark);
        var valueTaskRow = Row(table, ValueTaskBenchmark);

        // The GC counted no byte in the ValueTask twin's iteration, so the diagnoser says exactly 0, as Allocated does.
        Assert.Equal("0 B", valueTaskRow["Allocated"]);
        Assert.Equal(0, Number(valueTaskRow["Async B/op"]));
        Assert.Equal(0, Number(valueTaskRow["Async B/op ±"]));
        Assert.Equal(0, Number(valueTaskRow["State machines/op"]));

        // The Task<decimal> row: the sampled estimate against MemoryDiagnoser's exact bytes of the same iteration. The bound is
        // 95 % (1.96 σ); twice it (~3.9 σ) fails a correct diagnoser about once in 10,000 runs; 0.5 B for the columns' rounding.
        var allocated = Bytes(taskRow["Allocated"]);
        var asyncBytes = Number(taskRow["Async B/op"]);
        var bound = Number(taskRow["Async B/op ±"]);
        Assert.True(allocated > 0, $"Allocated: {taskRow["Allocated"]}");
        Assert.True(bound > 0 && bound <= allocated / 2, $"Async B/op ± {bound} against Allocated {allocated} B: a bound that wide proves nothing");
        Assert.True(Math.Abs(asyncBytes - allocated) <= (2 * bound) + 0.5, $"Async B/op {asyncBytes} ± {bound} against Allocated {allocated} B");

        // Both complete synchronously: the hop pass ran (a fixed IterationCount) and counted no hop, no blocking wait.
        foreach (var row in new[] { taskRow, valueTaskRow })
        {
            Assert.Equal(0, Number(row["Hops/op"]));
            Assert.Equal(0, Number(row["Blocking waits/op"]));
        }

        // The per-method breakdown names the async method that owns the Task's bytes, and none for the twin.
        var methods = Csv(Single(results, "*-asynccost.csv"));
        Assert.Equal(["Benchmark", "MethodKey", "BytesPerOp", "BytesPerOpBound", "StateMachinesPerOp", "StateMachinesPerOpBound", "HopsPerOp", "BlockingWaitsPerOp"], methods[0]);
        // Other async methods the benchmark ran that never suspended have rows too, with no bytes (an empty cell: no figure).
        static bool HasBytes(string[] row) => row[2].Length > 0 && Number(row[2]) != 0;
        var owner = Assert.Single(methods.Skip(1), m => m[0].StartsWith($"StockPricesBenchmarks.{TaskBenchmark}:", StringComparison.Ordinal) && HasBytes(m));
        Assert.Equal("AsyncCost.Benchmarks.AsyncMethods.StockPrices.GetStockPriceForAsync", owner[1]);
        Assert.InRange(Number(owner[2]), asyncBytes - 0.05, asyncBytes + 0.05);
        Assert.DoesNotContain(methods.Skip(1), m => m[0].StartsWith($"StockPricesBenchmarks.{ValueTaskBenchmark}:", StringComparison.Ordinal) && HasBytes(m));
    }

    [Fact]
    public async Task A_Task_of_int_is_charged_to_its_method_its_ValueTask_twin_reads_an_exact_zero_and_a_yield_one_box_and_hop()
    {
        var run = await DotnetCommand.RunAsync([Repository.BenchmarksDll, "--filter", "*DiagnoserShapesBenchmarks*", "--artifacts", _artifacts.FullName], TimeSpan.FromMinutes(8));
        Assert.True(run.ExitCode == 0, run.ToString());
        var results = Path.Combine(_artifacts.FullName, "results");
        var table = Csv(Single(results, "*DiagnoserShapesBenchmarks-report.csv"));
        var markdown = File.ReadLines(Single(results, "*DiagnoserShapesBenchmarks-report-github.md")).ToList();

        // Task<int> names no method: its bytes reach Async B/op only by the allocation samples' stacks. Twice the 95 % bound, as above.
        var taskOfInt = Row(table, "TaskOfInt");
        var (allocated, asyncBytes, bound) = (Bytes(taskOfInt["Allocated"]), Number(taskOfInt["Async B/op"]), Number(taskOfInt["Async B/op ±"]));
        Assert.True(bound > 0 && Math.Abs(asyncBytes - allocated) <= (2 * bound) + 0.5, $"Async B/op {asyncBytes} ± {bound} against Allocated {allocated} B");

        // The twin allocates nothing, which the GC counted exactly: "-" in the table, as Allocated; its bound too.
        var twin = Assert.Single(markdown, line => line.StartsWith("| ValueTaskOfInt ", StringComparison.Ordinal)).Split('|').Select(cell => cell.Trim()).ToList();
        var header = Assert.Single(markdown, line => line.StartsWith("| Method ", StringComparison.Ordinal)).Split('|').Select(cell => cell.Trim()).ToList();
        Assert.Equal("-", twin[header.IndexOf("Async B/op")]);
        Assert.Equal("-", twin[header.IndexOf("Async B/op ±")]);
        Assert.Equal("-", twin[header.IndexOf("Allocated")]);

        var yield = Row(table, "TaskYield");
        Assert.Equal(1, Number(yield["Hops/op"]));
        Assert.True(Math.Abs(Number(yield["Async B/op"]) - Bytes(yield["Allocated"])) <= (2 * Number(yield["Async B/op ±"])) + 0.5, $"Async B/op {yield["Async B/op"]} ± {yield["Async B/op ±"]} against Allocated {yield["Allocated"]}");
    }

    [Fact]
    public async Task On_a_job_that_does_not_fix_its_iterations_the_bytes_come_from_the_benchmarks_own_run_without_an_extra_run()
    {
        var run = await DotnetCommand.RunAsync([Repository.BenchmarksDll, "--filter", "*DiagnoserWithoutHopsBenchmarks*", "--artifacts", _artifacts.FullName], TimeSpan.FromMinutes(8));
        Assert.True(run.ExitCode == 0, run.ToString());

        // BenchmarkDotNet announces each extra run a diagnoser asks for: none here.
        Assert.DoesNotContain("// Run, Diagnostic", run.StandardOutput, StringComparison.Ordinal);
        var results = Path.Combine(_artifacts.FullName, "results");
        var taskOfInt = Row(Csv(Single(results, "*DiagnoserWithoutHopsBenchmarks-report.csv")), "TaskOfInt");
        var (allocated, asyncBytes, bound) = (Bytes(taskOfInt["Allocated"]), Number(taskOfInt["Async B/op"]), Number(taskOfInt["Async B/op ±"]));
        Assert.True(bound > 0 && Math.Abs(asyncBytes - allocated) <= (2 * bound) + 0.5, $"Async B/op {asyncBytes} ± {bound} against Allocated {allocated} B");
        // No actual iteration was traced: no hop figure, said as such.
        Assert.Equal("NA", taskOfInt["Hops/op"]);
        Assert.Contains("AsyncCost: no hop figures for TaskOfInt", run.StandardOutput, StringComparison.Ordinal);
    }

    public void Dispose() => _artifacts.Delete(recursive: true);

    private static string Single(string directory, string pattern) => Assert.Single(Directory.GetFiles(directory, pattern));

    private static Dictionary<string, string> Row(List<string[]> table, string method) =>
        table[0].Zip(Assert.Single(table.Skip(1), row => row[0] == method)).ToDictionary(cell => cell.First, cell => cell.Second);

    private static double Number(string cell) => double.Parse(cell, NumberStyles.Float, CultureInfo.InvariantCulture);

    /// <summary>BenchmarkDotNet's Allocated cell, e.g. "80 B" (small enough here never to be shown in KB).</summary>
    private static double Bytes(string cell)
    {
        Assert.EndsWith(" B", cell, StringComparison.Ordinal);
        return Number(cell[..^2]);
    }

    /// <summary>The rows of a CSV file written by BenchmarkDotNet or the diagnoser: comma-separated, quoted cells may hold commas and doubled quotes.</summary>
    private static List<string[]> Csv(string path) => [.. File.ReadLines(path).Where(line => line.Length > 0).Select(Cells)];

    private static string[] Cells(string line)
    {
        var cells = new List<string>();
        var cell = new System.Text.StringBuilder();
        var quoted = false;
        for (var i = 0; i < line.Length; i++)
        {
            var c = line[i];
            if (quoted && c == '"' && i + 1 < line.Length && line[i + 1] == '"')
            {
                cell.Append('"');
                i++;
            }
            else if (c == '"')
            {
                quoted = !quoted;
            }
            else if (c == ',' && !quoted)
            {
                cells.Add(cell.ToString());
                cell.Clear();
            }
            else
            {
                cell.Append(c);
            }
        }
        cells.Add(cell.ToString());
        return [.. cells];
    }
}

/// <summary>Runs alone: the benchmark's child processes would otherwise compete with the samples' timed runs.</summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class BenchmarkRunDefinition
{
    public const string Name = "benchmark run";
}
