using System.Globalization;
using System.Text;
using AsyncCost.Benchmarks.Infrastructure;

namespace AsyncCost.Benchmarks.Report;

/// <summary>Seed 004: TaskCompletionSource-based async vs ManualResetEvent/AutoResetEvent threads.</summary>
public sealed partial class ResultsDocument
{
    private const string MatrixType = "HandOffMatrixBenchmarks";
    private const string HeatMapFile = "004-hand-off-matrix.svg";

    private (List<int> Readers, List<int> Writers) MatrixAxes()
    {
        var cases = main.Cases.Where(c => c.Type == MatrixType).ToList();
        List<int> Axis(string name) => cases.Select(c => int.Parse(c.Parameters.GetValueOrDefault(name, "0"), CultureInfo.InvariantCulture)).Distinct().Order().ToList();
        return (Axis("Readers"), Axis("Writers"));
    }

    /// <summary>The original's figure for one cell: async throughput ÷ blocking throughput × 100 = 100 × blocking time ÷ async time.</summary>
    private double? MatrixCell(int readers, int writers)
    {
        var blocking = main.Find(MatrixType, "BlockingThreads", null, $"Readers={readers}", $"Writers={writers}");
        var async = main.Find(MatrixType, "AsyncTaskCompletionSource", null, $"Readers={readers}", $"Writers={writers}");
        return blocking is not null && async is not null ? 100 * blocking.MeanNanoseconds / async.MeanNanoseconds : null;
    }

    private void HandOffSection(StringBuilder text, IReadOnlyList<Chart> charts, string chartsFolder)
    {
        text.AppendLine("## 004 — Async (TaskCompletionSource) vs blocking threads (ManualResetEvent/AutoResetEvent)");
        text.AppendLine();
        text.AppendLine("Suite: `HandOff/HandOffMatrixBenchmarks`: R readers woken by W writers, 16,384 signals per invocation, round-robin over the");
        text.AppendLine("readers; classic = a thread per reader and writer, readers block on an AutoResetEvent; async = readers are async methods");
        text.AppendLine("awaiting a TaskCompletionSource that thread-pool writers complete (the continuation runs inline on the writer's thread).");
        text.AppendLine("Each cell is the original's figure, async throughput ÷ blocking throughput × 100 (200 = async twice as fast).");
        text.AppendLine();
        text.AppendLine("**The published matrix is a picture only** (`percent.png`, not in the seed's text), so its cells cannot be compared one by one;");
        text.AppendLine("the text gives its reading (green = async faster) and one cell, the 1 reader / 1 writer loop, below. The original's reader and");
        text.AppendLine("writer counts are not stated; here they are scaled to 2 cores: up to 256 reader threads per invocation (thread start-up is");
        text.AppendLine("part of the classic approach's cost) and 8 writers.");
        text.AppendLine();
        ChartLink(text, charts, chartsFolder, HeatMapFile);
        var (readers, writers) = MatrixAxes();
        if (readers.Count > 0)
        {
            text.AppendLine("| readers \\ writers | " + string.Join(" | ", writers) + " |");
            text.AppendLine("| ---: |" + string.Concat(writers.Select(_ => " ---: |")));
            foreach (var r in readers)
                text.Line($"| {r} | {string.Join(" | ", writers.Select(w => MatrixCell(r, w) is { } cell ? Math.Round(cell).ToString(CultureInfo.InvariantCulture) : "n/a"))} |");
            text.AppendLine();
        }

        var oneOne = MatrixCell(1, 1);
        var publishedOneOne = 100 * Published.HandOff.AsyncLoopIterations / Published.HandOff.BlockingLoopIterations;
        text.AppendLine("| figure | published | here | here ÷ published | within 2× | why they differ |");
        text.AppendLine("| --- | ---: | ---: | ---: | :---: | --- |");
        text.Line($"| 1 reader / 1 writer, async ÷ blocking × 100 (published 141 M vs 355 M iterations) | {Compare("004", "1 reader / 1 writer, async ÷ blocking × 100", publishedOneOne, oneOne, "")} | With one waiter, a blocked reader that finds signals already pending never waits, and the blocking side's hand-off is a futex wake without a thread-pool hop; the async side completes a TaskCompletionSource and allocates a new one per wait. Windows events (kernel objects) vs Linux futexes and .NET Framework vs .NET 10 move the balance. |");

        var blocked = main.Find("WaiterMemoryBenchmarks", "BlockedThreads", null, "Waiters=131072");
        var pending = main.Find("WaiterMemoryBenchmarks", "PendingAwaits", null, "Waiters=131072");
        var threadRss = blocked?.Metric(ReportedMetrics.RssBytesPerWaiter);
        var awaitRss = pending?.Metric(ReportedMetrics.RssBytesPerWaiter);
        var awaitManaged = pending?.AllocatedBytesPerOperation / Published.HandOff.Waiters;
        var publishedThread = Published.HandOff.ThreadsBytes / Published.HandOff.Waiters;
        var publishedAwait = Published.HandOff.AwaitsBytes / Published.HandOff.Waiters;
        var threads = blocked?.Metric(ReportedMetrics.Waiters);
        var (headroom, limit) = ProcessMemory.ThreadHeadroom();
        text.Line($"| memory per blocked thread, B (4 GB / 2^17) | {Compare("004", "memory per blocked thread, B", publishedThread, threadRss, "B")} | RSS growth per thread with {Format.Number(threads)} threads blocked (2^17 requested, capped by the machine). Linux counts only the touched pages of the 8 MB stack reservation plus the runtime's per-thread data; the kernel stack is not in RSS; Windows commits more per thread (TEB, guard pages, a 1 MB reservation). |");
        text.Line($"| memory per pending await, B (750 MB / 2^17) | {Compare("004", "memory per pending await, B", publishedAwait, awaitRss, "B")} | RSS growth per pending await, 2^17 of them. The published 5.9 KB is far more than a pending await holds: managed bytes here are {Format.Number(awaitManaged)} B per await (state-machine box, TaskCompletionSource, its Task, two array slots); the original's figure is a process working set, which counts whatever else that program kept. |");
        text.Line($"| threads ÷ awaits memory | {Compare("004", "memory ratio threads ÷ awaits", publishedThread / publishedAwait, threadRss / awaitRss, "×")} | Both sides as above. |");
        text.Line($"| thread limit | {Published.HandOff.LinuxThreadLimit:N0} (\"failed at 16k threads\" on Linux) | {Format.Number(threads)} threads run here | n/a | n/a | The limit here is {limit}: each .NET thread takes 4 memory mappings, so a process stops near 65,530 / 4 ≈ 16k threads — most likely the \"configured system limit\" the original hit. Headroom when the report ran: {headroom:N0} threads. |");
        text.AppendLine();
        text.Line($"Time to create and release one waiter here: blocked thread {Format.Number(blocked?.MeanMicroseconds / threads)} µs, pending await {Format.Number(pending?.MeanMicroseconds / Published.HandOff.Waiters)} µs.");
        text.AppendLine();
    }

    private Chart? HandOffHeatMap()
    {
        var (readers, writers) = MatrixAxes();
        if (readers.Count == 0 || writers.Count == 0)
            return null;
        var values = new double?[readers.Count, writers.Count];
        for (var r = 0; r < readers.Count; r++)
        {
            for (var w = 0; w < writers.Count; w++)
                values[r, w] = MatrixCell(readers[r], writers[w]);
        }
        const string title = "Seed 004: async ÷ blocking throughput × 100";
        return new Chart(HeatMapFile, title, SvgCharts.HeatMap(title,
            "reading threads / awaiting readers", readers.Select(r => r.ToString(CultureInfo.InvariantCulture)).ToList(),
            "writing threads", writers.Select(w => w.ToString(CultureInfo.InvariantCulture)).ToList(),
            values, neutral: 100));
    }
}
