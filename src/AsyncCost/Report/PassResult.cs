using AsyncCost.Events;

namespace AsyncCost.Report;

/// <summary>One pass's raw outcome, before it is merged into the report.</summary>
internal sealed class PassResult
{
    public required MeasurementPasses Pass { get; init; }
    public required EventReader Reader { get; init; }
    public DateTimeOffset StartedAt { get; init; }
    public TimeSpan Duration { get; init; }
    public long Bytes { get; init; }
    public int? ProcessId { get; init; }
    public IReadOnlyList<string> Providers { get; init; } = [];
    public string? TraceFile { get; init; }
    public bool CutShort { get; init; }

    public PassSummary ToSummary() => new()
    {
        Pass = Pass,
        StartedAt = StartedAt,
        Duration = Duration,
        Events = Reader.Events,
        Bytes = Bytes,
        ProcessId = ProcessId ?? Reader.ProcessId,
        Providers = Providers,
        AllocationEvent = Pass == MeasurementPasses.Allocations ? Reader.Allocations.EventKind : null,
        TraceFile = TraceFile,
        CutShort = CutShort,
    };
}
