using AsyncCost.Computers;

namespace AsyncCost.Report;

/// <summary>One pass's raw outcome, before it is merged into the report.</summary>
internal sealed class PassResult
{
    public required MeasurementPasses Pass { get; init; }
    public required PassFigures Figures { get; init; }
    public DateTimeOffset StartedAt { get; init; }
    public TimeSpan Duration { get; init; }
    public long Bytes { get; init; }
    public int? ProcessId { get; init; }
    public IReadOnlyList<string> Providers { get; init; } = [];
    public IReadOnlyList<string> TraceFiles { get; init; } = [];
    public bool CutShort { get; init; }
    public long? Operations { get; init; }
    public double? OperationSeconds { get; init; }

    /// <summary>Time between a windowed hop pass's windows (recorded with counters only); zero when the pass recorded continuously.</summary>
    public TimeSpan Unrecorded { get; init; }

    /// <summary>A windowed hop pass's counters, over the whole pass; null when the pass recorded continuously.</summary>
    public CounterComputer? WindowedPassCounters { get; init; }

    /// <summary>The interval of <see cref="WindowedPassCounters"/>' work-item counter, whose last interval is never reported;
    /// zero when the count was read exactly (in process, <c>ThreadPool.CompletedWorkItemCount</c>).</summary>
    public TimeSpan CounterInterval { get; init; } = TimeSpan.FromSeconds(HopScale.CounterIntervalSeconds);

    /// <summary>The pass's summary. A pass that knows no operations otherwise and saw requests complete (an ASP.NET Core
    /// process) has its requests as its operations: every per-operation figure is then per request.</summary>
    public PassSummary ToSummary()
    {
        var seconds = (Duration + Unrecorded).TotalSeconds;
        var requests = ElapsedTime.Requests(Figures.Requests, seconds);
        var perRequest = Operations is null && requests is not null;
        return new()
        {
            Pass = Pass,
            StartedAt = StartedAt,
            Duration = Duration,
            Events = Figures.Events,
            EventsLost = Figures.EventsLost,
            Bytes = Bytes,
            ProcessId = ProcessId ?? Figures.ProcessId,
            Providers = Providers,
            AllocationEvent = Pass == MeasurementPasses.Allocations ? Figures.Allocations.EventKind : null,
            TraceFile = TraceFiles.Count > 0 ? TraceFiles[0] : null,
            TraceFiles = TraceFiles,
            CutShort = CutShort,
            Unrecorded = Unrecorded > TimeSpan.Zero ? Unrecorded : null,
            Operations = perRequest ? requests!.Completed : Operations,
            OperationKind = perRequest ? OperationKind.Request : OperationKind.Operation,
            OperationSeconds = OperationSeconds,
            Requests = requests,
        };
    }
}
