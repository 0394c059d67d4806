using System.Text;

namespace AsyncCost.Benchmarks.Report;

/// <summary>What the in-process OpenTelemetry instrumentation costs a real service: the saved output of `webshop-overhead`.</summary>
public sealed partial class ResultsDocument
{
    /// <summary>The command, as the section quotes it: 7 rounds of 20 s (two hop-stream periods) per variant, 16 connections.</summary>
    public const string WebShopOverheadCommandLine =
        "dotnet build samples/WebShop -c Release && dotnet run -c Release --project benchmarks/AsyncCost.Benchmarks -- webshop-overhead 7 20 16 | tee benchmarks/results/" + ResultsLayout.WebShopOverheadFile;

    private void FleetOverheadSection(StringBuilder text)
    {
        text.AppendLine("## New since the seeds: what the fleet instrumentation costs a service");
        text.AppendLine();
        text.AppendLine("`samples/WebShop` (ASP.NET Core minimal API on loopback Kestrel, OpenTelemetry with the Prometheus exporter in every variant)");
        text.AppendLine("under the same bounded HTTP load (wrk, else an HttpClient loop), three ways: without `AddAsyncCostInstrumentation` (`off`),");
        text.AppendLine("with it at default settings (hop stream on 1 s of every 10 s), and with the hop stream always on; interleaved A B C per");
        text.AppendLine("round, the load average beside each run. Target at default settings: at most 3 % throughput loss (issue 14). The load");
        text.AppendLine("generator shares the machine's cores with the service, as the three variants do alike. Rerun:");
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
