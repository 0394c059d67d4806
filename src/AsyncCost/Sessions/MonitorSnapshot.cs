using AsyncCost.Report;

namespace AsyncCost.Sessions;

/// <summary>What <see cref="AsyncCostSession.MonitorAsync"/> records.</summary>
public sealed class MonitorOptions
{
    /// <summary>The streams the one session carries: allocations (AllocationSampled; the default), hops (TplEventSource and
    /// FrameworkEventSource), or both. The hop stream is on for the session's whole life: an EventPipe session's providers are
    /// fixed when it starts (the diagnostics protocol has no command to change them), so it cannot be duty-cycled as the
    /// in-process instrumentation does without a session per window. TPL events cost on every await (on a Task.Yield loop they
    /// slow the target by two orders of magnitude and arrive seconds late), hence opt-in; with both, allocation figures carry the
    /// TPL observer effect (the interval's report says so).</summary>
    public MeasurementPasses Passes { get; init; } = MeasurementPasses.Allocations;

    /// <summary>How much of the target's time each snapshot covers (default one second), by the events' timestamps.</summary>
    public TimeSpan Interval { get; init; } = TimeSpan.FromSeconds(1);

    /// <summary>EventPipe circular buffer size in MB.</summary>
    public int BufferSizeMb { get; init; } = PassProviders.BufferSizeMb;
}

/// <summary>One refresh of a live session: what the interval since the previous one measured, as per-second rates.</summary>
public sealed record MonitorSnapshot
{
    /// <summary>1 for the first snapshot of the session, then one more per snapshot.</summary>
    public int Number { get; init; }

    /// <summary>When the interval ended, from the session's start, by the events' own timestamps.</summary>
    public TimeSpan Elapsed { get; init; }

    /// <summary>The time this snapshot covers (<see cref="MonitorOptions.Interval"/>; the last one may be shorter).</summary>
    public TimeSpan Interval { get; init; }

    /// <summary>How long after the interval ended the snapshot was made: about zero when events arrive as they are written;
    /// more when the target writes events faster than it sends them (a continuous hop stream on hop-heavy code), so the
    /// figures are true for their interval but late.</summary>
    public TimeSpan Behind { get; init; }

    /// <summary>The interval's own report: figures of that interval alone, attributed as any report's are
    /// (<see cref="AsyncCostReport.StopReason"/> says whether the session goes on).</summary>
    public required AsyncCostReport Report { get; init; }

    /// <summary>Per-method rates, most bytes per second first, then most hops per second.</summary>
    public IReadOnlyList<MethodRates> Methods { get; init; } = [];

    /// <summary>Whole-process figures of the interval.</summary>
    public required ProcessRates Process { get; init; }
}

/// <summary>One async method's figures per second over a snapshot's interval; null when the stream behind it is off.</summary>
/// <param name="MethodKey">The join key the analyzer's SARIF carries.</param>
/// <param name="DisplayName">A readable name.</param>
/// <param name="BytesPerSecond">Estimated bytes allocated per second (allocation stream).</param>
/// <param name="ObjectsPerSecond">Estimated objects allocated per second (allocation stream).</param>
/// <param name="CallsPerSecond">Calls per second, as the report counts <see cref="MethodCost.Calls"/>.</param>
/// <param name="HopsPerSecond">Thread-pool hops per second (hop stream).</param>
public sealed record MethodRates(string MethodKey, string DisplayName, double? BytesPerSecond, double? ObjectsPerSecond, double? CallsPerSecond, double? HopsPerSecond);

/// <summary>Whole-process figures of a snapshot's interval; null when not available.</summary>
/// <param name="ProcessName">The process's name.</param>
/// <param name="CompletedWorkItemsPerSecond">Thread-pool work items completed per second (System.Runtime counter, over the
/// counter payloads of the interval).</param>
/// <param name="MaxThreadPoolQueueLength">Largest thread-pool queue length reported in the interval.</param>
/// <param name="MaxThreadPoolThreads">Largest thread-pool thread count reported in the interval.</param>
/// <param name="VoluntarySwitchesPerSecond">Voluntary context switches per second, all threads (/proc).</param>
/// <param name="InvoluntarySwitchesPerSecond">Involuntary context switches per second, all threads (/proc).</param>
/// <param name="EventsLost">Events the runtime dropped in the interval (buffer full): the interval's figures are low.</param>
public sealed record ProcessRates(string? ProcessName, double? CompletedWorkItemsPerSecond, double? MaxThreadPoolQueueLength, double? MaxThreadPoolThreads,
    double? VoluntarySwitchesPerSecond, double? InvoluntarySwitchesPerSecond, long EventsLost);
