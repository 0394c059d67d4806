using AsyncCost.Events;

namespace AsyncCost.Report;

/// <summary>
/// Which pass a trace given to `report` recorded. A trace does not list the providers its session enabled, only the events
/// they wrote: TplEventSource or thread-pool events make it the hop pass, allocation events the allocation pass (the hop pass
/// never enables them; any process allocates enough during a session to be sampled), sample-profiler events the CPU pass
/// (checked first: it records thread-pool events of none). A trace with neither is a hop pass on
/// code that never suspended nor used the pool (its hops are 0, not unknown) or an allocation pass that saw no allocation:
/// its file name tells ("&lt;base&gt;.hops.nettrace", as `collect -o` names it), else it is the pass the other traces lack.
/// </summary>
internal static class TracePass
{
    /// <summary>The pass the trace's events show, or null when they show neither.</summary>
    public static MeasurementPasses? FromEvents(EventReader reader)
    {
        ArgumentNullException.ThrowIfNull(reader);
        return reader.StackSamples > 0 ? MeasurementPasses.Cpu
            : reader.SawTplEvents || reader.Hops.WorkItems > 0 ? MeasurementPasses.Hops
            : reader.Allocations.Samples > 0 ? MeasurementPasses.Allocations
            : null;
    }

    /// <summary>The pass of a trace whose events show neither: by its file name, else the one the others lack (allocations
    /// when they lack none or both).</summary>
    public static MeasurementPasses ForUndecided(string file, IReadOnlyCollection<MeasurementPasses> decided)
    {
        var name = Path.GetFileName(file);
        foreach (var pass in (MeasurementPasses[])[MeasurementPasses.Allocations, MeasurementPasses.Hops, MeasurementPasses.Cpu])
        {
            if (name.Contains("." + PassName(pass) + ".", StringComparison.OrdinalIgnoreCase))
            {
                return pass;
            }
        }
        return decided.Contains(MeasurementPasses.Allocations) && !decided.Contains(MeasurementPasses.Hops)
            ? MeasurementPasses.Hops
            : MeasurementPasses.Allocations;
    }

    /// <summary>The pass's name in trace file names and on the command line: "allocations", "hops", "cpu".</summary>
    public static string PassName(MeasurementPasses pass) => pass.ToString().ToLowerInvariant();
}
