using System.Text;
using AsyncCost.Benchmarks.Infrastructure;
using AsyncCost.Benchmarks.WarmupTax;

namespace AsyncCost.Benchmarks.Report;

/// <summary>Seed 001: the hidden warm-up tax of a context switch.</summary>
public sealed partial class ResultsDocument
{
    private const string WarmupTaxType = "SwitchWarmupTaxBenchmarks";
    private const string WarmupTaxChartFile = "001-switch-warmup-tax.svg";
    private static readonly int[] WorkingSets = [16 * 1024, 2 * 1024 * 1024, 64 * 1024 * 1024];

    private void WarmupTaxSection(StringBuilder text)
    {
        text.AppendLine("## 001 — The warm-up tax of a context switch");
        text.AppendLine();
        text.Line($"Suite: `WarmupTax/SwitchWarmupTaxBenchmarks`: one thread pinned to CPU 0 walking the working set ({SwitchWarmupTaxBenchmarks.LoadsPerThread:N0} loads,");
        text.Line($"one per 64-byte line) vs two threads pinned to CPU 0 each doing the same and calling `sched_yield` every {SwitchWarmupTaxBenchmarks.YieldEvery} loads, as the");
        text.AppendLine("original's Python script (`taskset -c 0`). The original's sample is CPython on an Ice Lake c6i.4xlarge; here it is compiled C#.");
        text.AppendLine();

        var noSwitch = main.Find(WarmupTaxType, "OneThreadNoSwitches", null, "WorkingSetBytes=2097152");
        var switching = main.Find(WarmupTaxType, "TwoPinnedThreadsYielding", null, "WorkingSetBytes=2097152");
        var ratio = noSwitch is not null && switching is not null ? switching.MeanNanoseconds / noSwitch.MeanNanoseconds : (double?)null;
        var switches = switching is null ? null : switching.Metric(ReportedMetrics.VoluntarySwitches) + switching.Metric(ReportedMetrics.InvoluntarySwitches);
        var baselineSwitches = noSwitch is null ? null : noSwitch.Metric(ReportedMetrics.VoluntarySwitches) + noSwitch.Metric(ReportedMetrics.InvoluntarySwitches);
        var counters = PerfCounters.TryOpen(out var countersReason);
        counters?.Dispose();
        var cyclesHere = switching?.Metric(ReportedMetrics.Cycles);

        text.AppendLine("| 2 MB working set | published | here | here ÷ published | within 2× | why they differ |");
        text.AppendLine("| --- | ---: | ---: | ---: | :---: | --- |");
        text.Line($"| no switches, 1 thread, wall ms | {Compare("001", "2 MB, no switches, wall ms", Published.WarmupTax.NoSwitchMilliseconds, noSwitch?.MeanMilliseconds, "ms")} | CPython executes ~{Format.Number((double)Published.WarmupTax.NoSwitchInstructions / SwitchWarmupTaxBenchmarks.LoadsPerThread)} instructions per load (12.8 G / 4 M); the JIT-compiled loop a handful, so the walk itself is hundreds of times faster here. |");
        text.Line($"| yield/100 loads, 2 threads, wall ms | {Compare("001", "2 MB, 2 threads yielding, wall ms", Published.WarmupTax.SwitchingMilliseconds, switching?.MeanMilliseconds, "ms")} | Same interpreter gap, but the switches themselves (a syscall and a reschedule each, µs not ns) cost about what they cost there, so they dominate here. |");
        text.Line($"| switching ÷ no-switch wall time | {Compare("001", "2 MB, switching ÷ no-switch wall time", Published.WarmupTax.WallTimeRatio, ratio, "×")} | The ratio compares 2 threads' work with 1 thread's: 2× of it is work, the rest is switching. In Python 80,000 switches are small next to 4 M interpreted loads; here each switch outweighs the ~{SwitchWarmupTaxBenchmarks.YieldEvery} ns of loads between two yields, so the ratio measures the switch, not a cache warm-up. |");
        text.Line($"| context switches per switching run | {Compare("001", "2 MB, context switches per switching run", Published.WarmupTax.SwitchingContextSwitches, switches, "")} | One per `sched_yield` with the sibling runnable on the same CPU: 2 × 4,000,000 / 100 = 80,000 in both. Linux counts a yield as an *involuntary* switch (voluntary {Format.Number(switching?.Metric(ReportedMetrics.VoluntarySwitches))}, involuntary {Format.Number(switching?.Metric(ReportedMetrics.InvoluntarySwitches))} per run here). |");
        text.Line($"| context switches, no-switch run | {Format.Number(Published.WarmupTax.NoSwitchContextSwitches)} | {Format.Number(baselineSwitches)} | n/a | n/a | Timer-tick preemptions only (the published count is the whole process's, including interpreter start-up). |");
        text.Line($"| IPC no-switch / switching | {Format.Number(Published.WarmupTax.NoSwitchIpc)} / {Format.Number(Published.WarmupTax.SwitchingIpc)} | {(cyclesHere is null ? countersReason : $"{Format.Number(noSwitch?.Metric(ReportedMetrics.Instructions) / noSwitch?.Metric(ReportedMetrics.Cycles))} / {Format.Number(switching?.Metric(ReportedMetrics.Instructions) / cyclesHere)}")} | n/a | n/a | Cycles and instructions come from `perf_event_open` (user mode) where the kernel allows it; no number is made up where it does not. |");
        text.AppendLine();

        text.AppendLine("**Arithmetic of the original.** Its ratios check out (5,394.2 / 1,820.5 = 2.96; IPC 12.80 G / 5.82 G = 2.20 and 25.61 G / 17.26 G = 1.48;");
        text.AppendLine("miss ratios 34×, 81×, 87×). Its conclusion does not: it calls the no-switch run's own cycle count (5,824,160,310) \"the cycles of warmup");
        text.Line($"tax\" and \"{Format.Percent(Published.WarmupTax.ClaimedWarmupTaxShare)} of the run's total cycle budget\". 5.82 G is {Format.Percent((double)Published.WarmupTax.ClaimedWarmupTaxCycles / Published.WarmupTax.SwitchingCycles)} of the switching run's 17.26 G; the gap between");
        var gap = Published.WarmupTax.SwitchingCycles - Published.WarmupTax.NoSwitchCycles;
        var tax = Published.WarmupTax.SwitchingCycles - 2 * Published.WarmupTax.NoSwitchCycles;
        text.Line($"the runs is {Format.Number(gap / 1e9)} G ({Format.Percent((double)gap / Published.WarmupTax.SwitchingCycles)}), and since the switching run does twice the work, the tax is 17.26 G − 2 × 5.82 G =");
        text.Line($"{Format.Number(tax / 1e9)} G cycles ({Format.Percent((double)tax / Published.WarmupTax.SwitchingCycles)} of its cycles, ~{Format.Number(tax / (double)Published.WarmupTax.SwitchingContextSwitches)} cycles ≈ {Format.Number(tax / (double)Published.WarmupTax.SwitchingContextSwitches / 3.2e3)} µs per switch at 3.2 GHz),");
        text.AppendLine("switch overhead and warm-up together. It also says each thread walks \"its own 2 MB buffer\" while the script shares one buffer.");
        text.AppendLine();

        var l2 = MachineFacts.L2Bytes();
        text.AppendLine("The working-set variants (published only in words: the 16 KB run's overhead \"drops dramatically\", the 64 MB run's \"rises again\"):");
        text.AppendLine();
        text.AppendLine("| working set | 1 thread, ms | 2 threads yielding, ms | ratio | per-load ratio (÷ 2) | switches/run | where it sits here |");
        text.AppendLine("| ---: | ---: | ---: | ---: | ---: | ---: | --- |");
        foreach (var size in WorkingSets)
        {
            var one = main.Find(WarmupTaxType, "OneThreadNoSwitches", null, $"WorkingSetBytes={size}");
            var two = main.Find(WarmupTaxType, "TwoPinnedThreadsYielding", null, $"WorkingSetBytes={size}");
            var r = one is not null && two is not null ? two.MeanNanoseconds / one.MeanNanoseconds : (double?)null;
            var fits = l2 is { } bytes ? (size <= bytes ? $"fits in this core's {bytes / 1024 / 1024.0:0.#} MB L2" : $"larger than this core's {bytes / 1024 / 1024.0:0.#} MB L2") : "";
            text.Line($"| {Bytes(size)} | {Format.Number(one?.MeanMilliseconds)} | {Format.Number(two?.MeanMilliseconds)} | {Format.Number(r)} | {Format.Number(r / 2)} | {Format.Number(two is null ? null : two.Metric(ReportedMetrics.VoluntarySwitches) + two.Metric(ReportedMetrics.InvoluntarySwitches))} | {fits} |");
        }
        text.AppendLine();
        text.AppendLine("The 2 MB set sat between L2 (1.25 MB on Ice Lake) and L3 in the original; on this CPU it is within L2, so the regime the write-up");
        text.AppendLine("targets (\"L1-warm, L2-cold after a switch\") is the 64 MB row here, if any.");
        text.AppendLine();
    }

    private static string Bytes(int size) => size >= 1024 * 1024 ? $"{size / 1024 / 1024} MB" : $"{size / 1024} KB";

    private Chart? WarmupTaxChart()
    {
        var groups = WorkingSets.Select(size => new BarGroup(Bytes(size),
        [
            new Bar("1 thread, no switches", main.Find(WarmupTaxType, "OneThreadNoSwitches", null, $"WorkingSetBytes={size}")?.MeanMilliseconds),
            new Bar("2 pinned threads, yield/100 loads", main.Find(WarmupTaxType, "TwoPinnedThreadsYielding", null, $"WorkingSetBytes={size}")?.MeanMilliseconds),
        ])).ToList();
        if (groups.All(g => g.Bars.All(b => b.Value is null)))
            return null;
        const string title = "Seed 001: wall time per run (ms, log scale)";
        return new Chart(WarmupTaxChartFile, title, SvgCharts.HorizontalBars(title, "ms per run", groups));
    }
}
