using AsyncCost.Attribution;
using AsyncCost.Computers;
using AsyncCost.Report;

namespace AsyncCost.Testing;

/// <summary>
/// Measures a piece of code inside the test process, per async method, the way <c>dotnet-asynccost collect</c> measures a
/// process: a hop pass (every TPL and thread-pool event counted), an exact pass (the GC's own count of the bytes) and, when
/// that counted any, an allocation pass (AllocationSampled with stacks, TPL events off, through an EventPipe session the
/// process opens on itself: <see cref="SessionAllocationPass"/>), each running the operation many times, read by the CLI's
/// computers and report builder. Assert the result with <see cref="MeasuredCost.AssertWithin"/>.
/// <para>
/// Measurements run one at a time in a process (a process-wide gate): a hop pass turns TPL events on for the whole process,
/// which changes what every await allocates, so it must never overlap another measurement's allocation pass. Tests that run
/// in parallel without measuring go on: their allocations and hops are charged to their own methods, not to the measured
/// ones (attribution is by method, not by time), so they change a method's figures only when they call that same method.
/// They do widen the process-wide exact ceiling used when the operation leaves the calling thread (see
/// <see cref="MeasuredCost.BytesCeilingPerOperation"/>). Nothing is listened to, and nothing costs, outside a measurement.
/// </para>
/// </summary>
public static class AsyncCostMeasurement
{
    /// <summary>One measurement at a time per process (see the class remarks).</summary>
    private static readonly SemaphoreSlim Gate = new(1, 1);

    /// <summary>Measures a synchronous operation (one that calls async methods and waits, or completes them synchronously).</summary>
    public static Task<MeasuredCost> MeasureAsync(Action operation, MeasurementOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(operation);
        return MeasureAsync(new Operations(count =>
        {
            for (var i = 0L; i < count; i++)
            {
                operation();
            }
            return ValueTask.FromResult(true);
        }), options ?? new MeasurementOptions());
    }

    /// <summary>Measures an asynchronous operation, awaited once per operation.</summary>
    public static Task<MeasuredCost> MeasureAsync(Func<Task> operation, MeasurementOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(operation);
        return MeasureAsync(Awaited(operation, static task => task.IsCompleted, static task => new ValueTask(task)), options ?? new MeasurementOptions());
    }

    /// <summary>Measures an asynchronous operation returning a <see cref="ValueTask{TResult}"/>, awaited once per operation.</summary>
    public static Task<MeasuredCost> MeasureAsync<T>(Func<ValueTask<T>> operation, MeasurementOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(operation);
        return MeasureAsync(Awaited(operation, static task => task.IsCompleted, static task => AwaitResult(task)), options ?? new MeasurementOptions());

        // A completed one is read at once (a pooled source is released by reading it); only one that suspended is awaited.
        static ValueTask AwaitResult(ValueTask<T> task)
        {
            if (task.IsCompletedSuccessfully)
            {
                _ = task.Result;
                return default;
            }
            return AwaitAsync(task);
        }

        static async ValueTask AwaitAsync(ValueTask<T> task) => await task.ConfigureAwait(false);
    }

    /// <summary>Operations that each return a task, awaited one after the other; without an allocation of their own when the
    /// tasks complete synchronously.</summary>
    private static Operations Awaited<TTask>(Func<TTask> operation, Func<TTask, bool> isCompleted, Func<TTask, ValueTask> awaited) =>
        new(async count =>
        {
            var synchronous = true;
            for (var i = 0L; i < count; i++)
            {
                var task = operation();
                synchronous &= isCompleted(task);
                await awaited(task).ConfigureAwait(false);
            }
            return synchronous;
        });

    private static async Task<MeasuredCost> MeasureAsync(Operations operations, MeasurementOptions options)
    {
        if (options.Problem() is { } problem)
        {
            throw new ArgumentException("Invalid measurement options: " + problem, nameof(options));
        }
        await Gate.WaitAsync().ConfigureAwait(false);
        try
        {
            await operations.RunAsync(options.WarmupOperations).ConfigureAwait(false);
            var warnings = new List<string>();
            // The hop pass first: it tells whether the operations stayed on the calling thread, which makes that thread's
            // exact byte count theirs, unaffected by tests running beside them.
            var (hopPass, stayedOnThread) = await EventPassAsync(MeasurementPasses.Hops, operations, options, options.Operations, warnings).ConfigureAwait(false);
            var exact = await ExactPassAsync(operations, options.Operations, stayedOnThread).ConfigureAwait(false);
            var allocationOperations = 0L;
            var passes = new List<PassResult> { hopPass };
            if (exact.BytesCeiling > 0)
            {
                allocationOperations = AllocationOperations(options, exact);
                // A session on this process charges each sample by its stack (see SessionAllocationPass); the listener by name.
                passes.Insert(0, await SessionAllocationPass.RecordAsync(operations.RunAsync, allocationOperations, warnings).ConfigureAwait(false)
                    ?? (await EventPassAsync(MeasurementPasses.Allocations, operations, options, allocationOperations, warnings).ConfigureAwait(false)).Pass);
            }

            var catalog = new MethodCatalog();
            catalog.AddAssembliesOfThisProcess();
            var report = new ReportBuilder(catalog).Build(new ReportSource { Kind = SourceKind.InProcess, ProcessId = Environment.ProcessId },
                passes, [], StopReason.DurationElapsed, cutShort: false, [.. warnings.Select(w => new ReportWarning("measurement", w))]);
            return new MeasuredCost(report, options.Operations, allocationOperations, exact.BytesCeiling, exact.BytesCeilingIsThreadCount, catalog.DeclaredMethodKeys());
        }
        finally
        {
            Gate.Release();
        }
    }

    /// <summary>The GC's exact count of the bytes allocated per operation: the calling thread's when every operation completed
    /// synchronously and, in the hop pass, the thread neither queued thread-pool work nor blocked on a task (nothing ran
    /// elsewhere on its behalf), the whole process's otherwise. Every method's bytes per operation are at most this. Counted
    /// twice, the smaller kept: the runtime's own one-off work on the calling thread (72 B once in 10,000 calls, seen on a
    /// loaded machine; the GC's count itself is exact, benchmarks/thread-bytes-exact.cs) lands in one run, not in both.</summary>
    private static async Task<(double BytesCeiling, bool BytesCeilingIsThreadCount, TimeSpan Elapsed)> ExactPassAsync(Operations operations, long count, bool stayedOnThread)
    {
        var first = await ExactRunAsync(operations, count, stayedOnThread).ConfigureAwait(false);
        var second = await ExactRunAsync(operations, count, stayedOnThread).ConfigureAwait(false);
        return second.BytesCeiling < first.BytesCeiling ? second : first;
    }

    private static async Task<(double BytesCeiling, bool BytesCeilingIsThreadCount, TimeSpan Elapsed)> ExactRunAsync(Operations operations, long count, bool stayedOnThread)
    {
        var clock = System.Diagnostics.Stopwatch.StartNew();
        var scope = AsyncCostScope.Start();
        var synchronous = await operations.RunAsync(count).ConfigureAwait(false);
        var delta = scope.Stop();
        var threadBytes = synchronous && stayedOnThread ? delta.CurrentThreadAllocatedBytes : null;
        return ((double)(threadBytes ?? delta.AllocatedBytes) / count, threadBytes is not null, clock.Elapsed);
    }

    /// <summary>Enough operations for <see cref="MeasurementOptions.AllocationSamples"/> samples at the bytes the exact pass
    /// counted, within the limits.</summary>
    private static long AllocationOperations(MeasurementOptions options, (double BytesCeiling, bool _, TimeSpan Elapsed) exact)
    {
        var forSamples = options.AllocationSamples / Events.KnownEvents.AllocationSamplingProbability / exact.BytesCeiling;
        var perOperation = exact.Elapsed.TotalSeconds / options.Operations;
        var inTime = perOperation > 0 ? options.AllocationPassTimeLimit.TotalSeconds / perOperation : double.MaxValue;
        return (long)Math.Clamp(Math.Min(forSamples, inTime), options.Operations, options.MaxAllocationOperations);
    }

    /// <summary>How long a pass's events are on before it counts (see <see cref="EventPassAsync"/>).</summary>
    private static readonly TimeSpan EventsSettle = TimeSpan.FromMilliseconds(200);

    /// <summary>One pass over <paramref name="count"/> operations, after warm-up ones with its events on, twice, with
    /// <see cref="EventsSettle"/> between them; with it, true when
    /// every operation completed synchronously and the calling thread handed no work to another (see
    /// <see cref="PassListener.CallingThreadHandedOff"/>).</summary>
    private static async Task<(PassResult Pass, bool StayedOnThread)> EventPassAsync(MeasurementPasses pass, Operations operations, MeasurementOptions options, long count, List<string> warnings)
    {
        using var listener = new PassListener(pass);
        await operations.RunAsync(options.WarmupOperations).ConfigureAwait(false);
        // The thread pool's workers read whether its events are on now and then, not at every work item: counted from the
        // start, the first pass of a process missed every hop (0 of 2,000 Task.Yield resumptions, and 10 % of the calls).
        await Task.Delay(EventsSettle).ConfigureAwait(false);
        await operations.RunAsync(options.WarmupOperations).ConfigureAwait(false);
        if (!await listener.ReadyAsync().ConfigureAwait(false))
        {
            warnings.Add("No allocation sample arrived within 10 s of starting the allocation pass: bytes may be low (a runtime without AllocationSampled, or EventPipe off).");
        }
        var started = DateTimeOffset.UtcNow;
        var clock = System.Diagnostics.Stopwatch.StartNew();
        listener.Start();
        var synchronous = await operations.RunAsync(count).ConfigureAwait(false);
        var elapsed = clock.Elapsed;
        if (!await listener.StopAsync().ConfigureAwait(false))
        {
            warnings.Add("The last allocation samples did not arrive within 10 s: bytes may be low (a busy machine, or a runtime without AllocationSampled).");
        }
        var figures = new PassFigures();
        figures.Allocations.Add(listener.Allocations);
        figures.Hops.Add(listener.Hops);
        return (new PassResult { Pass = pass, Figures = figures, StartedAt = started, Duration = elapsed, ProcessId = Environment.ProcessId },
            synchronous && !listener.CallingThreadHandedOff);
    }

    /// <summary>Runs the operation a number of times; true when every call completed synchronously.</summary>
    private sealed class Operations(Func<long, ValueTask<bool>> run)
    {
        public ValueTask<bool> RunAsync(long count) => run(count);
    }
}
