using System.Text.Json;
using System.Text.Json.Nodes;
using AsyncCost.Report;

namespace AsyncCost.Findings;

/// <summary>
/// JSON form of a <see cref="HotFindingsReport"/>: the same options and conventions as the report's
/// (<see cref="AsyncCostReportJson"/>); the measured report is nested under "measured".
/// </summary>
public static class HotFindingsJson
{
    /// <summary>Serializes the ranked findings (indented).</summary>
    public static string Serialize(HotFindingsReport report) => JsonSerializer.Serialize(report, AsyncCostReportJson.Options);

    /// <summary>The analyzer findings of a document <see cref="Serialize"/> wrote, in its rank order; null when the JSON holds
    /// none (a plain report).</summary>
    /// <exception cref="JsonException">A finding is not one this library wrote.</exception>
    public static IReadOnlyList<AnalyzerFinding>? FindingsOf(JsonObject document)
    {
        ArgumentNullException.ThrowIfNull(document);
        return document["findings"] is JsonArray findings
            ? [.. findings.Select(f => f?["finding"]?.Deserialize<AnalyzerFinding>(AsyncCostReportJson.Options) ?? throw new JsonException("A ranked finding without its 'finding'."))]
            : null;
    }

    /// <summary>The JSON schema of <see cref="Serialize"/>'s output, generated from the model.</summary>
    public static JsonNode GetSchema() =>
        AsyncCostReportJson.GetSchema(typeof(HotFindingsReport), $"AsyncCost hot findings, schema version {HotFindingsReport.CurrentSchemaVersion}");
}
