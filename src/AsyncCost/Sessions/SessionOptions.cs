using AsyncCost.Report;

namespace AsyncCost.Sessions;

/// <summary>What a session measures and for how long.</summary>
public sealed class SessionOptions
{
    /// <summary>The passes to run (default both: allocations first, then hops).</summary>
    public MeasurementPasses Passes { get; init; } = MeasurementPasses.All;

    /// <summary>Total recording time over all passes; null records until cancelled or the process exits.
    /// With several passes on an attached process the time is split evenly between them (without a duration they alternate in
    /// 5-second slices until cancelled, and each pass's figures add up over its slices); a launched command runs once per pass,
    /// each run recorded until it exits or for this duration.</summary>
    public TimeSpan? Duration { get; init; }

    /// <summary>How many operations each run of a launched command does (every pass launches it once); null reads the count
    /// from each run's output instead ("asynccost: N operations [in S s]", see <see cref="PassSummary.Operations"/>). A run
    /// the tool cuts short (the duration elapsed, or stopped) did not do them: its pass's count stays unknown.</summary>
    public long? Operations { get; init; }

    /// <summary>Where to keep the recorded .nettrace. With more than one pass each pass writes
    /// "&lt;name&gt;.&lt;pass&gt;.nettrace" beside it (e.g. app.allocations.nettrace, app.hops.nettrace).</summary>
    public string? OutputTracePath { get; init; }

    /// <summary>Receives a progress snapshot about twice a second while recording (for a status line).</summary>
    public IProgress<SessionProgress>? Progress { get; init; }

    /// <summary>Collect stack walks with the hop pass's events too (off by default: they cost a lot there, and its hops are
    /// charged by the state machines' names); the cpu and allocation passes always take them.</summary>
    public bool StackWalks { get; init; }

    /// <summary>EventPipe circular buffer size in MB (events are dropped, never retained, when the reader falls behind); the
    /// runtime allocates it as events wait for the reader, up to this size. A hop window of 1 s on hop-heavy code needs about
    /// all of the default (benchmarks/results/HopKeywords.md).</summary>
    public int BufferSizeMb { get; init; } = PassProviders.BufferSizeMb;

    /// <summary>The share of the hop pass's time that is recorded, in (0, 1]; 1 records it continuously. Null (the default):
    /// <see cref="AttachedHopDutyCycle"/> on a process that is attached, which a live service can bear, and continuously for a
    /// launched command, which runs once per pass for the measurement alone. Continuous tracing counts every hop, but hop-heavy
    /// code runs many times slower under it (benchmarks/results/WebShopOverhead.md).
    /// Below 1 the hop pass records windows of <see cref="HopWindow"/> and, between them, only the System.Runtime counters, so
    /// the process runs untraced most of the time: per-call figures (hops/call) come from the windows as they are, and counts
    /// are scaled by the thread pool's own completed work items, with an error bound from the windows' spread. A window whose
    /// session the runtime refuses is tried once more, then skipped with a warning; the recording goes on.</summary>
    public double? HopDutyCycle { get; init; }

    /// <summary>The hop pass's duty cycle on an attached process when <see cref="HopDutyCycle"/> is not set: one window of
    /// <see cref="HopWindow"/> in every twenty (one 0.5 s window in 10 s). At one in ten the sample web service spent a median
    /// 10.4–11.3 % more CPU per request attached; at one in twenty 7–8 % (benchmarks/results/WebShopAttached.md). A count
    /// then rests on fewer windows: its bound says so.</summary>
    public const double AttachedHopDutyCycle = 0.05;

    /// <summary>The length of one hop window when <see cref="HopDutyCycle"/> is below 1. Each window's edges cost a little
    /// accuracy (calls and hops cut off as the providers are switched), each window's length a buffer to match
    /// (benchmarks/results/HopKeywords.md). Half a second: one window in each 5-second slice of an attach without a duration;
    /// 1 s windows there traced a fifth of the hop slices' time, and the sample web service lost 18 % of its throughput
    /// attached without a duration, against 12 % with 0.5 s windows. Shorter windows cost no less per traced second at the
    /// attached default (0.25 s windows twice as often cost the same, 7.1–7.7 %) and never time a call longer than
    /// themselves (benchmarks/results/WebShopAttached.md).</summary>
    public TimeSpan HopWindow { get; init; } = TimeSpan.FromSeconds(0.5);

    /// <summary>Use GCAllocationTick even where AllocationSampled exists (tests of the fallback).</summary>
    internal bool ForceAllocationTick { get; init; }

    /// <summary>Interval of System.Runtime counters in seconds.</summary>
    public int CounterIntervalSeconds { get; init; } = 1;
}

/// <summary>A snapshot of a running session, for a status line.</summary>
/// <param name="Pass">The pass being recorded.</param>
/// <param name="PassNumber">1-based number of the pass.</param>
/// <param name="PassCount">How many passes will run.</param>
/// <param name="Elapsed">Time recorded so far in this pass.</param>
/// <param name="Events">Events read so far in this pass.</param>
/// <param name="Bytes">Bytes of EventPipe stream parsed so far in this pass.</param>
/// <param name="BytesReceived">Bytes of EventPipe stream received so far in this pass: the stream is saved as it arrives and
/// parsed behind, so on event-heavy code parsing can end seconds after the recording.</param>
public sealed record SessionProgress(MeasurementPasses Pass, int PassNumber, int PassCount, TimeSpan Elapsed, long Events, long Bytes, long BytesReceived);

/// <summary>How far the reading of saved traces has got, for a status line.</summary>
/// <param name="File">The trace being read.</param>
/// <param name="FileNumber">1-based number of that trace among those read.</param>
/// <param name="FileCount">How many traces will be read.</param>
/// <param name="Elapsed">Time spent reading so far, all traces.</param>
/// <param name="Events">Events read so far from this trace.</param>
/// <param name="BytesRead">Bytes read so far from this trace.</param>
/// <param name="FileBytes">The trace's size in bytes.</param>
public sealed record TraceReadProgress(string File, int FileNumber, int FileCount, TimeSpan Elapsed, long Events, long BytesRead, long FileBytes);

/// <summary>A command to launch suspended on a diagnostic port.</summary>
public sealed class LaunchCommand
{
    /// <summary>The program (a path, or a name looked up on PATH).</summary>
    public required string FileName { get; init; }

    /// <summary>Its arguments, passed as-is (no shell quoting).</summary>
    public IReadOnlyList<string> Arguments { get; init; } = [];

    /// <summary>Working directory; null for the current one.</summary>
    public string? WorkingDirectory { get; init; }

    /// <summary>Extra environment variables for the child.</summary>
    public IReadOnlyDictionary<string, string> Environment { get; init; } = new Dictionary<string, string>();

    /// <summary>Receives each line the child writes to stdout; null lets the child write to this process's stdout directly.</summary>
    public Action<string>? StandardOutput { get; init; }

    /// <summary>Receives each line the child writes to stderr; null lets the child write to this process's stderr directly.</summary>
    public Action<string>? StandardError { get; init; }

    /// <summary>How long to wait for the child's runtime to connect to the diagnostic port before giving up.</summary>
    public TimeSpan ConnectTimeout { get; init; } = TimeSpan.FromSeconds(30);
}
