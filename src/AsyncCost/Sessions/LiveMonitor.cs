using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Threading.Channels;
using AsyncCost.Events;
using AsyncCost.Os;
using AsyncCost.Report;
using Microsoft.Diagnostics.NETCore.Client;

namespace AsyncCost.Sessions;

/// <summary>
/// One EventPipe session for a monitor's whole life. Its events feed one reader's computers, which the reader cuts into
/// intervals by the events' own timestamps (<see cref="EventReader.SplitIntoIntervals"/>); each interval is attributed by the
/// report builder like any report, on the reading thread, and its figures over its length are the snapshot's rates. A stream
/// that arrives late (a target writing TPL events faster than it can send them) still gives true per-second figures, later:
/// each snapshot says how far behind it is.
/// </summary>
internal static class LiveMonitor
{
    /// <summary>How long quitting waits for the runtime to acknowledge the stop before the stream is closed regardless.</summary>
    private static readonly TimeSpan QuitTimeout = TimeSpan.FromSeconds(2);

    public static async IAsyncEnumerable<MonitorSnapshot> RunAsync(int processId, MonitorOptions options,
        [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(options);
        if (options.Interval < TimeSpan.FromMilliseconds(100) || (options.Passes & MeasurementPasses.All) == 0)
        {
            throw new ArgumentOutOfRangeException(nameof(options), "The interval must be at least 100 ms and at least one pass chosen.");
        }
        cancellationToken.ThrowIfCancellationRequested();
        var warnings = new List<ReportWarning>();
        var (methods, runtimeVersion, useTick) = SessionRunner.PrepareAttach(processId, new SessionOptions { Passes = options.Passes }, warnings);
        // Two counter payloads per interval, so no interval falls between two of them.
        var counterInterval = options.Interval.TotalSeconds / 2;
        // No rundown: nothing is named at the end; methods jitted before the session are named from the assemblies it maps,
        // those jitted since from the JIT events.
        var configuration = new EventPipeSessionConfiguration(Providers.Combined(options.Passes, useTick, counterInterval), options.BufferSizeMb,
            rundownKeyword: 0, requestStackwalk: false);
        var source = new ReportSource
        {
            Kind = SourceKind.Attach,
            ProcessId = processId,
            ProcessName = SessionRunner.ProcessName(processId),
            CommandLine = ProcFs.ReadCommandLine(processId),
            RuntimeVersion = runtimeVersion,
        };

        using var session = await LiveSlice.OpenSessionAsync(await DiagnosticEndpoints.ClientForAsync(processId, cancellationToken).ConfigureAwait(false), configuration, processId, cancellationToken).ConfigureAwait(false);
        var clock = Stopwatch.StartNew();
        var switches = new SwitchHistory(ThreadSwitchMonitor.Start(processId), clock);
        var snapshots = Channel.CreateUnbounded<MonitorSnapshot>(new UnboundedChannelOptions { SingleReader = true, SingleWriter = true });
        var build = new SnapshotBuilder(options, source, switches, clock, counterInterval, warnings);
        var reader = new EventReader(methods);
        reader.SplitIntoIntervals(options.Interval, (interval, end) => snapshots.Writer.TryWrite(build.Snapshot(interval, end, StopReason.DurationElapsed)));
        var stream = new CountingStream(session.EventStream, null);
        var reading = Task.Factory.StartNew(() =>
        {
            LiveSlice.ReadToEnd(stream, reader);
            // The stream ended: the runtime shut down (the process exited), or the monitor closed it to quit.
            snapshots.Writer.TryWrite(build.Snapshot(reader.TakeInterval(), reader.LastEventTime, StopReason.ProcessExited));
            snapshots.Writer.Complete();
        }, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);
        try
        {
            using var polling = new PeriodicProgress(TimeSpan.FromMilliseconds(100), switches.Poll);
            while (await HasMoreAsync(snapshots.Reader, cancellationToken).ConfigureAwait(false))
            {
                while (!cancellationToken.IsCancellationRequested && snapshots.Reader.TryRead(out var snapshot))
                {
                    yield return snapshot;
                }
            }
        }
        finally
        {
            if (!reading.IsCompleted)
            {
                await QuitAsync(session, reading).ConfigureAwait(false);
            }
            await stream.DisposeAsync().ConfigureAwait(false);
        }
    }

    /// <summary>Waits for the next snapshot; false once the stream has ended and all were read, or when cancelled.</summary>
    private static async Task<bool> HasMoreAsync(ChannelReader<MonitorSnapshot> snapshots, CancellationToken cancellationToken)
    {
        try
        {
            return await snapshots.WaitToReadAsync(cancellationToken).ConfigureAwait(false);
        }
        catch (OperationCanceledException)
        {
            return false;
        }
    }

    /// <summary>Stops the session without reading what the runtime still had buffered: the target stops tracing at once, and a
    /// backlog of late events is not worth waiting for once the user quit.</summary>
    private static async Task QuitAsync(EventPipeSession session, Task reading)
    {
        try
        {
            using var timeout = new CancellationTokenSource(QuitTimeout);
            await session.StopAsync(timeout.Token).ConfigureAwait(false);
        }
        catch (Exception e) when (e is ServerNotAvailableException or IOException or OperationCanceledException or EndOfStreamException or TimeoutException)
        {
            // Already gone or not answering: closing the stream below ends the reader either way.
        }
        session.Dispose();
        await reading.ConfigureAwait(false);
    }

    /// <summary>Turns one interval's figures into a snapshot (on the reading thread, so the method catalog holds still).</summary>
    private sealed class SnapshotBuilder(MonitorOptions options, ReportSource source, SwitchHistory switches, Stopwatch clock,
        double counterIntervalSeconds, List<ReportWarning> startWarnings)
    {
        private int _number;
        private TimeSpan _lastEnd;

        public MonitorSnapshot Snapshot(EventReader interval, TimeSpan end, StopReason stop)
        {
            var start = _lastEnd;
            end = end > start ? end : start;
            _lastEnd = end;
            var span = end - start;
            var figures = PassFigures.Of(interval);
            var passes = new List<PassResult>();
            if (options.Passes.HasFlag(MeasurementPasses.Allocations))
            {
                passes.Add(new PassResult { Pass = MeasurementPasses.Allocations, Figures = figures, Duration = span, ProcessId = source.ProcessId });
            }
            if (options.Passes.HasFlag(MeasurementPasses.Hops))
            {
                // Sharing the session, the hop pass adds only its hop figures: events, losses and counters are counted once.
                var hopFigures = passes.Count == 0 ? figures : new PassFigures();
                if (passes.Count > 0)
                {
                    hopFigures.Hops.Add(interval.Hops);
                }
                passes.Add(new PassResult { Pass = MeasurementPasses.Hops, Figures = hopFigures, Duration = span, ProcessId = source.ProcessId });
            }
            var warnings = _number == 0 ? startWarnings : [];
            var report = new ReportBuilder(interval.Methods).Build(source, passes, [], stop, cutShort: false, warnings) with { Duration = span };
            var seconds = Math.Max(span.TotalSeconds, 1e-3);
            var counters = interval.Counters;
            var switched = switches.Between(start, end);
            return new MonitorSnapshot
            {
                Number = ++_number,
                Elapsed = end,
                Interval = span,
                Behind = clock.Elapsed - end,
                Report = report,
                Methods = [.. report.Methods.Select(m => new MethodRates(m.MethodKey, m.DisplayName,
                    m.Bytes?.Value / seconds, m.Objects?.Value / seconds, m.Calls?.Value / seconds, m.Hops?.Value / seconds))],
                Process = new ProcessRates(
                    source.ProcessName,
                    counters.CompletedWorkItemsSamples > 0 ? counters.CompletedWorkItems / (counters.CompletedWorkItemsSamples * counterIntervalSeconds) : null,
                    counters.MaxQueueLength,
                    counters.MaxThreadCount,
                    switched?.Voluntary / seconds,
                    switched?.Involuntary / seconds,
                    figures.EventsLost),
            };
        }
    }

    /// <summary>
    /// The target's context switches (all threads) read from /proc every poll, with the time of each reading, so an interval of
    /// the event stream gets the switches of the same stretch of time however late its events arrived. The stream's timestamps
    /// and this clock both start as the session starts.
    /// </summary>
    private sealed class SwitchHistory(ThreadSwitchMonitor? monitor, Stopwatch clock)
    {
        /// <summary>Readings kept: ten minutes at one per 100 ms, more than a stream falls behind before it drops events.</summary>
        private const int Capacity = 6_000;

        private readonly Lock _gate = new();
        private readonly List<(TimeSpan At, long Voluntary, long Involuntary)> _readings = [];

        public void Poll()
        {
            if (monitor is null)
            {
                return;
            }
            lock (_gate)
            {
                var threads = monitor.Results();
                _readings.Add((clock.Elapsed, threads.Sum(t => t.Voluntary), threads.Sum(t => t.Involuntary)));
                if (_readings.Count > Capacity)
                {
                    _readings.RemoveRange(0, _readings.Count - Capacity);
                }
            }
        }

        /// <summary>Switches between two moments (the readings nearest before each), or null without /proc or readings.</summary>
        public (double Voluntary, double Involuntary)? Between(TimeSpan from, TimeSpan to)
        {
            lock (_gate)
            {
                if (monitor is null || _readings.Count == 0)
                {
                    return null;
                }
                var (_, startVoluntary, startInvoluntary) = At(from);
                var (_, endVoluntary, endInvoluntary) = At(to);
                return (endVoluntary - startVoluntary, endInvoluntary - startInvoluntary);
            }
        }

        private (TimeSpan At, long Voluntary, long Involuntary) At(TimeSpan moment)
        {
            var index = _readings.FindLastIndex(r => r.At <= moment);
            return index >= 0 ? _readings[index] : (TimeSpan.Zero, 0, 0);
        }
    }
}
