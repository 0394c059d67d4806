using System.Runtime.CompilerServices;

namespace AsyncCost.Workload;

/// <summary>
/// An await in a loop and its fix, for checking a predicted saving against a measured one: each operation fetches
/// <see cref="PerRun"/> independent values, one after another (the loop AC0001 finds) or started together and awaited once
/// (Task.WhenAll). Each fetch waits on a <see cref="FetchMilliseconds"/> timer, so that what running them together saves
/// is large against the machine's noise. The method keys (and the lines marked AC0001 and AC0006) are the tests'.
/// </summary>
internal static class Fetches
{
    /// <summary>Fetches per operation.</summary>
    public const int PerRun = 4;

    /// <summary>What each fetch waits, in milliseconds.</summary>
    public const int FetchMilliseconds = 4;

    /// <summary>What the blocking variant blocks for once per operation, in milliseconds.</summary>
    public const int BlockMilliseconds = 3;

    /// <summary>
    /// <paramref name="operations"/> operations in one call, each a run of fetches: the method suspends first, so that its
    /// box exists before any fetch (calls started together are charged to the box that ran when they started), and yields
    /// after each operation, which ends the run of awaits the hop pass tells one execution of the loop by.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static async Task<long> FetchEachAsync(int operations, FetchWay way)
    {
        long sum = 0;
        await Task.Yield();
        for (var operation = 0; operation < operations; operation++)
        {
            if (way == FetchWay.Together)
            {
                var fetches = new Task<int>[PerRun];
                for (var i = 0; i < PerRun; i++)
                {
                    fetches[i] = FetchAsync(i);
                }
                sum += (await Task.WhenAll(fetches)).Sum();
            }
            else
            {
                for (var i = 0; i < PerRun; i++)
                {
                    sum += await FetchAsync(i); // AC0001
                }
            }
            if (way == FetchWay.InTurnBlocking)
            {
                Task.Delay(BlockMilliseconds).Wait(); // AC0006
            }
            await Task.Yield();
        }
        return sum;
    }

    /// <summary>One independent fetch: a <see cref="FetchMilliseconds"/> timer.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static async Task<int> FetchAsync(int value)
    {
        await Task.Delay(FetchMilliseconds);
        return value + 1;
    }
}

/// <summary>How an operation makes its fetches.</summary>
internal enum FetchWay
{
    /// <summary>Awaited one after another in a loop.</summary>
    InTurn,

    /// <summary>In turn, and then blocking on a timer (a second finding in the same method).</summary>
    InTurnBlocking,

    /// <summary>Started together and awaited once: the loop's fix (and no blocking).</summary>
    Together,
}
