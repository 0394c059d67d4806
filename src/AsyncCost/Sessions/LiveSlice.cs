using AsyncCost.Attribution;
using AsyncCost.Computers;
using AsyncCost.Events;
using AsyncCost.Os;
using AsyncCost.Report;
using Microsoft.Diagnostics.NETCore.Client;
using Microsoft.Diagnostics.Tracing;

namespace AsyncCost.Sessions;

/// <summary>Accumulates the slices of one pass kind (an attached session may alternate passes in slices).</summary>
internal sealed class PassAccumulator(MeasurementPasses pass, MethodCatalog methods)
{
    public MeasurementPasses Pass { get; } = pass;
    public MethodCatalog Methods { get; } = methods;

    /// <summary>The slices' figures: each slice is read on its own and added, as `report` adds the slices' trace files.</summary>
    public PassFigures Figures { get; } = new();
    public DateTimeOffset? StartedAt { get; set; }
    public TimeSpan Duration { get; set; }
    public long Bytes { get; set; }
    public int? ProcessId { get; set; }
    public IReadOnlyList<string> Providers { get; set; } = [];
    public List<string> TraceFiles { get; } = [];
    public bool CutShort { get; set; }

    /// <summary>The operations the run did and the seconds they took, when known (see <see cref="PassSummary.Operations"/>).</summary>
    public long? Operations { get; set; }
    public double? OperationSeconds { get; set; }

    /// <summary>True when the pass records Kestrel's requests in a session of its own beside it (an attached process that
    /// loaded Kestrel): its operations are then its requests.</summary>
    public bool RecordRequests { get; init; }

    /// <summary>The time a windowed hop pass's counters sessions covered: its windows and the time between them.</summary>
    public TimeSpan CountersDuration { get; set; }

    /// <summary>Time between a windowed hop pass's windows, when only its counters session recorded (as `report` reckons it
    /// from the saved traces).</summary>
    public TimeSpan Unrecorded => CountersDuration > Duration ? CountersDuration - Duration : TimeSpan.Zero;

    /// <summary>Why each skipped window of a windowed hop pass was skipped: the runtime refused its session twice.</summary>
    public List<string> SkippedWindows { get; } = [];

    /// <summary>A windowed hop pass's counters, read by one session over the whole pass, windows and the time between them.</summary>
    public CounterComputer WindowedPassCounters { get; } = new();

    public PassResult ToResult() => new()
    {
        Pass = Pass,
        Figures = Figures,
        StartedAt = StartedAt ?? default,
        Duration = Duration,
        Bytes = Bytes,
        ProcessId = ProcessId,
        Providers = Providers,
        TraceFiles = TraceFiles,
        CutShort = CutShort,
        Operations = Operations,
        OperationSeconds = OperationSeconds,
        Unrecorded = Unrecorded,
        WindowedPassCounters = CountersDuration > TimeSpan.Zero ? WindowedPassCounters : null,
    };
}

/// <summary>What one live session records.</summary>
internal enum SliceContent
{
    /// <summary>The pass's providers, and method rundown when the session stops.</summary>
    Pass,

    /// <summary>The first window of a windowed hop pass: the pass's providers but the counters (their own session reads them), and rundown.</summary>
    FirstWindow,

    /// <summary>A later window: as the first, without rundown (the first window's rundown named the methods jitted before, the
    /// JIT events name those jitted since).</summary>
    Window,

    /// <summary>The System.Runtime counters and Kestrel's requests, over a windowed hop pass.</summary>
    CountersOnly,

    /// <summary>Kestrel's requests alone, beside a pass of an attached process that runs Kestrel (no stack walks, no rundown).</summary>
    RequestsOnly,
}

/// <summary>Records one live EventPipe session slice into a pass accumulator and says why it stopped.</summary>
internal static class LiveSlice
{
    /// <summary>How long to wait for the stream to end after asking the runtime to stop (dotnet-trace's stop can hang: diagnostics#892).</summary>
    private static readonly TimeSpan StopTimeout = TimeSpan.FromSeconds(15);

    /// <summary>A counters-only session writes a few hundred events a second.</summary>
    private const int CountersBufferSizeMb = 4;

    /// <summary>How long a starting runtime may refuse connections before the refusal counts.</summary>
    private static readonly TimeSpan StartingRuntimeGrace = TimeSpan.FromSeconds(3);

    /// <summary>
    /// Starts the EventPipe session, retrying briefly while the connection is refused: a starting runtime's socket exists
    /// before it listens, and a stale socket left by a dead process with the same (recycled) pid is picked until the new
    /// runtime's own socket appears. Another user's socket refuses for good: no retry.
    /// </summary>
    private static async Task<EventPipeSession> StartSessionAsync(
        DiagnosticsClient client, EventPipeSessionConfiguration configuration, int processId, CancellationToken cancellationToken)
    {
        var deadline = DateTime.UtcNow + StartingRuntimeGrace;
        while (true)
        {
            try
            {
                return await client.StartEventPipeSessionAsync(configuration, cancellationToken).ConfigureAwait(false);
            }
            catch (ServerNotAvailableException) when (DateTime.UtcNow < deadline && TargetProcess.Exists(processId) && !TargetProcess.BelongsToAnotherUser(processId))
            {
                await Task.Delay(TimeSpan.FromMilliseconds(100), cancellationToken).ConfigureAwait(false);
            }
        }
    }

    /// <summary>Starts the session, telling why the process refused it: gone, another user's, or no .NET runtime listening.</summary>
    internal static async Task<EventPipeSession> OpenSessionAsync(
        DiagnosticsClient client, EventPipeSessionConfiguration configuration, int processId, CancellationToken cancellationToken)
    {
        try
        {
            return await StartSessionAsync(client, configuration, processId, cancellationToken).ConfigureAwait(false);
        }
        catch (Exception e) when (e is ServerNotAvailableException or EndOfStreamException or IOException)
        {
            if (!TargetProcess.Exists(processId))
            {
                throw new ProcessNotFoundException(processId);
            }
            if (TargetProcess.BelongsToAnotherUser(processId))
            {
                // The runtime's socket is private to its user: connect fails with EACCES, reported as ServerNotAvailable.
                throw new AccessDeniedException(processId, e);
            }
            throw new NotDotNetProcessException($"Process {processId} refused the EventPipe session: {e.Message}", e);
        }
        catch (UnauthorizedAccessException e)
        {
            throw new AccessDeniedException(processId, e);
        }
    }

    /// <summary>Starts the session (the caller resumes a suspended runtime through <paramref name="onStarted"/>), records until the
    /// duration, cancellation or the end of the stream, parses what it spooled, and returns the stop reason;
    /// <paramref name="onRecorded"/> hears the reason as soon as the recording has stopped, before the parsing ends.</summary>
    public static async Task<StopReason> RecordAsync(DiagnosticsClient client, int processId, PassAccumulator pass, int passNumber, int passCount,
        TimeSpan? duration, string? outputFile, bool useAllocationTick, SessionOptions options, ThreadSwitchMonitor? monitor,
        Action? onStarted, CancellationToken cancellationToken, SliceContent content = SliceContent.Pass, double? counterIntervalSeconds = null,
        Action<StopReason>? onRecorded = null)
    {
        cancellationToken.ThrowIfCancellationRequested();
        var countersOnly = content == SliceContent.CountersOnly;
        var requestsOnly = content == SliceContent.RequestsOnly;
        var beside = countersOnly || requestsOnly; // a session beside the pass's own, which adds only its counters or requests
        var interval = counterIntervalSeconds ?? options.CounterIntervalSeconds;
        IReadOnlyList<EventPipeProvider> providers = countersOnly ? Providers.CountersOnly(interval)
            : requestsOnly ? Providers.RequestsOnly()
            : content == SliceContent.Pass ? Providers.For(pass.Pass, useAllocationTick, interval)
            : [.. Providers.For(pass.Pass, useAllocationTick, interval).Where(p => p.Name != KnownEvents.CountersProvider)];
        var configuration = new EventPipeSessionConfiguration(providers, beside ? CountersBufferSizeMb : options.BufferSizeMb,
            content is SliceContent.Pass or SliceContent.FirstWindow ? Providers.RundownKeywords : 0,
            // The allocation pass's stacks charge each sample to the code that made it (one sample per ~100 KB allocated).
            (options.StackWalks || pass.Pass is MeasurementPasses.Cpu or MeasurementPasses.Allocations) && !beside);
        var session = await OpenSessionAsync(client, configuration, processId, cancellationToken).ConfigureAwait(false);
        using (session)
        {
            using var stream = SpooledStream.Start(session.EventStream, outputFile);
            onStarted?.Invoke();
            pass.StartedAt ??= DateTimeOffset.Now;
            pass.ProcessId = processId;
            if (!beside)
            {
                pass.Providers = Providers.Describe(providers);
            }
            if (outputFile is not null)
            {
                pass.TraceFiles.Add(outputFile);
            }
            var clock = System.Diagnostics.Stopwatch.StartNew();
            var reader = new EventReader(pass.Methods);
            var reading = Task.Factory.StartNew(() => ReadToEnd(stream.Reader, reader), CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);
            // /proc is polled every 100 ms so threads that exit (or a child that ends) keep nearly all their switches; progress every 500 ms.
            var ticks = 0;
            using var ticker = new PeriodicProgress(TimeSpan.FromMilliseconds(100), () =>
            {
                monitor?.Poll();
                if (++ticks % 5 == 0)
                {
                    options.Progress?.Report(new SessionProgress(pass.Pass, passNumber, passCount, clock.Elapsed, reader.Events, stream.BytesRead, stream.BytesReceived));
                }
            });

            StopReason reason;
            TimeSpan recorded;
            using (var stopSignal = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken))
            {
                if (duration is { } limit)
                {
                    stopSignal.CancelAfter(limit);
                }
                var stopped = Task.Delay(Timeout.Infinite, stopSignal.Token);
                var first = await Task.WhenAny(stream.Received, stopped).ConfigureAwait(false);
                // What was recorded ends here: stopping the session and parsing the events spooled behind the reader (seconds
                // on a hop pass) come after, and those events were written before this moment.
                recorded = clock.Elapsed;
                if (first == stream.Received)
                {
                    reason = StopReason.ProcessExited;
                }
                else
                {
                    reason = cancellationToken.IsCancellationRequested ? StopReason.Canceled : StopReason.DurationElapsed;
                    await StopAsync(session, stream.Received).ConfigureAwait(false);
                }
            }
            onRecorded?.Invoke(reason);
            await Task.WhenAny(reading).ConfigureAwait(false); // progress goes on while the spooled events are parsed
            stream.ThrowIfWriteFailed();
            if (pass.Pass is MeasurementPasses.Cpu or MeasurementPasses.Allocations && !beside)
            {
                // The method events read above name the stacks' frames; TraceLog needs the whole file to place them. The token
                // stopped the recording (an attached session ends so): what was recorded is read whole, as the stream was.
                StackSampleReader.ReadInto(stream.FilePath, reader, pass.Methods, CancellationToken.None);
            }
            await ticker.DisposeAsync().ConfigureAwait(false);
            lock (pass) // a windowed hop pass parses one window while it records the next
            {
                // The time a slice covers is its events' own (to the last one before the stop), as `report` reads it from the
                // saved trace, so the live report and the report of its traces are the same; the tool's clock only when the
                // slice had no event to tell.
                if (countersOnly)
                {
                    pass.WindowedPassCounters.Add(reader.Counters);
                    pass.Figures.Requests.Add(reader.Requests);
                    pass.CountersDuration += reader.Duration ?? recorded;
                }
                else if (requestsOnly)
                {
                    pass.Figures.Requests.Add(reader.Requests);
                }
                else
                {
                    pass.Figures.Add(reader);
                    pass.Duration += reader.Duration ?? recorded;
                }
                pass.Bytes += stream.BytesRead;
            }
            options.Progress?.Report(new SessionProgress(pass.Pass, passNumber, passCount, clock.Elapsed, reader.Events, stream.BytesRead, stream.BytesReceived));
            return reason;
        }
    }

    internal static void ReadToEnd(Stream stream, EventReader reader)
    {
        try
        {
            using var source = new EventPipeEventSource(stream);
            reader.Process(source);
        }
        catch (Exception e) when (e is EndOfStreamException or IOException or ObjectDisposedException or FormatException or InvalidOperationException)
        {
            // The process went away mid-block (or the stream was closed after a stop timeout): what was read is kept.
        }
    }

    private static async Task StopAsync(EventPipeSession session, Task received)
    {
        try
        {
            using var timeout = new CancellationTokenSource(StopTimeout);
            await session.StopAsync(timeout.Token).ConfigureAwait(false);
        }
        catch (Exception e) when (e is ServerNotAvailableException or IOException or OperationCanceledException or EndOfStreamException or TimeoutException)
        {
            // Already gone or not answering: the stream ends below either way.
        }
        if (await Task.WhenAny(received, Task.Delay(StopTimeout)).ConfigureAwait(false) != received)
        {
            session.Dispose(); // closes the stream, so the spool ends with what it has
        }
    }
}

/// <summary>Runs a callback periodically on the thread pool until disposed; disposal waits for a running callback.</summary>
internal sealed class PeriodicProgress : IAsyncDisposable, IDisposable
{
    private readonly Timer _timer;

    public PeriodicProgress(TimeSpan period, Action tick) => _timer = new Timer(_ => tick(), null, period, period);

    public ValueTask DisposeAsync() => _timer.DisposeAsync();

    public void Dispose() => _timer.Dispose();
}
