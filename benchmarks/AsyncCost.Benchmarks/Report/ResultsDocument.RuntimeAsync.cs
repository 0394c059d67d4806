using System.Text;

namespace AsyncCost.Benchmarks.Report;

/// <summary>.NET 10's experimental runtime-handled async, beside the same suites compiled with state machines.</summary>
public sealed partial class ResultsDocument
{
    private void RuntimeAsyncSection(StringBuilder text)
    {
        text.AppendLine("## New since the seeds: .NET 10 runtime-handled async (experimental)");
        text.AppendLine();
        text.AppendLine("Project `benchmarks/AsyncCost.Benchmarks.RuntimeAsync` compiles the same `AsyncMethods/*.cs` files with `<Features>runtime-async=on</Features>`,");
        text.AppendLine("the preview language and preview features, and runs them with `DOTNET_RuntimeAsync=1` (without it the runtime refuses the");
        text.AppendLine("assembly: `TypeLoadException … the format is invalid`). It is an unsupported experiment in .NET 10.");
        text.AppendLine();
        if (runtimeAsync.Cases.Count == 0)
        {
            text.AppendLine(runtimeAsyncBuildNote is { Length: > 0 }
                ? $"Not measured: the project did not build or run with this SDK:\n\n```\n{runtimeAsyncBuildNote}\n```"
                : "Not in this run: no exports under `results/runtime-async/`.");
            text.AppendLine();
            return;
        }
        text.AppendLine("| suite | method | state machines: Mean µs | runtime async: Mean µs | runtime ÷ state machines | state machines: Allocated B | runtime async: Allocated B |");
        text.AppendLine("| --- | --- | ---: | ---: | ---: | ---: | ---: |");
        foreach (var regular in main.Cases.Where(c => c.Type is "StockPricesBenchmarks" or "CachedTaskBenchmarks"))
        {
            var experiment = runtimeAsync.Find(regular.Type, regular.Method);
            text.Line($"| {regular.Type} | {regular.Method} | {Format.Number(regular.MeanMicroseconds)} | {Format.Number(experiment?.MeanMicroseconds)} | {Format.Ratio(experiment?.MeanMicroseconds, regular.MeanMicroseconds)} | {Format.Number(regular.AllocatedBytesPerOperation)} | {Format.Number(experiment?.AllocatedBytesPerOperation)} |");
        }
        text.AppendLine();
        text.AppendLine("Methods with a custom builder (`PoolingAsyncValueTaskMethodBuilder`) stay compiler state machines under runtime async; the");
        text.AppendLine("runtime's suspensions allocate `Continuation` objects instead of state-machine boxes.");
        text.AppendLine();
    }
}
