using System.Diagnostics;

namespace AsyncCost.Benchmarks.FirstCall;

/// <summary>Seed 002's "DoAsyncWork returns in 1 ms": a spin until 1 ms has passed, so its length does not depend on
/// the timer resolution a sleep would (the original's WPF host ran Windows' timer at 1 ms).</summary>
public static class OneMillisecondWork
{
    public static readonly long DurationTicks = Stopwatch.Frequency / 1000;

    public static int Run()
    {
        var start = Stopwatch.GetTimestamp();
        var spins = 0;
        while (Stopwatch.GetTimestamp() - start < DurationTicks)
            spins++;
        return spins;
    }
}
