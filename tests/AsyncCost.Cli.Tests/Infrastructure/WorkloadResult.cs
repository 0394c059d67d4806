using System.Text.Json;

namespace AsyncCost.Cli.Tests.Infrastructure;

/// <summary>One "RESULT {json}" line of the workload: the exact in-process costs of one run (AsyncCostScope), and when the run
/// ended in milliseconds of the workload's uptime.</summary>
internal sealed record WorkloadResult(string Scenario, int Count, long AllocatedBytes, double BytesPerOp, long EndedAtMs = 0)
{
    private const string Prefix = "RESULT ";
    private static readonly JsonSerializerOptions Options = new(JsonSerializerDefaults.Web);

    public static IReadOnlyList<WorkloadResult> ParseAll(string output) =>
    [
        .. output.Split('\n')
            .Where(line => line.StartsWith(Prefix, StringComparison.Ordinal))
            .Select(line => JsonSerializer.Deserialize<WorkloadResult>(line[Prefix.Length..], Options)!),
    ];
}
