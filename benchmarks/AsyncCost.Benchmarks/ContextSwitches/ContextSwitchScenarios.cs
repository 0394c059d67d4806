using System.Runtime.CompilerServices;

namespace AsyncCost.Benchmarks.ContextSwitches;

/// <summary>
/// Seed 000's four ways to run a number of work units, written anew: one implementation shared by the
/// BenchmarkDotNet suite and the console mode that follows the original's Stopwatch method. Each returns the work's
/// result so the JIT keeps the loops (the original's empty loop would be legal to remove).
/// </summary>
public static class ContextSwitchScenarios
{
    /// <summary>One unit of work: count to <paramref name="iterations"/> (the original's "counting to 500").</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static long WorkUnit(int iterations)
    {
        long sum = 0;
        for (var i = 0; i < iterations; i++)
            sum += i;
        return sum;
    }

    /// <summary>No-switch: the units back to back on the calling thread.</summary>
    public static long NoSwitch(int units, int iterations)
    {
        long total = 0;
        for (var remaining = units; remaining > 0; remaining--)
            total += WorkUnit(iterations);
        return total;
    }

    /// <summary>Async w/o yield: on a pool thread, each unit runs in an async helper that awaits an already-completed
    /// TaskCompletionSource task, so the await never suspends.</summary>
    public static long AsyncWithoutYield(int units, int iterations)
    {
        var source = new TaskCompletionSource<object?>();
        source.SetResult(null);
        var completed = source.Task;
        var total = new StrongBox<long>();
        Task.Run(async () =>
        {
            for (var remaining = units; remaining > 0; remaining--)
                await NoYieldHelper(completed, iterations, total);
        }).Wait();
        return total.Value;
    }

    private static async Task NoYieldHelper(Task completed, int iterations, StrongBox<long> total)
    {
        total.Value += WorkUnit(iterations);
        await completed;
    }

    /// <summary>Async w/ yield: on a pool thread, each unit ends with <c>await Task.Yield()</c>, a hop through the
    /// thread pool's queue.</summary>
    public static long AsyncWithYield(int units, int iterations) =>
        Task.Run(async () =>
        {
            long total = 0;
            for (var remaining = units; remaining > 0; remaining--)
            {
                total += WorkUnit(iterations);
                await Task.Yield();
            }
            return total;
        }).Result;

    /// <summary>Thread switches: <paramref name="threads"/> threads (the original: Environment.ProcessorCount) take
    /// turns through one AutoResetEvent, one unit per turn, so every unit is a blocking hand-off between threads.</summary>
    public static long ThreadSwitches(int units, int iterations, int threads)
    {
        var remaining = units;
        long total = 0;
        using var turn = new AutoResetEvent(true);
        var workers = new Thread[threads];
        for (var t = 0; t < workers.Length; t++)
        {
            workers[t] = new Thread(() =>
            {
                // As in the original, the loop condition is read outside the turn: a thread that waited while the
                // last unit ran still takes one turn, sees nothing left and passes the turn on.
                while (Volatile.Read(ref remaining) > 0)
                {
                    turn.WaitOne();
                    if (remaining > 0)
                    {
                        remaining--;
                        total += WorkUnit(iterations);
                    }
                    turn.Set();
                }
            });
            workers[t].Start();
        }
        foreach (var worker in workers)
            worker.Join();
        return total;
    }
}
