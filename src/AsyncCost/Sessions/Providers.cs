using System.Diagnostics.Tracing;
using AsyncCost.Events;
using AsyncCost.Report;
using Microsoft.Diagnostics.NETCore.Client;

namespace AsyncCost.Sessions;

/// <summary>The EventPipe providers of each pass.</summary>
internal static class Providers
{
    /// <summary>Rundown only of modules (Loader | End), not of every JIT-ed method: the catalog needs module paths.</summary>
    public const long RundownKeywords = 0x8 | 0x100;

    public static IReadOnlyList<EventPipeProvider> For(MeasurementPasses pass, bool useAllocationTick, int counterIntervalSeconds)
    {
        var counters = new EventPipeProvider(KnownEvents.CountersProvider, EventLevel.Informational, 0,
            new Dictionary<string, string> { ["EventCounterIntervalSec"] = counterIntervalSeconds.ToString(System.Globalization.CultureInfo.InvariantCulture) });
        return pass == MeasurementPasses.Allocations
            ? [
                useAllocationTick
                    ? new EventPipeProvider(KnownEvents.RuntimeProvider, EventLevel.Verbose, KnownEvents.GcKeyword | KnownEvents.LoaderKeyword)
                    : new EventPipeProvider(KnownEvents.RuntimeProvider, EventLevel.Informational, KnownEvents.AllocationSamplingKeyword | KnownEvents.LoaderKeyword),
                counters,
            ]
            : [
                new EventPipeProvider(KnownEvents.TplProvider, EventLevel.Verbose, KnownEvents.TplKeywords),
                new EventPipeProvider(KnownEvents.FrameworkProvider, EventLevel.Verbose, KnownEvents.FrameworkKeywords),
                new EventPipeProvider(KnownEvents.RuntimeProvider, EventLevel.Informational, KnownEvents.LoaderKeyword),
                counters,
            ];
    }

    public static IReadOnlyList<string> Describe(IReadOnlyList<EventPipeProvider> providers)
        => [.. providers.Select(p => $"{p.Name}:0x{p.Keywords:X}:{(int)p.EventLevel}")];
}
