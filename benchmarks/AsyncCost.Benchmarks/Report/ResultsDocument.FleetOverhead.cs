using System.Text;

namespace AsyncCost.Benchmarks.Report;

/// <summary>What the in-process OpenTelemetry instrumentation costs a real service: the saved output of `webshop-overhead`.</summary>
public sealed partial class ResultsDocument
{
    /// <summary>The command, as the section quotes it: 6 rounds of 60 s (one duty-cycle period) per variant, 16 connections per
    /// service, each variant side by side with an uninstrumented twin.</summary>
    public const string WebShopOverheadCommandLine =
        "dotnet build samples/WebShop -c Release && dotnet run -c Release --project benchmarks/AsyncCost.Benchmarks -- webshop-overhead 6 60 16 --side-by-side | tee benchmarks/results/" + ResultsLayout.WebShopOverheadFile;

    private void FleetOverheadSection(StringBuilder text)
    {
        text.AppendLine("## New since the seeds: what the fleet instrumentation costs a service");
        text.AppendLine();
        text.AppendLine("`samples/WebShop` (ASP.NET Core minimal API on loopback Kestrel, OpenTelemetry with the Prometheus exporter in every variant)");
        text.AppendLine("four ways: without `AddAsyncCostInstrumentation` (`off`), at default settings (each 60 s: hop stream 1 s, then allocations");
        text.AppendLine("sampled 3 s), with allocations sampled whenever the hop stream is off (`allocations-always-on`, the previous default), and");
        text.AppendLine("with the hop stream always on. Each variant runs side by side with an uninstrumented twin: both on the same core (a fixed");
        text.AppendLine("pool of 32 worker threads each), each under its own wrk on the other core, for the same whole duty-cycle period, so the");
        text.AppendLine("machine's drift falls on both alike; `off` beside a second `off` (A/A) shows what the method cannot resolve. The two of a");
        text.AppendLine("pair serve the same requests/s whatever each costs (every request waits in the one core's run queue), so the comparison");
        text.AppendLine("is the CPU time per request, and the throughput loss is the one it implies on a saturated core. Target at default");
        text.AppendLine("settings: at most 3 % throughput loss (issue 14). Rerun:");
        text.AppendLine();
        text.AppendLine("```");
        text.AppendLine(WebShopOverheadCommandLine);
        text.AppendLine("```");
        text.AppendLine();
        text.AppendLine(webShopOverhead is { Length: > 0 }
            ? webShopOverhead
            : $"Not in this run: `results/{ResultsLayout.WebShopOverheadFile}` is missing (the command above writes it).");
        text.AppendLine();
    }
}
