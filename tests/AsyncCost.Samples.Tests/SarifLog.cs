using System.Text.Json;

namespace AsyncCost.Samples.Tests;

/// <summary>The parts of a compiler SARIF 2.1 log these tests read.</summary>
internal sealed record SarifLog(IReadOnlyList<string> RuleIds, IReadOnlyList<SarifFinding> Findings)
{
    public static SarifLog Read(string path)
    {
        using JsonDocument document = JsonDocument.Parse(File.ReadAllText(path));
        JsonElement run = document.RootElement.GetProperty("runs")[0];
        string[] rules = run.GetProperty("tool").GetProperty("driver").TryGetProperty("rules", out JsonElement ruleList)
            ? ruleList.EnumerateArray().Select(rule => rule.GetProperty("id").GetString()!).ToArray()
            : [];
        SarifFinding[] findings = run.GetProperty("results").EnumerateArray().Select(SarifFinding.From).ToArray();
        return new SarifLog(rules, findings);
    }
}

/// <summary>One result: the rule, the method key the AsyncCost rules attach, and where.</summary>
internal sealed record SarifFinding(string RuleId, string? Method, string Location)
{
    public static SarifFinding From(JsonElement result)
    {
        string? method = result.TryGetProperty("properties", out JsonElement properties)
            && properties.TryGetProperty("customProperties", out JsonElement custom)
            && custom.TryGetProperty("AsyncCostMethod", out JsonElement key)
                ? key.GetString()
                : null;
        JsonElement physical = result.GetProperty("locations")[0].GetProperty("physicalLocation");
        string file = Path.GetFileName(new Uri(physical.GetProperty("artifactLocation").GetProperty("uri").GetString()!).LocalPath);
        int line = physical.GetProperty("region").GetProperty("startLine").GetInt32();
        return new SarifFinding(result.GetProperty("ruleId").GetString()!, method, $"{file}:{line}");
    }
}
