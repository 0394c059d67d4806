using AsyncCost.Benchmarks.Infrastructure;
using BenchmarkDotNet.Attributes;

namespace AsyncCost.Benchmarks.WarmupTax;

/// <summary>
/// Seed 001's experiment: the hidden cost of a switch is the cache and TLB warm-up the resumed thread pays. Two
/// threads pinned to one CPU walk a shared working set (one byte per 64-byte line) and sched_yield every 100 loads,
/// against one pinned thread doing one thread's share without switches. The published run did twice the work in the
/// switching case, so "2.96×" includes a 2× for work: the report also states the per-load ratio. Per operation (one
/// whole run) the suite reports voluntary/involuntary switches from /proc and user-mode cycles and instructions from
/// perf_event_open where the kernel allows it.
/// </summary>
[FullRunJob]
[BenchmarkCategory(Category, BenchmarkConfig.SeedsCategory)]
public class SwitchWarmupTaxBenchmarks
{
    public const string Category = "001-switch-warmup-tax";

    /// <summary>Loads per thread (the original's ITERS).</summary>
    public const int LoadsPerThread = 4_000_000;

    public const int YieldEvery = 100;
    private const int CacheLine = 64;
    private const int PinnedCpu = 0;

    private byte[] _workingSet = [];
    private readonly RunTotals _totals = new();

    [Params(16 * 1024, 2 * 1024 * 1024, 64 * 1024 * 1024)]
    public int WorkingSetBytes { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _workingSet = new byte[WorkingSetBytes];
        for (var offset = 0; offset < _workingSet.Length; offset += CacheLine)
            _workingSet[offset] = (byte)offset; // touch every line so the pages are resident
        if (PerfCounters.TryOpen(out var reason) is { } probe)
            probe.Dispose();
        else
            Console.WriteLine($"// cycles, instructions, IPC: {reason}");
    }

    [Benchmark(Baseline = true, Description = "1 thread, no switches")]
    public long OneThreadNoSwitches() => RunPinned(threads: 1, yieldEvery: 0);

    [Benchmark(Description = "2 pinned threads, yield/100 loads")]
    public long TwoPinnedThreadsYielding() => RunPinned(threads: 2, yieldEvery: YieldEvery);

    [GlobalCleanup]
    public void Cleanup() => _totals.Report();

    private long RunPinned(int threads, int yieldEvery)
    {
        var sums = new long[threads];
        var workers = new Thread[threads];
        for (var t = 0; t < threads; t++)
        {
            var index = t;
            workers[t] = new Thread(() => sums[index] = Walk(yieldEvery));
            workers[t].Start();
        }
        foreach (var worker in workers)
            worker.Join();
        _totals.CompleteRun();
        return sums.Sum();
    }

    /// <summary>One thread's share: pinned to the shared CPU, walk the working set, yield every <paramref name="yieldEvery"/> loads.</summary>
    private long Walk(int yieldEvery)
    {
        LinuxScheduler.PinCurrentThreadTo(PinnedCpu);
        using var counters = PerfCounters.TryOpen(out _);
        var switchesBefore = LinuxScheduler.CurrentThreadSwitches();
        var countersBefore = counters?.Read() ?? default;

        var buffer = _workingSet;
        long sum = 0;
        var offset = 0;
        var untilYield = yieldEvery; // a countdown, not i % yieldEvery: a division per load would weigh on a ~1 ns load
        for (var i = 0; i < LoadsPerThread; i++)
        {
            sum += buffer[offset];
            offset += CacheLine;
            if (offset >= buffer.Length)
                offset = 0;
            if (--untilYield == 0)
            {
                untilYield = yieldEvery;
                LinuxScheduler.Yield();
            }
        }

        var countersAfter = counters?.Read() ?? default;
        var switchesAfter = LinuxScheduler.CurrentThreadSwitches();
        _totals.AddThread(
            switchesAfter.Voluntary - switchesBefore.Voluntary,
            switchesAfter.Involuntary - switchesBefore.Involuntary,
            counters is null ? null : (countersAfter.Cycles - countersBefore.Cycles, countersAfter.Instructions - countersBefore.Instructions));
        return sum;
    }

    /// <summary>Per-run sums over all invocations of one benchmark case, reported as per-run averages.</summary>
    private sealed class RunTotals
    {
        private readonly Lock _lock = new();
        private long _runs, _voluntary, _involuntary, _cycles, _instructions;
        private bool _countersRead = true;

        public void AddThread(long voluntary, long involuntary, (long Cycles, long Instructions)? counters)
        {
            lock (_lock)
            {
                _voluntary += voluntary;
                _involuntary += involuntary;
                if (counters is { } c)
                {
                    _cycles += c.Cycles;
                    _instructions += c.Instructions;
                }
                else
                {
                    _countersRead = false;
                }
            }
        }

        public void CompleteRun() => Interlocked.Increment(ref _runs);

        public void Report()
        {
            if (_runs == 0)
                return;
            ReportedMetrics.Write(ReportedMetrics.VoluntarySwitches, (double)_voluntary / _runs);
            ReportedMetrics.Write(ReportedMetrics.InvoluntarySwitches, (double)_involuntary / _runs);
            if (_countersRead)
            {
                ReportedMetrics.Write(ReportedMetrics.Cycles, (double)_cycles / _runs);
                ReportedMetrics.Write(ReportedMetrics.Instructions, (double)_instructions / _runs);
            }
        }
    }
}
