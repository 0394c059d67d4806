using System.Text.Json.Nodes;
using AsyncCost.Report;

namespace AsyncCost.Sessions;

/// <summary>
/// What to enable to record a pass with another tool (dotnet-trace, dotnet-monitor) so that `report` reads the trace like
/// its own: the same providers the tool's own sessions enable, and method rundown (on by default in both tools).
/// </summary>
public static class PassProviders
{
    /// <summary>The session buffer the tool's own sessions use, in MB. It is a cap the runtime fills only while events wait
    /// for the reader: a continuous hop pass on hop-heavy code writes faster than any reader on the same cores, so it only
    /// delays the losses; a 1 s hop window fits (benchmarks/results/HopKeywords.md).</summary>
    public const int BufferSizeMb = 256;

    /// <summary>The pass's providers in dotnet-trace's <c>--providers</c> syntax.</summary>
    public static string ForDotNetTrace(MeasurementPasses pass) => Providers.DotNetTraceSyntax(Providers.For(Single(pass), useAllocationTick: false, counterIntervalSeconds: 1));

    /// <summary>The pass's trace request for dotnet-monitor (the body of <c>POST /trace?pid=PID</c>, or a collection rule's
    /// CollectTrace action settings).</summary>
    public static JsonObject ForDotNetMonitor(MeasurementPasses pass)
    {
        var providers = new JsonArray();
        foreach (var provider in Providers.For(Single(pass), useAllocationTick: false, counterIntervalSeconds: 1))
        {
            var entry = new JsonObject
            {
                ["Name"] = provider.Name,
                ["Keywords"] = $"0x{provider.Keywords:X}",
                ["EventLevel"] = provider.EventLevel.ToString(),
            };
            if (provider.Arguments is { Count: > 0 } arguments)
            {
                entry["Arguments"] = new JsonObject(arguments.Select(a => KeyValuePair.Create(a.Key, (JsonNode?)a.Value)));
            }
            providers.Add(entry);
        }
        return new JsonObject { ["Providers"] = providers, ["RequestRundown"] = true, ["BufferSizeInMB"] = BufferSizeMb };
    }

    private static MeasurementPasses Single(MeasurementPasses pass) => pass is MeasurementPasses.Allocations or MeasurementPasses.Hops or MeasurementPasses.Cpu
        ? pass
        : throw new ArgumentOutOfRangeException(nameof(pass), pass, "Name one pass: Allocations, Hops or Cpu.");
}
