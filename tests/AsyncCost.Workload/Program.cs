using System.Globalization;
using System.Text.Json;
using AsyncCost;
using AsyncCost.Workload;

// AsyncCost.Workload <scenario> <count> [--wait] [--linger] [--loop] [--count-sessions]
//   --wait    print "READY <pid>" and wait for a line on stdin before running (so a test can attach first)
//   --linger  after running, wait for stdin to close (or a line) before exiting (so an attached session sees the end)
//   --loop    repeat the scenario until stdin closes or the process is killed
//   --count-sessions  print "SESSION n at MS" each time a diagnostics session turns on the System.Runtime counters
//   --for-seconds=S  repeat the scenario (count calls a round) until S seconds have passed, then print
//                    "asynccost: N operations in S s" (N the calls made), as an app that stops itself after a time does
// Prints one line "RESULT {json}" per run with the exact in-process costs (AsyncCostScope) of the whole run.
var scenarios = new Dictionary<string, Func<int, Task<long>>>(StringComparer.Ordinal)
{
    ["task-sync"] = RunTaskSync,
    ["valuetask-sync"] = RunValueTaskSync,
    ["yield"] = RunYield,
    ["tcs-handoff"] = RunHandoff,
    ["block-in-async"] = RunBlockInAsync,
    ["thread-pingpong"] = n => Task.FromResult(Scenarios.ThreadPingPong(n)),
    ["async-pingpong"] = Scenarios.AsyncPingPongAsync,
    ["spawn"] = SpawnAsync,
    ["iterator"] = RunIterator,
    ["drive-yields"] = RunDriveYields,
    ["iterator-awaiting"] = RunIteratorAwaiting,
    ["delay"] = RunDelay,
    ["int-task-sync"] = RunIntTaskSync,
    ["sync-iterator"] = RunSyncIterator,
    ["compute-then-yield"] = RunComputeThenYield,
    // count operations of Fetches.PerRun timer calls each: awaited in a loop, the same with a blocking wait, or together.
    ["fetch-in-turn"] = n => Fetches.FetchEachAsync(n, FetchWay.InTurn),
    ["fetch-in-turn-blocking"] = n => Fetches.FetchEachAsync(n, FetchWay.InTurnBlocking),
    ["fetch-together"] = n => Fetches.FetchEachAsync(n, FetchWay.Together),
};

if (args.Length < 2 || !scenarios.TryGetValue(args[0], out var scenario)
    || !int.TryParse(args[1], NumberStyles.None, CultureInfo.InvariantCulture, out var count) || count <= 0)
{
    Console.Error.WriteLine($"usage: AsyncCost.Workload <{string.Join('|', scenarios.Keys)}> <count> [--wait] [--linger] [--loop] [--count-sessions]");
    return 2;
}

var flags = args.Skip(2).ToHashSet(StringComparer.Ordinal);
var forSeconds = flags.FirstOrDefault(f => f.StartsWith("--for-seconds=", StringComparison.Ordinal)) is { } seconds
    ? TimeSpan.FromSeconds(double.Parse(seconds["--for-seconds=".Length..], CultureInfo.InvariantCulture))
    : TimeSpan.Zero;
if (flags.Contains("--count-sessions"))
{
    DiagnosticSessions.Watch();
}
if (flags.Contains("--wait"))
{
    Console.WriteLine($"READY {Environment.ProcessId}");
    Console.ReadLine();
}

using var stdinClosed = new CancellationTokenSource();
if (flags.Contains("--loop"))
{
    _ = Task.Run(() => { Console.In.ReadToEnd(); stdinClosed.Cancel(); });
}

do
{
    Scenarios.ResetBlocked();
    Scenarios.ResetCallClock();
    var scope = AsyncCostScope.Start();
    var clock = System.Diagnostics.Stopwatch.StartNew();
    var checksum = await scenario(count);
    var rounds = 1L;
    while (clock.Elapsed < forSeconds)
    {
        checksum += await scenario(count);
        rounds++;
    }
    var elapsed = clock.Elapsed;
    var delta = scope.Stop();
    var calls = rounds * count;
    var result = new Dictionary<string, object?>
    {
        ["scenario"] = args[0],
        ["count"] = calls,
        ["checksum"] = checksum,
        ["allocatedBytes"] = delta.AllocatedBytes,
        ["bytesPerOp"] = (double)delta.AllocatedBytes / calls,
        ["completedWorkItems"] = delta.CompletedWorkItems,
        ["workItemsPerOp"] = (double)delta.CompletedWorkItems / calls,
        ["lockContentions"] = delta.LockContentions,
        ["elapsedSeconds"] = elapsed.TotalSeconds,
        ["opsPerSecond"] = calls / elapsed.TotalSeconds,
        ["voluntaryContextSwitches"] = delta.VoluntaryContextSwitches,
        ["involuntaryContextSwitches"] = delta.InvoluntaryContextSwitches,
        ["blockedSeconds"] = Scenarios.BlockedSeconds,
        ["callSeconds"] = Scenarios.CallSeconds,
        ["longestCallSeconds"] = Scenarios.LongestCallSeconds,
        ["endedAtMs"] = DiagnosticSessions.Uptime.ElapsedMilliseconds,
    };
    Console.WriteLine("RESULT " + JsonSerializer.Serialize(result));
    if (forSeconds > TimeSpan.Zero)
    {
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"asynccost: {calls} operations in {elapsed.TotalSeconds:F3} s"));
    }
}
while (flags.Contains("--loop") && !stdinClosed.IsCancellationRequested);

if (flags.Contains("--linger"))
{
    Console.ReadLine();
}
return 0;

// Starts this program again (task-sync 10) count times and waits for each: a traced parent's children must not
// inherit the tracer's start-up suspension.
static async Task<long> SpawnAsync(int count)
{
    for (var i = 0; i < count; i++)
    {
        var start = new System.Diagnostics.ProcessStartInfo(Environment.ProcessPath!) { RedirectStandardOutput = true };
        if (!Environment.ProcessPath!.EndsWith("AsyncCost.Workload", StringComparison.Ordinal))
        {
            start.ArgumentList.Add(typeof(PriceService).Assembly.Location);
        }
        start.ArgumentList.Add("task-sync");
        start.ArgumentList.Add("10");
        using var child = System.Diagnostics.Process.Start(start)!;
        await child.StandardOutput.ReadToEndAsync();
        await child.WaitForExitAsync();
    }
    return count;
}

static async Task<long> RunTaskSync(int count)
{
    var service = new PriceService();
    var sum = 0m;
    for (var i = 0; i < count; i++)
    {
        sum += await service.GetPriceTaskAsync("MSFT");
    }
    return (long)sum;
}

static async Task<long> RunValueTaskSync(int count)
{
    var service = new PriceService();
    var sum = 0m;
    for (var i = 0; i < count; i++)
    {
        sum += await service.GetPriceValueTaskAsync("MSFT");
    }
    return (long)sum;
}

static async Task<long> RunYield(int count)
{
    long sum = 0;
    for (var i = 0; i < count; i++)
    {
        sum += await Scenarios.YieldOnceAsync(i);
    }
    return sum;
}

// count items in enumerations of Scenarios.ItemsPerEnumeration (count must be a multiple of it); per op = per item.
static async Task<long> RunIterator(int count)
{
    long sum = 0;
    for (var i = 0; i < count / Scenarios.ItemsPerEnumeration; i++)
    {
        await foreach (var item in Scenarios.CountAsync(Scenarios.ItemsPerEnumeration))
        {
            sum += item;
        }
    }
    return sum;
}

static async Task<long> RunIteratorAwaiting(int count)
{
    long sum = 0;
    for (var i = 0; i < count / Scenarios.ItemsPerEnumeration; i++)
    {
        await foreach (var item in Scenarios.CountAsync(Scenarios.ItemsPerEnumeration))
        {
            sum += await Scenarios.YieldOnceAsync(item);
        }
    }
    return sum;
}

// count calls of DriveYieldsAsync, each awaiting YieldOnceAsync 10 times; per op = per driver call.
static async Task<long> RunDriveYields(int count)
{
    long sum = 0;
    for (var i = 0; i < count; i++)
    {
        sum += await Scenarios.DriveYieldsAsync(10);
    }
    return sum;
}

// count calls of DelayOnceAsync one after another, each timed by its caller.
static async Task<long> RunDelay(int count)
{
    long sum = 0;
    for (var i = 0; i < count; i++)
    {
        sum += await Scenarios.TimedCallAsync(Scenarios.DelayOnceAsync, i);
    }
    return sum;
}

// count calls of ComputeThenYieldAsync one after another, each timed by its caller.
static async Task<long> RunComputeThenYield(int count)
{
    long sum = 0;
    for (var i = 0; i < count; i++)
    {
        sum += await Scenarios.TimedCallAsync(Scenarios.ComputeThenYieldAsync, i);
    }
    return sum;
}

static async Task<long> RunBlockInAsync(int count)
{
    long sum = 0;
    for (var i = 0; i < count; i++)
    {
        sum += await Scenarios.BlockingAsync(i);
    }
    return sum;
}

static async Task<long> RunHandoff(int count)
{
    long sum = 0;
    for (var i = 0; i < count; i++)
    {
        sum += await Scenarios.HandoffAsync(i);
    }
    return sum;
}

static async Task<long> RunIntTaskSync(int count)
{
    long sum = 0;
    for (var i = 0; i < count; i++)
    {
        sum += await Scenarios.AddThousandAsync(i);
    }
    return sum;
}

static Task<long> RunSyncIterator(int count)
{
    long sum = 0;
    for (var i = 0; i < count; i++)
    {
        sum += Scenarios.SumOfEvens(8);
    }
    return Task.FromResult(sum);
}
