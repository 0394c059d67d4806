using AsyncCost.Computers;
using AsyncCost.Events;

namespace AsyncCost.Report;

/// <summary>
/// One pass's figures summed over the streams it was recorded in: the slices of an attached session, or the trace files
/// of one pass given to `report`. Each stream is read by its own <see cref="EventReader"/> and added here, so a live
/// session and a report of the files it kept add the same streams the same way.
/// </summary>
internal sealed class PassFigures
{
    public AllocationComputer Allocations { get; } = new();
    public HopComputer Hops { get; } = new();
    public CounterComputer Counters { get; } = new();
    public CpuComputer Cpu { get; } = new();

    /// <summary>The requests an ASP.NET Core process served over the pass (Kestrel's events).</summary>
    public RequestComputer Requests { get; } = new();

    /// <summary>Events read, over all streams.</summary>
    public long Events { get; private set; }

    /// <summary>Events the runtime dropped (buffer full), over all streams.</summary>
    public long EventsLost { get; private set; }

    /// <summary>True when any stream carried TplEventSource events (its allocations include the TPL observer effect).</summary>
    public bool SawTplEvents { get; private set; }

    /// <summary>The traced process id, from the first stream that says.</summary>
    public int? ProcessId { get; private set; }

    /// <summary>Thread ids that sent events (to join with /proc thread ids).</summary>
    public HashSet<int> ThreadIds { get; } = [];

    /// <summary>How many streams were added.</summary>
    public int Streams { get; private set; }

    /// <summary>The figures of a single stream.</summary>
    public static PassFigures Of(EventReader reader)
    {
        var figures = new PassFigures();
        figures.Add(reader);
        return figures;
    }

    public void Add(EventReader reader)
    {
        ArgumentNullException.ThrowIfNull(reader);
        Allocations.Add(reader.Allocations);
        Hops.Add(reader.Hops);
        Counters.Add(reader.Counters);
        Cpu.Add(reader.Cpu);
        Requests.Add(reader.Requests);
        Events += reader.Events;
        EventsLost += reader.EventsLost;
        SawTplEvents |= reader.SawTplEvents;
        ProcessId ??= reader.ProcessId;
        ThreadIds.UnionWith(reader.ThreadIds);
        Streams++;
    }
}
