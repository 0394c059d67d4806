using System.Text;

namespace AsyncCost.Benchmarks.Report;

/// <summary>Seed 002: first call and steady-state overhead of async/await around 1 ms of work.</summary>
public sealed partial class ResultsDocument
{
    private void FirstCallSection(StringBuilder text)
    {
        text.AppendLine("## 002 — The overhead of async/await (first call, and 1,000 calls of 1 ms)");
        text.AppendLine();
        text.AppendLine("Suites: `FirstCall/FirstCallBenchmarks` (job `FirstCall`: BenchmarkDotNet's cold-start strategy, one call in each of 5 fresh");
        text.AppendLine("processes; job `SteadyState`: the same calls warm) and `FirstCall/TaskRunOverheadBenchmarks` (1,000 calls per invocation, after");
        text.AppendLine("a warm-up, as the original's loop). The work is a 1 ms spin. The original's figures came from ANTS Performance Profiler 8 in");
        text.AppendLine("a WPF app on .NET 4.5: an instrumenting profiler, which charges every framework method it enters (\"over 900\" on the first call).");
        text.AppendLine();

        var syncCold = main.Find("FirstCallBenchmarks", "SyncCall", "FirstCall");
        var asyncCold = main.Find("FirstCallBenchmarks", "AsyncTaskRunCall", "FirstCall");
        var syncWarm = main.Find("FirstCallBenchmarks", "SyncCall", "SteadyState");
        var asyncWarm = main.Find("FirstCallBenchmarks", "AsyncTaskRunCall", "SteadyState");
        var syncLoop = main.Find("TaskRunOverheadBenchmarks", "SyncCalls");
        var asyncLoop = main.Find("TaskRunOverheadBenchmarks", "TaskRunAwaitCalls");
        double? overheadPercent = syncLoop is not null && asyncLoop is not null ? (asyncLoop.MeanNanoseconds / syncLoop.MeanNanoseconds - 1) * 100 : null;
        double? overheadMs = syncLoop is not null && asyncLoop is not null ? (asyncLoop.MeanNanoseconds - syncLoop.MeanNanoseconds) * 1000 / 1e6 : null;

        text.AppendLine("| figure | published | here | here ÷ published | within 2× | why they differ |");
        text.AppendLine("| --- | ---: | ---: | ---: | :---: | --- |");
        var spin = syncLoop?.MeanMilliseconds;
        var loaded = spin > 1.2
            ? $" In this run a 1 ms spin took {Format.Number(spin)} ms on average: other jobs preempt the spinning thread, and a wall-clock deadline then ends late, which inflates every row of this table alike."
            : "";
        text.Line($"| first sync call, ms | {Compare("002", "first sync call, ms", Published.FirstCall.SyncFirstCallMilliseconds, syncCold?.MeanMilliseconds, "ms")} | The work is 1 ms in both; what is left is JIT of one small method.{loaded} |");
        text.Line($"| first async call (Task.Run + await) to completion, ms | {Compare("002", "first async call, ms", Published.FirstCall.AsyncFirstCallMilliseconds, asyncCold?.MeanMilliseconds, "ms")} | The published 70 ms is mostly the profiler's instrumentation of ~900 framework methods on first use (and .NET 4.5's JIT of them); .NET 10's framework is precompiled (ReadyToRun) and tiered, so the first Task.Run costs the thread pool's start-up and a little JIT. |");
        text.Line($"| first async call, time to reach the await, ms | {Format.Number(Published.FirstCall.AsyncFirstCallToAwaitMilliseconds)} | n/a | n/a | n/a | Not separable in a BenchmarkDotNet cold start, which times the whole call; the whole call here is far below it. |");
        text.Line($"| warm: async call ÷ sync call | n/a | {Format.Number(asyncWarm is not null && syncWarm is not null ? asyncWarm.MeanNanoseconds / syncWarm.MeanNanoseconds : null)} | n/a | n/a | Not published per call; shown so the cold and warm figures sit side by side (cold ÷ warm: sync {Format.Number(syncCold is not null && syncWarm is not null ? syncCold.MeanNanoseconds / syncWarm.MeanNanoseconds : null)}, async {Format.Number(asyncCold is not null && asyncWarm is not null ? asyncCold.MeanNanoseconds / asyncWarm.MeanNanoseconds : null)}). |");
        text.Line($"| 1,000 sync calls, ms | {Compare("002", "1,000 sync calls, ms", Published.FirstCall.SyncThousandCallsMilliseconds, syncLoop is null ? null : syncLoop.MeanMilliseconds * 1000, "ms")} | 1,000 × 1 ms of work in both.{loaded} |");
        text.Line($"| overhead of 1,000 awaited Task.Run calls, ms | {Compare("002", "overhead of 1,000 Task.Run + await calls, ms", Published.FirstCall.AsyncThousandCallsOverheadMilliseconds, overheadMs, "ms")} | A hop to the pool and back costs microseconds uninstrumented; the published 150 µs per call is the profiler's instrumentation of the Task and state-machine methods on every call. On a busy 2-core VM the difference is within noise and can come out negative. |");
        text.Line($"| overhead of 1,000 awaited Task.Run calls, % | {Compare("002", "overhead of Task.Run + await around 1 ms, %", Published.FirstCall.AsyncThousandCallsOverheadPercent, overheadPercent, "%")} | As above: ~15 % under an instrumenting profiler, about {Format.Number(overheadPercent)} % without one. Work items per call here: {Format.Number(asyncLoop?.Metric("WorkItems"))} (one hop each), allocated per call: {Format.Number(asyncLoop?.AllocatedBytesPerOperation)} B. |");
        text.AppendLine();
    }
}
