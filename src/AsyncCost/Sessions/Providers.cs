using System.Diagnostics.Tracing;
using System.Globalization;
using AsyncCost.Events;
using AsyncCost.Report;
using Microsoft.Diagnostics.NETCore.Client;

namespace AsyncCost.Sessions;

/// <summary>The EventPipe providers of each pass: the one definition that sessions enable and that
/// <see cref="PassProviders"/> prints for dotnet-trace and dotnet-monitor.</summary>
internal static class Providers
{
    /// <summary>Rundown keyword End: the rundown runs when the session stops.</summary>
    private const long EndRundownKeyword = 0x100;

    /// <summary>Rundown of modules and methods (Loader | Jit | End): MethodDCStopVerbose names every jitted method, with its
    /// signature, so the trace itself names its async methods and a report needs no assembly on disk.</summary>
    public const long RundownKeywords = KnownEvents.LoaderKeyword | KnownEvents.JitKeyword | EndRundownKeyword;

    /// <summary>Rundown of modules only (Loader | End): what sessions asked for before traces named their methods; kept
    /// so the rundown-cost benchmark can measure what method naming adds.</summary>
    internal const long ModuleRundownKeywords = KnownEvents.LoaderKeyword | EndRundownKeyword;

    /// <summary>Loader and JIT events at Verbose (MethodLoadVerbose): the methods jitted during the session, named even if the
    /// process exits before the rundown.</summary>
    private const long NamingKeywords = KnownEvents.LoaderKeyword | KnownEvents.JitKeyword;

    /// <summary>The providers of one pass; <paramref name="nameMethods"/> is false only to measure what naming costs (no JIT
    /// events, and the runtime provider at Informational).</summary>
    public static IReadOnlyList<EventPipeProvider> For(MeasurementPasses pass, bool useAllocationTick, double counterIntervalSeconds, bool nameMethods = true)
    {
        var naming = nameMethods ? NamingKeywords : KnownEvents.LoaderKeyword;
        var runtimeLevel = nameMethods || useAllocationTick ? EventLevel.Verbose : EventLevel.Informational;
        var counters = Counters(counterIntervalSeconds);
        if (pass == MeasurementPasses.Cpu)
        {
            // The sample profiler's stacks are addresses: the JIT events (and the rundown) name the methods they fall in.
            return
            [
                new EventPipeProvider(KnownEvents.SampleProfilerProvider, EventLevel.Informational),
                new EventPipeProvider(KnownEvents.RuntimeProvider, EventLevel.Verbose, NamingKeywords),
                counters,
            ];
        }
        return pass == MeasurementPasses.Allocations
            ? [
                new EventPipeProvider(KnownEvents.RuntimeProvider, runtimeLevel,
                    (useAllocationTick ? KnownEvents.GcKeyword : KnownEvents.AllocationSamplingKeyword) | naming),
                counters,
            ]
            : [
                new EventPipeProvider(KnownEvents.TplProvider, EventLevel.Verbose, KnownEvents.TplKeywords),
                new EventPipeProvider(KnownEvents.FrameworkProvider, EventLevel.Verbose, KnownEvents.FrameworkKeywords),
                new EventPipeProvider(KnownEvents.RuntimeProvider, nameMethods ? EventLevel.Verbose : EventLevel.Informational, naming),
                counters,
            ];
    }

    /// <summary>The providers of several passes in one session (monitor): each provider once, with the union of the passes'
    /// keywords at the most verbose of their levels.</summary>
    public static IReadOnlyList<EventPipeProvider> Combined(MeasurementPasses passes, bool useAllocationTick, double counterIntervalSeconds)
        => [.. new[] { MeasurementPasses.Allocations, MeasurementPasses.Hops, MeasurementPasses.Cpu }
            .Where(pass => passes.HasFlag(pass))
            .SelectMany(pass => For(pass, useAllocationTick, counterIntervalSeconds))
            .GroupBy(p => p.Name, StringComparer.Ordinal)
            .Select(same => new EventPipeProvider(same.Key, same.Max(p => p.EventLevel), same.Aggregate(0L, (keywords, p) => keywords | p.Keywords),
                same.First().Arguments))];

    /// <summary>The System.Runtime counters and Kestrel's requests alone: what a windowed hop pass records over the whole pass,
    /// its windows and the time between them (no TPL events, so the process runs as it does untraced), to count the thread
    /// pool's work items and the requests served there (a pass's requests are counted over the pass, as its scaled counts
    /// are). A process without Kestrel writes no request event.</summary>
    public static IReadOnlyList<EventPipeProvider> CountersOnly(double counterIntervalSeconds) => [Counters(counterIntervalSeconds), Requests];

    /// <summary>Kestrel's requests alone: the session an attached ASP.NET Core process records beside each pass that does not
    /// window (<see cref="SliceContent.RequestsOnly"/>), without stack walks, so that its figures are per request and the
    /// pass's own session carries none of these events (the allocation and cpu passes walk a stack per event).</summary>
    public static IReadOnlyList<EventPipeProvider> RequestsOnly() => [Requests];

    /// <summary>Kestrel's RequestStart and RequestStop (Informational; no keyword is needed): two events per request.</summary>
    private static EventPipeProvider Requests => new(KnownEvents.KestrelProvider, EventLevel.Informational, 0);

    private static EventPipeProvider Counters(double counterIntervalSeconds) => new(KnownEvents.CountersProvider, EventLevel.Informational, 0,
        new Dictionary<string, string> { ["EventCounterIntervalSec"] = counterIntervalSeconds.ToString(CultureInfo.InvariantCulture) });

    public static IReadOnlyList<string> Describe(IReadOnlyList<EventPipeProvider> providers)
        => [.. providers.Select(p => $"{p.Name}:0x{p.Keywords:X}:{(int)p.EventLevel}")];

    /// <summary>dotnet-trace's --providers syntax: "Name:0xKeywords:Level[:key=value;...]", comma-separated.</summary>
    public static string DotNetTraceSyntax(IReadOnlyList<EventPipeProvider> providers)
        => string.Join(",", providers.Select(p => $"{p.Name}:0x{p.Keywords:X}:{(int)p.EventLevel}"
            + (p.Arguments is { Count: > 0 } arguments ? ":" + string.Join(";", arguments.Select(a => $"{a.Key}={a.Value}")) : "")));
}
