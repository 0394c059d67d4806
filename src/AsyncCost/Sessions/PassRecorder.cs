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
    /// later ones name what was jitted since, and a rundown per window would cost each time. A window whose session the
    /// runtime refuses is tried once more, then skipped (<see cref="PassAccumulator.SkippedWindows"/>): the recording goes on.
    /// </summary>
    internal static async Task<StopReason> RecordAsync(DiagnosticsClient client, int processId, PassAccumulator pass, int passNumber, int passCount,
        TimeSpan? duration, Func<int, string?> outputFile, bool useTick, SessionOptions options, double hopDutyCycle, ThreadSwitchMonitor? monitor,
        Action? onStarted, CancellationToken cancellationToken)
    {
        if (pass.Pass != MeasurementPasses.Hops || hopDutyCycle >= 1)
        {
            return pass.RecordRequests
                ? await BesideRequestsAsync(client, processId, pass, passNumber, passCount, duration, outputFile, useTick, options, monitor, onStarted, cancellationToken).ConfigureAwait(false)
                : await LiveSlice.RecordAsync(client, processId, pass, passNumber, passCount, duration, outputFile(0), useTick, options, monitor, onStarted,
                    cancellationToken).ConfigureAwait(false);
        }
        if (hopDutyCycle <= 0 || options.HopWindow <= TimeSpan.Zero)
        {
            throw new ArgumentOutOfRangeException(nameof(options), "HopDutyCycle must be in (0, 1] and HopWindow positive.");
        }
        var between = options.HopWindow * ((1 / hopDutyCycle) - 1);
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
        var parsing = new List<Task<StopReason?>>();
        var rundownPending = true; // until a window records: the first one that does asks for rundown (and resumes a launched runtime)
        try
        {
            for (var window = 0; stop == StopReason.DurationElapsed && !(clock.Elapsed >= duration); window++)
            {
                var left = duration - clock.Elapsed;
                var recorded = new TaskCompletionSource<StopReason>(TaskCreationOptions.RunContinuationsAsynchronously);
                var length = left < options.HopWindow ? left : options.HopWindow;
                var content = rundownPending ? SliceContent.FirstWindow : SliceContent.Window;
                var recording = WindowAsync(processId, pass, () => LiveSlice.RecordAsync(client, processId, pass, passNumber, passCount,
                    length, outputFile(window), useTick, options, null, content == SliceContent.FirstWindow ? onStarted : null,
                    cancellationToken, content, onRecorded: recorded.SetResult));
                parsing.Add(recording);
                // A hop-heavy window takes seconds to parse from its spool: that goes on during the pause, not instead of it.
                var windowStop = await Task.WhenAny(recorded.Task, recording).ConfigureAwait(false) == recorded.Task
                    ? await recorded.Task.ConfigureAwait(false)
                    : await recording.ConfigureAwait(false);
                rundownPending &= windowStop is null;
                stop = windowStop ?? (cancellationToken.IsCancellationRequested ? StopReason.Canceled : StopReason.DurationElapsed);
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
            foreach (var window in parsing)
            {
                stop = await window.ConfigureAwait(false) == StopReason.ProcessExited ? StopReason.ProcessExited : stop;
            }
        }
        return stop;
    }

    /// <summary>
    /// One pass (or slice) in one session, with Kestrel's requests recorded beside it in a session of their own, started
    /// first and stopped as soon as the pass's recording stops (not when its events are parsed), so that the requests are
    /// those the pass's time saw; without stack walks, which the allocation and cpu passes ask of every event of their own.
    /// </summary>
    private static async Task<StopReason> BesideRequestsAsync(DiagnosticsClient client, int processId, PassAccumulator pass, int passNumber, int passCount,
        TimeSpan? duration, Func<int, string?> outputFile, bool useTick, SessionOptions options, ThreadSwitchMonitor? monitor, Action? onStarted,
        CancellationToken cancellationToken)
    {
        using var endRequests = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        var requestsStarted = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var requests = LiveSlice.RecordAsync(client, processId, pass, passNumber, passCount, duration, outputFile(TraceFileNames.RequestsWindow), useTick,
            new SessionOptions(), null, requestsStarted.SetResult, endRequests.Token, SliceContent.RequestsOnly);
        if (await Task.WhenAny(requestsStarted.Task, requests).ConfigureAwait(false) == requests)
        {
            return await requests.ConfigureAwait(false); // it could not start: its exception says why
        }
        var stop = StopReason.Canceled;
        try
        {
            stop = await LiveSlice.RecordAsync(client, processId, pass, passNumber, passCount, duration, outputFile(0), useTick, options, monitor, onStarted,
                cancellationToken, onRecorded: _ => endRequests.Cancel()).ConfigureAwait(false);
        }
        finally
        {
            await endRequests.CancelAsync().ConfigureAwait(false);
            stop = await requests.ConfigureAwait(false) == StopReason.ProcessExited ? StopReason.ProcessExited : stop;
        }
        return stop;
    }

    /// <summary>How long to wait before asking again for a window's session the runtime refused.</summary>
    private static readonly TimeSpan RefusedWindowPause = TimeSpan.FromMilliseconds(200);

    /// <summary>
    /// One window's recording. The counters' session spans the pass, so a runtime that refuses a window's session is still
    /// there: it may be exiting (then the pass ends), or refuse for a moment (a clean-clone CI run saw StartAsync fail with
    /// HRESULT 0x80004005 once): the window is asked for once more, then skipped (null) and noted on the pass.
    /// </summary>
    private static async Task<StopReason?> WindowAsync(int processId, PassAccumulator pass, Func<Task<StopReason>> record)
    {
        for (var attempt = 1; ; attempt++)
        {
            try
            {
                return await record().ConfigureAwait(false);
            }
            catch (Exception e) when (e is ProcessNotFoundException or NotDotNetProcessException or ServerErrorException)
            {
                if (!TargetProcess.Exists(processId))
                {
                    return StopReason.ProcessExited;
                }
                if (attempt == 2)
                {
                    lock (pass)
                    {
                        pass.SkippedWindows.Add(e.Message);
                    }
                    return null;
                }
            }
            await Task.Delay(RefusedWindowPause).ConfigureAwait(false);
        }
    }
}
