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

    public PassSummary ToSummary() => new()
    {
        Pass = Pass,
        StartedAt = StartedAt,
        Duration = Duration,
        Events = Figures.Events,
        Bytes = Bytes,
        ProcessId = ProcessId ?? Figures.ProcessId,
        Providers = Providers,
        AllocationEvent = Pass == MeasurementPasses.Allocations ? Figures.Allocations.EventKind : null,
        TraceFile = TraceFiles.Count > 0 ? TraceFiles[0] : null,
        TraceFiles = TraceFiles,
        CutShort = CutShort,
    };
}
