using System.Runtime.CompilerServices;

namespace AsyncCost.Workload;

/// <summary>
/// The known operations. Each method's cost per call is known and measured in-process by Program, so a trace of
/// this process can be checked against ground truth. Names are part of the tests' expectations: keep them stable.
/// </summary>
internal sealed class PriceService
{
    private readonly Dictionary<string, decimal> _prices = new(StringComparer.Ordinal) { ["MSFT"] = 421.17m };

    /// <summary>Completes synchronously with an uncached result: one Task&lt;decimal&gt; per call, no box, no hop.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public async Task<decimal> GetPriceTaskAsync(string symbol)
    {
        if (_prices.TryGetValue(symbol, out var price))
        {
            return price;
        }
        await Task.Yield();
        return 0m;
    }

    /// <summary>The ValueTask twin: completes synchronously without allocating.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public async ValueTask<decimal> GetPriceValueTaskAsync(string symbol)
    {
        if (_prices.TryGetValue(symbol, out var price))
        {
            return price;
        }
        await Task.Yield();
        return 0m;
    }
}

internal static class Scenarios
{
    /// <summary>Suspends once per call on Task.Yield: one state-machine box and one thread-pool hop per call.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static async Task<int> YieldOnceAsync(int value)
    {
        await Task.Yield();
        return value + 1;
    }

    /// <summary>Awaits a TaskCompletionSource that another pool work item completes: one box per call, one hop.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static async Task<int> HandoffAsync(int value)
    {
        var source = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
        ThreadPool.UnsafeQueueUserWorkItem(static s => s.SetResult(1), source, preferLocal: false);
        return value + await source.Task;
    }

    /// <summary>Items each enumeration of <see cref="CountAsync"/> yields in the async-iterator scenario.</summary>
    public const int ItemsPerEnumeration = 4;

    /// <summary>An async iterator that hops once per item (Task.Yield before each yield return): its state machine is a class
    /// that is also the enumerator, one object and one box per enumeration; each MoveNextAsync that produces an item suspends
    /// once and hops once; the final MoveNextAsync (false) completes synchronously.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static async IAsyncEnumerable<int> CountAsync(int items)
    {
        for (var i = 0; i < items; i++)
        {
            await Task.Yield();
            yield return i;
        }
    }

    /// <summary>A loop driver: awaits <see cref="YieldOnceAsync"/> (which hops every call) <paramref name="times"/> times. It
    /// suspends on each await and is resumed inline when the callee completes on its pool thread: it never hops itself.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static async Task<long> DriveYieldsAsync(int times)
    {
        long sum = 0;
        for (var i = 0; i < times; i++)
        {
            sum += await YieldOnceAsync(i);
        }
        return sum;
    }

    private static long s_blockedTicks;

    /// <summary>Time <see cref="BlockingAsync"/> spent blocked since the last <see cref="ResetBlocked"/>, in seconds.</summary>
    public static double BlockedSeconds => (double)Interlocked.Read(ref s_blockedTicks) / System.Diagnostics.Stopwatch.Frequency;

    public static void ResetBlocked() => Interlocked.Exchange(ref s_blockedTicks, 0);

    /// <summary>Resumes on a pool thread (Task.Yield), then blocks that thread on a 1 ms delay: one blocking wait per call,
    /// made by this method (the cost AC0006 names), and one hop.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static async Task<int> BlockingAsync(int value)
    {
        await Task.Yield();
        var clock = System.Diagnostics.Stopwatch.StartNew();
        Task.Delay(1).Wait();
        Interlocked.Add(ref s_blockedTicks, clock.ElapsedTicks);
        return value + 1;
    }

    /// <summary>Two threads hand a token back and forth through AutoResetEvents: two blocking waits (context switches) per round trip.</summary>
    public static long ThreadPingPong(int roundTrips)
    {
        using var ping = new AutoResetEvent(false);
        using var pong = new AutoResetEvent(false);
        var partner = new Thread(() =>
        {
            for (var i = 0; i < roundTrips; i++)
            {
                ping.WaitOne();
                pong.Set();
            }
        }) { IsBackground = true, Name = "pingpong-partner" };
        partner.Start();
        for (var i = 0; i < roundTrips; i++)
        {
            ping.Set();
            pong.WaitOne();
        }
        partner.Join();
        return roundTrips;
    }

    /// <summary>The async twin of the ping-pong: two async loops hand a token back and forth through TaskCompletionSources;
    /// continuations run inline on the completing thread, so nothing blocks and nothing switches.</summary>
    public static Task<long> AsyncPingPongAsync(int roundTrips) => new AsyncPingPong().RunAsync(roundTrips);

    // Declared last, so that the state machines above keep the names the tests expect.
    /// <summary>What <see cref="DelayOnceAsync"/> awaits, in milliseconds.</summary>
    public const int DelayMilliseconds = 20;

    private static long s_callTicks, s_longestCallTicks;

    /// <summary>Time callers waited on the calls <see cref="TimedCallAsync"/> made since the last <see cref="ResetCallClock"/>, as they timed it, in seconds.</summary>
    public static double CallSeconds => (double)Interlocked.Read(ref s_callTicks) / System.Diagnostics.Stopwatch.Frequency;

    /// <summary>The longest of those calls, in seconds.</summary>
    public static double LongestCallSeconds => (double)Interlocked.Read(ref s_longestCallTicks) / System.Diagnostics.Stopwatch.Frequency;

    public static void ResetCallClock()
    {
        Interlocked.Exchange(ref s_callTicks, 0);
        Interlocked.Exchange(ref s_longestCallTicks, 0);
    }

    /// <summary>Calls <paramref name="call"/> and adds the time it waited on it, from before the call to after the await.</summary>
    public static async Task<int> TimedCallAsync(Func<int, Task<int>> call, int value)
    {
        var started = System.Diagnostics.Stopwatch.GetTimestamp();
        var result = await call(value);
        var ticks = System.Diagnostics.Stopwatch.GetTimestamp() - started;
        Interlocked.Add(ref s_callTicks, ticks);
        var longest = Interlocked.Read(ref s_longestCallTicks);
        while (ticks > longest)
        {
            var seen = Interlocked.CompareExchange(ref s_longestCallTicks, ticks, longest);
            if (seen == longest)
            {
                break;
            }
            longest = seen;
        }
        return result;
    }

    /// <summary>Awaits a <see cref="DelayMilliseconds"/> timer: one box per call, and its caller waits at least the delay.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static async Task<int> DelayOnceAsync(int value)
    {
        await Task.Delay(DelayMilliseconds);
        return value + 1;
    }

    // Added last: the compiler numbers state machines in declaration order, and tests name the ones above.
    /// <summary>Completes synchronously with a result the runtime does not cache: one 72 B Task&lt;int&gt; per call, a type that
    /// names no method (Stream.ReadAsync returns one too), no box, no hop.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static async Task<int> AddThousandAsync(int value)
    {
        if (value >= 0)
        {
            return value + 1000;
        }
        await Task.Yield();
        return 0;
    }

    /// <summary>A yield-return iterator: its state machine is a class named like an async one's ("&lt;Evens&gt;d__N").</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static IEnumerable<int> Evens(int count)
    {
        for (var i = 0; i < count; i++)
        {
            yield return 2 * i;
        }
    }

    /// <summary>A plain synchronous method that allocates: an iterator of its own, a System.Linq one over it, and its array.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static int SumOfEvens(int count) => Evens(count).Select(i => i + 1).ToArray().Sum();

    /// <summary>What <see cref="ComputeAsync"/> computes before it returns, in milliseconds.</summary>
    public const double ComputeMilliseconds = 5;

    /// <summary>Computes first (<see cref="ComputeAsync"/>), then suspends once on Task.Yield: its box is created only after
    /// the computing, at its first suspension, and its caller waits for both.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static async Task<int> ComputeThenYieldAsync(int value)
    {
        var computed = await ComputeAsync(value);
        await Task.Yield();
        return computed;
    }

    /// <summary>Spins <see cref="ComputeMilliseconds"/> by the clock and completes without ever suspending: no box, no TPL event.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static async Task<int> ComputeAsync(int value)
    {
        var until = System.Diagnostics.Stopwatch.GetTimestamp() + (long)(ComputeMilliseconds * System.Diagnostics.Stopwatch.Frequency / 1_000);
        while (System.Diagnostics.Stopwatch.GetTimestamp() < until)
        {
            value = unchecked((value * 31) + 7);
        }
        await Task.CompletedTask;
        return value;
    }
}

/// <summary>Holds the two hand-off sources of the async ping-pong.</summary>
internal sealed class AsyncPingPong
{
    private TaskCompletionSource _ping = new();
    private TaskCompletionSource _pong = new();

    [MethodImpl(MethodImplOptions.NoInlining)]
    public async Task<long> RunAsync(int roundTrips)
    {
        var partner = PartnerAsync(roundTrips);
        for (var i = 0; i < roundTrips; i++)
        {
            var pong = _pong;
            _ping.SetResult(); // runs the partner inline up to its next await
            await pong.Task;
        }
        await partner;
        return roundTrips;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private async Task PartnerAsync(int roundTrips)
    {
        for (var i = 0; i < roundTrips; i++)
        {
            await _ping.Task;
            _ping = new TaskCompletionSource();
            var pong = _pong;
            _pong = new TaskCompletionSource();
            pong.SetResult();
        }
    }
}
