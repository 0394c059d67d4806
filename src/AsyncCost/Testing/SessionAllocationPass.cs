using AsyncCost.Attribution;
using AsyncCost.Report;
using AsyncCost.Sessions;
using Microsoft.Diagnostics.NETCore.Client;

namespace AsyncCost.Testing;

/// <summary>
/// A measurement's allocation pass through an EventPipe session the test process opens on itself, the session `collect` opens
/// on another process. Why a session and not the in-process listener: an EventListener's events carry no stack, so it can
/// charge a sample by its type's name alone, and a Task&lt;int&gt; (the 72 B of each call of a synchronously completing
/// async Task&lt;int&gt; method) names no method: its budget could never be decided. The session's AllocationSampled events
/// carry their stacks, and each sample is charged to the application method innermost on its stack, as in `collect`. Tests
/// running beside the measurement have their samples charged to their own methods, not to the measured ones.
/// </summary>
internal static class SessionAllocationPass
{
    /// <summary>How long the session may take to start before the pass goes on without it.</summary>
    private static readonly TimeSpan StartLimit = TimeSpan.FromSeconds(10);

    /// <summary>Runs <paramref name="count"/> operations inside the session and reads its samples with their stacks.</summary>
    /// <returns>The pass; null when the process cannot open a session on itself (its diagnostic port is off, or the session
    /// would not start), with the reason in <paramref name="warnings"/>.</returns>
    public static async Task<PassResult?> RecordAsync(Func<long, ValueTask<bool>> run, long count, List<string> warnings)
    {
        var processId = Environment.ProcessId;
        var pass = new PassAccumulator(MeasurementPasses.Allocations, new MethodCatalog());
        var started = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        using var stop = new CancellationTokenSource();
        var recording = LiveSlice.RecordAsync(new DiagnosticsClient(processId), processId, pass, 1, 1, duration: null, outputFile: null,
            useAllocationTick: false, new SessionOptions(), monitor: null, onStarted: started.SetResult, stop.Token);
        if (await Task.WhenAny(started.Task, recording, Task.Delay(StartLimit)).ConfigureAwait(false) != started.Task)
        {
            await stop.CancelAsync().ConfigureAwait(false);
            warnings.Add($"The allocation pass could not open an EventPipe session on this process ({await WhyNotAsync(recording).ConfigureAwait(false)}): its samples "
                + "were charged by their types' names alone, so a Task<T> whose type names no method (Task<int>, Task<string>) is left out of every method's bytes.");
            return null;
        }
        await run(count).ConfigureAwait(false);
        await stop.CancelAsync().ConfigureAwait(false);
        await recording.ConfigureAwait(false);
        return pass.ToResult();
    }

    private static async Task<string> WhyNotAsync(Task recording)
    {
        try
        {
            await recording.WaitAsync(StartLimit).ConfigureAwait(false);
            return "it ended before it started";
        }
        catch (Exception e) when (e is AsyncCostException or TimeoutException or IOException or UnauthorizedAccessException or ServerNotAvailableException)
        {
            return e.Message;
        }
    }
}
