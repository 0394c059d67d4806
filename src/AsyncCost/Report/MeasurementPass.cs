using System.ComponentModel;

namespace AsyncCost.Report;

/// <summary>
/// A measurement pass: one EventPipe session with one set of providers. Allocation figures come only from the
/// allocation pass (TPL events off), because enabling TplEventSource changes what the runtime allocates per await.
/// </summary>
[Flags]
public enum MeasurementPasses
{
    /// <summary>No pass.</summary>
    None = 0,

    /// <summary>Allocation sampling with TPL events off: bytes and objects per method, GC and counter totals.</summary>
    Allocations = 1,

    /// <summary>TplEventSource and FrameworkEventSource on: thread-pool hops, continuations, blocking waits per method.</summary>
    Hops = 2,

    /// <summary>The allocation and hop passes, allocations first (what `collect` runs unless told otherwise).</summary>
    All = Allocations | Hops,

    /// <summary>The sample profiler with managed stacks (opt-in): time per async method, running and blocked in waits, seen
    /// from the stacks, so methods that complete synchronously without allocating are measured too.</summary>
    Cpu = 4,
}

/// <summary>The pass one figure came from.</summary>
public enum FigureSource
{
    /// <summary>The allocation pass (TPL off).</summary>
    AllocationPass,

    /// <summary>The hop pass (TPL on: its allocation figures would include the observer effect).</summary>
    HopPass,

    /// <summary>Read from /proc or in-process counters, independent of the EventPipe passes.</summary>
    OperatingSystem,

    /// <summary>The CPU pass (stack samples).</summary>
    CpuPass,
}

/// <summary>Which pass a figure's source is.</summary>
public static class FigureSources
{
    /// <summary>The pass that measured a figure from <paramref name="source"/>; <see cref="MeasurementPasses.None"/> for
    /// /proc and in-process counters, which no pass records.</summary>
    public static MeasurementPasses Pass(this FigureSource source) => source switch
    {
        FigureSource.AllocationPass => MeasurementPasses.Allocations,
        FigureSource.HopPass => MeasurementPasses.Hops,
        FigureSource.CpuPass => MeasurementPasses.Cpu,
        _ => MeasurementPasses.None,
    };
}

/// <summary>One pass as it ran.</summary>
public sealed record PassSummary
{
    /// <summary>Which pass (exactly one flag).</summary>
    public MeasurementPasses Pass { get; init; }

    /// <summary>When it started.</summary>
    public DateTimeOffset StartedAt { get; init; }

    /// <summary>How long it recorded.</summary>
    public TimeSpan Duration { get; init; }

    /// <summary>Events read.</summary>
    public long Events { get; init; }

    /// <summary>Events the runtime dropped because its buffer was full (the reader fell behind).</summary>
    public long EventsLost { get; init; }

    /// <summary>Bytes of EventPipe stream read.</summary>
    public long Bytes { get; init; }

    /// <summary>The process this pass measured (a launched command runs once per pass).</summary>
    public int? ProcessId { get; init; }

    /// <summary>Providers enabled, as "name:keywords:level".</summary>
    public IReadOnlyList<string> Providers { get; init; } = [];

    /// <summary>The allocation event used: "AllocationSampled" (.NET 10+) or "GCAllocationTick" (fallback); null for the hop pass.</summary>
    public string? AllocationEvent { get; init; }

    /// <summary>The (first) .nettrace written or read for this pass, if any.</summary>
    public string? TraceFile { get; init; }

    /// <summary>Every .nettrace of this pass: an attached session without a duration writes one per slice, and `report`
    /// adds up all the traces of a pass it is given.</summary>
    public IReadOnlyList<string> TraceFiles { get; init; } = [];

    /// <summary>True when this pass ended early (process exit during attach, truncated trace).</summary>
    public bool CutShort { get; init; }

    /// <summary>A windowed hop pass: the time between its windows, when only counters were recorded (its counts are scaled
    /// to the whole pass); null when the pass recorded continuously.</summary>
    public TimeSpan? Unrecorded { get; init; }

    /// <summary>How many operations the measured run did, when known: a launched command run whole that printed
    /// "asynccost: N operations" (its last such line), or 'collect --operations N'. Null when unknown (attached, a trace
    /// file, a run the tool cut short), and then the pass's figures can be compared only per second.</summary>
    [Description("Operations the measured run did: printed by the launched command ('asynccost: N operations [in S s]') or given by 'collect --operations N'; null when unknown (attached, a trace file, a run cut short). 'compare' divides each figure by the operations of the pass it came from.")]
    public long? Operations { get; init; }

    /// <summary>The seconds those operations took by the command's own clock ("asynccost: N operations in S s"), start-up
    /// excluded: the time base of the run's throughput. Null when the command did not say; the pass's duration serves then.</summary>
    [Description("Seconds the operations took by the command's own clock ('asynccost: N operations in S s'), the time base of its throughput; null when it did not say (the pass's duration serves then).")]
    public double? OperationSeconds { get; init; }

    /// <summary>What <see cref="Operations"/> counts: the run's operations, or the requests an ASP.NET Core process completed.</summary>
    [Description("What operations counts: 'operation' (printed by the command or given) or 'request' (the requests an ASP.NET Core process completed while the pass recorded, from Kestrel's events, when nothing else gave a count): every per-operation figure is then per request.")]
    public OperationKind OperationKind { get; init; }

    /// <summary>The requests an ASP.NET Core process served while the pass recorded, per endpoint; null when it saw none.</summary>
    [Description("The requests an ASP.NET Core process served while the pass recorded (Kestrel's RequestStart/RequestStop), per endpoint with their durations' mean, p50, p90 and p99; null when the pass saw none.")]
    public RequestFigures? Requests { get; init; }
}
