using AsyncCost.Benchmarks.Infrastructure;
using BenchmarkDotNet.Attributes;

namespace AsyncCost.Benchmarks.HandOff;

/// <summary>
/// Seed 004's matrix: R reading waiters woken by W writers, one thread per waiter with an AutoResetEvent (the classic
/// way) vs async readers awaiting a TaskCompletionSource completed by thread-pool writers (whose SetResult runs the
/// reader's continuation inline, as the original describes). Writers send <see cref="SignalsPerInvoke"/> signals in
/// total, round-robin over the readers; a reader counts every signal (a signal sent while it is awake is picked up
/// without waiting, none is lost). The original's figure per cell is async throughput / blocking throughput × 100 =
/// 100 / Ratio here. The cell R = 1, W = 1 is the original's "1 reader / 1 writer loop".
/// Scaled to 2 cores: R up to 256 threads per invocation (creating them is part of the classic approach's cost),
/// W up to 8.
/// </summary>
[MemoryDiagnoser]
[FullRunJob]
[BenchmarkCategory(Category, BenchmarkConfig.SeedsCategory)]
public class HandOffMatrixBenchmarks
{
    public const string Category = "004-hand-off-matrix";
    public const int SignalsPerInvoke = 16_384;

    [Params(1, 4, 16, 64, 256)]
    public int Readers { get; set; }

    [Params(1, 2, 4, 8)]
    public int Writers { get; set; }

    [Benchmark(Baseline = true, OperationsPerInvoke = SignalsPerInvoke, Description = "Threads + AutoResetEvent")]
    public long BlockingThreads() => new BlockingHandOff(Readers, Writers, SignalsPerInvoke).Run();

    [Benchmark(OperationsPerInvoke = SignalsPerInvoke, Description = "async + TaskCompletionSource")]
    public long AsyncTaskCompletionSource() => new AsyncHandOff(Readers, Writers, SignalsPerInvoke).Run();
}
