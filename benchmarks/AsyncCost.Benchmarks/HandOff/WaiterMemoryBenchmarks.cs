using AsyncCost.Benchmarks.Infrastructure;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Engines;

namespace AsyncCost.Benchmarks.HandOff;

/// <summary>
/// Seed 004's memory claim (2^17 threads: ~4 GB; 2^17 pending awaits: ~750 MB): N waiters pending at once, as N blocked
/// threads (one ManualResetEvent) or N async methods each awaiting its own TaskCompletionSource. Per waiter: resident
/// set growth while all are pending (VmRSS), managed bytes (Allocated, MemoryDiagnoser) and the time to create and
/// release one. Threads are capped by the machine's limits, which the Waiters column and the console output name. One
/// invocation per case: starting ~16k threads takes tens of seconds here.
/// </summary>
[SimpleJob(RunStrategy.Monitoring, launchCount: 1, warmupCount: 0, iterationCount: 1, invocationCount: 1, id: "Waiters")]
[MemoryDiagnoser]
[BenchmarkCategory(Category, BenchmarkConfig.SeedsCategory)]
public class WaiterMemoryBenchmarks
{
    public const string Category = "004-waiter-memory";

    /// <summary>The dry job's bound on threads: starting ~16k threads takes minutes on a busy 2-core machine.</summary>
    private const int DryRunThreads = 1_024;

    /// <summary>Threads' worth of headroom left for the process's own later mappings and threads when a limit caps the count.</summary>
    private const int HeadroomReserve = 512;

    private readonly WaiterTotals _totals = new();

    /// <summary>2^10, and the original's 2^17 (threads capped by the machine's limits).</summary>
    [Params(1_024, 131_072)]
    public int Waiters { get; set; }

    [Benchmark(Baseline = true, Description = "Blocked threads")]
    public int BlockedThreads()
    {
        var count = ThreadCount();
        // A ManualResetEvent as in the original: its waiters block at once, where a ManualResetEventSlim's would spin
        // first, thousands of them on 2 cores.
        using var release = new ManualResetEvent(false);
        using var started = new CountdownEvent(count);
        var threads = new Thread[count];
        var rssBefore = ProcessMemory.ResidentBytes();
        for (var i = 0; i < count; i++)
        {
            threads[i] = new Thread(() =>
            {
                started.Signal();
                release.WaitOne();
            });
            threads[i].Start();
        }
        started.Wait();
        _totals.Add(count, ProcessMemory.ResidentBytes() - rssBefore);
        release.Set();
        foreach (var thread in threads)
            thread.Join();
        return count;
    }

    [Benchmark(Description = "Pending awaits")]
    public int PendingAwaits()
    {
        var sources = new TaskCompletionSource[Waiters];
        var waiters = new Task[Waiters];
        var rssBefore = ProcessMemory.ResidentBytes();
        for (var i = 0; i < sources.Length; i++)
        {
            sources[i] = new TaskCompletionSource();
            waiters[i] = AwaitAsync(sources[i].Task);
        }
        _totals.Add(Waiters, ProcessMemory.ResidentBytes() - rssBefore);
        foreach (var source in sources)
            source.SetResult();
        Task.WaitAll(waiters);
        return Waiters;
    }

    [GlobalCleanup]
    public void Cleanup() => _totals.Report();

    private static async Task AwaitAsync(Task gate) => await gate;

    private int ThreadCount()
    {
        if (BenchmarkConfig.IsDryRun && Waiters > DryRunThreads)
        {
            Console.WriteLine($"// dry job: {Waiters} threads bounded to {DryRunThreads}.");
            return DryRunThreads;
        }
        var (headroom, limit) = ProcessMemory.ThreadHeadroom();
        var allowed = headroom - HeadroomReserve;
        if (Waiters <= allowed)
            return Waiters;
        var capped = Math.Max(allowed, 1);
        Console.WriteLine($"// {Waiters} threads exceed this machine's headroom ({headroom} threads, set by {limit}); using {capped}.");
        return capped;
    }

    /// <summary>RSS growth per waiter over all invocations of one case.</summary>
    private sealed class WaiterTotals
    {
        private long _waiters, _rssBytes, _invocations;

        public void Add(int waiters, long rssBytes)
        {
            _waiters += waiters;
            _rssBytes += rssBytes;
            _invocations++;
        }

        public void Report()
        {
            if (_invocations == 0)
                return;
            ReportedMetrics.Write(ReportedMetrics.Waiters, (double)_waiters / _invocations);
            ReportedMetrics.Write(ReportedMetrics.RssBytesPerWaiter, (double)_rssBytes / _waiters);
        }
    }
}
