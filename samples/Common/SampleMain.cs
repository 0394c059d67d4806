using System.Globalization;

namespace AsyncCost.Samples;

/// <summary>What one run did: how many operations, and a result that depends only on that number.</summary>
internal sealed record SampleResult(long Operations, string Result);

/// <summary>The entry every sample shares: parse the budget, run, print throughput and the result line.</summary>
internal static class SampleMain
{
    public static async Task<int> RunAsync(
        string sampleName, string operationName, SampleDefaults defaults, string[] args, Func<SampleOptions, Task<SampleResult>> run)
    {
        if (args is ["--help"] or ["-h"])
        {
            PrintUsage(Console.Out, sampleName, defaults);
            return 0;
        }

        if (!SampleOptions.TryParse(args, defaults, out SampleOptions options, out string? error))
        {
            Console.Error.WriteLine($"{sampleName}: {error}");
            PrintUsage(Console.Error, sampleName, defaults);
            return 2;
        }

        RunBudget budget = options.Budget;

        long allocatedBefore = GC.GetTotalAllocatedBytes(precise: true);
        budget.Start();
        SampleResult result = await run(options);
        double seconds = budget.Elapsed.TotalSeconds;
        long allocated = GC.GetTotalAllocatedBytes(precise: true) - allocatedBefore;

        // The first line varies from run to run; the second is the same for a sample and its twin given --operations.
        // Allocations are the whole process's (runtime and timers included), divided by the operations.
        Console.WriteLine(string.Create(
            CultureInfo.InvariantCulture,
            $"{sampleName}: {result.Operations} {operationName} in {seconds:F2} s, throughput {result.Operations / seconds:F0} ops/s, allocated {(double)allocated / result.Operations:F0} B/op"));
        Console.WriteLine($"result: {result.Result}");
        // For `dotnet-asynccost collect`: the work this run did and the seconds it took, so that `compare` judges a run
        // bounded by --duration per operation, and its throughput (docs/cli.md, "How a run tells its operations").
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"asynccost: {result.Operations} operations in {seconds:F3} s"));
        return 0;
    }

    private static void PrintUsage(TextWriter writer, string sampleName, SampleDefaults defaults) =>
        writer.WriteLine(string.Create(
            CultureInfo.InvariantCulture,
            $"usage: {sampleName} {SampleOptions.Usage}\ndefaults: --operations {defaults.Operations} --round-trip {defaults.RoundTrip.TotalMilliseconds}ms"));
}
