using System.Text;

namespace AsyncCost.Benchmarks.Report;

/// <summary>What the in-process OpenTelemetry instrumentation costs a real service: the saved output of `webshop-overhead`.</summary>
public sealed partial class ResultsDocument
{
    /// <summary>The command, as the section quotes it: 5 rounds of 60 s (one duty-cycle period) per variant, 16 connections.</summary>
    public const string WebShopOverheadCommandLine =
        "dotnet build samples/WebShop -c Release && dotnet run -c Release --project benchmarks/AsyncCost.Benchmarks -- webshop-overhead 5 60 16 | tee benchmarks/results/" + ResultsLayout.WebShopOverheadFile;

    private void FleetOverheadSection(StringBuilder text)
    {
        text.AppendLine("## New since the seeds: what the fleet instrumentation costs a service");
        text.AppendLine();
        text.AppendLine("`samples/WebShop` (ASP.NET Core minimal API on loopback Kestrel, OpenTelemetry with the Prometheus exporter in every variant)");
        text.AppendLine("under the same bounded HTTP load (wrk, else an HttpClient loop), four ways: without `AddAsyncCostInstrumentation` (`off`),");
        text.AppendLine("at default settings (each 60 s: hop stream 1 s, then allocations sampled 3 s), with allocations sampled whenever the hop");
        text.AppendLine("stream is off (`allocations-always-on`, the previous default), and with the hop stream always on; interleaved per round, the load");
        text.AppendLine("average beside each run. Every variant has a fixed pool of 32 worker threads; with taskset the services run on one core and");
        text.AppendLine("the load generator on the other, so the load averages count the service's own runnable threads. Target at default");
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
