using System.Diagnostics;
using AsyncCost.Os;
using AsyncCost.Report;
using Microsoft.Diagnostics.NETCore.Client;

namespace AsyncCost.Sessions;

/// <summary>Records one pass of a live process: one session, or a windowed hop pass's windows beside its counters session.</summary>
internal static class PassRecorder
{
    /// <summary>
    /// Records one pass (or one slice of it) for <paramref name="duration"/>, or until cancelled or the process exits: in one
    /// session, or, for a hop pass with <see cref="SessionOptions.HopDutyCycle"/> below 1, in windows of
    /// <see cref="SessionOptions.HopWindow"/> while one counters-only session spans the whole pass (the thread pool's completed
    /// work items the windows' counts are scaled by). Only the first window asks for method rundown: the JIT events of the
    /// later ones name what was jitted since, and a rundown per window would cost each time.
    /// </summary>
    internal static async Task<StopReason> RecordAsync(DiagnosticsClient client, int processId, PassAccumulator pass, int passNumber, int passCount,
        TimeSpan? duration, Func<int, string?> outputFile, bool useTick, SessionOptions options, ThreadSwitchMonitor? monitor, Action? onStarted,
        CancellationToken cancellationToken)
    {
        if (pass.Pass != MeasurementPasses.Hops || options.HopDutyCycle >= 1)
        {
            return await LiveSlice.RecordAsync(client, processId, pass, passNumber, passCount, duration, outputFile(0), useTick, options, monitor, onStarted,
                cancellationToken).ConfigureAwait(false);
        }
        if (options.HopDutyCycle <= 0 || options.HopWindow <= TimeSpan.Zero)
        {
            throw new ArgumentOutOfRangeException(nameof(options), "HopDutyCycle must be in (0, 1] and HopWindow positive.");
        }
        var between = options.HopWindow * ((1 / options.HopDutyCycle) - 1);
        var clock = Stopwatch.StartNew();
        using var endCounters = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        var countersStarted = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var quiet = new SessionOptions(); // no progress: the windows report it
        var counters = LiveSlice.RecordAsync(client, processId, pass, passNumber, passCount, duration, outputFile(TraceFileNames.CountersWindow), useTick, quiet, monitor,
            countersStarted.SetResult, endCounters.Token, SliceContent.CountersOnly, HopScale.CounterIntervalSeconds);
        if (await Task.WhenAny(countersStarted.Task, counters).ConfigureAwait(false) == counters)
        {
            return await counters.ConfigureAwait(false); // it could not start: its exception says why
        }
        var stop = StopReason.DurationElapsed;
        var recordedBefore = pass.Duration;
        var parsing = new List<Task<StopReason>>();
        try
        {
            for (var window = 0; stop == StopReason.DurationElapsed && !(clock.Elapsed >= duration); window++)
            {
                var left = duration - clock.Elapsed;
                var recorded = new TaskCompletionSource<StopReason>(TaskCreationOptions.RunContinuationsAsynchronously);
                var recording = LaterSessionAsync(LiveSlice.RecordAsync(client, processId, pass, passNumber, passCount,
                    left < options.HopWindow ? left : options.HopWindow, outputFile(window), useTick, options, null, window == 0 ? onStarted : null,
                    cancellationToken, window == 0 ? SliceContent.FirstWindow : SliceContent.Window, onRecorded: recorded.SetResult), window);
                parsing.Add(recording);
                // A hop-heavy window takes seconds to parse from its spool: that goes on during the pause, not instead of it.
                stop = await Task.WhenAny(recorded.Task, recording).ConfigureAwait(false) == recorded.Task
                    ? await recorded.Task.ConfigureAwait(false)
                    : await recording.ConfigureAwait(false);
                if (stop == StopReason.DurationElapsed && !(clock.Elapsed >= duration))
                {
                    left = duration - clock.Elapsed;
                    var pause = Task.Delay(left < between ? left.Value : between, cancellationToken);
                    if (await Task.WhenAny(pause, counters).ConfigureAwait(false) == counters)
                    {
                        stop = StopReason.ProcessExited;
                    }
                    else if (pause.IsCanceled)
                    {
                        stop = StopReason.Canceled;
                    }
                }
            }
        }
        finally
        {
            await endCounters.CancelAsync().ConfigureAwait(false);
            var countersStop = await counters.ConfigureAwait(false);
            stop = countersStop == StopReason.ProcessExited ? countersStop : stop;
            var elapsed = clock.Elapsed;
            foreach (var window in parsing)
            {
                stop = await window.ConfigureAwait(false) == StopReason.ProcessExited ? StopReason.ProcessExited : stop;
            }
            // Unrecorded: the pass's time outside its windows' recordings (the process ran untraced, parsing or pausing).
            pass.Unrecorded += elapsed - (pass.Duration - recordedBefore);
        }
        return stop;
    }

    /// <summary>A window after the first that the runtime refuses: the process is exiting (it accepted the counters' session).</summary>
    private static async Task<StopReason> LaterSessionAsync(Task<StopReason> recording, int window)
    {
        try
        {
            return await recording.ConfigureAwait(false);
        }
        catch (Exception e) when (window > 0 && e is ProcessNotFoundException or NotDotNetProcessException)
        {
            return StopReason.ProcessExited;
        }
    }
}
