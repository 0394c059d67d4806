using System.Globalization;
using System.Text.Json;
using AsyncCost.Report;

namespace AsyncCost.Findings;

/// <summary>The AsyncCost findings of one or more SARIF logs, and what is worth saying about the logs (one with no results...).</summary>
/// <param name="Findings">The findings, each once even when several logs (or target frameworks) report it.</param>
/// <param name="Warnings">Logs that hold no AsyncCost findings, code "sarif-empty".</param>
public sealed record SarifFindings(IReadOnlyList<AnalyzerFinding> Findings, IReadOnlyList<ReportWarning> Warnings);

/// <summary>
/// Reads AsyncCost's findings from the compiler's SARIF log (<c>-p:ErrorLog=build.sarif%2Cversion=2.1</c>;
/// the 1.0 format the compiler writes by default is read too). Only results that carry the
/// <c>AsyncCostMethod</c> join key are kept: the other rules' results cannot be tied to measured methods.
/// </summary>
public static class SarifFindingsReader
{
    private const string MethodKeyProperty = "AsyncCostMethod";
    private const string CostInProperty = "AsyncCostCostIn";
    private const string CostTagPrefix = "AsyncCost.Cost.";

    /// <summary>Reads a SARIF file.</summary>
    /// <exception cref="FindingsFileNotFoundException">The file does not exist.</exception>
    /// <exception cref="FindingsFileInvalidException">The file is not a SARIF log.</exception>
    public static IReadOnlyList<AnalyzerFinding> Read(string path)
    {
        if (!File.Exists(path))
        {
            throw new FindingsFileNotFoundException(path);
        }
        return Parse(File.ReadAllText(path), path);
    }

    /// <summary>
    /// Reads several SARIF logs, e.g. one per project of a multi-project build; a folder stands for every *.sarif file in it.
    /// A log without AsyncCost findings is not an error (a project may have none) but is named in <see cref="SarifFindings.Warnings"/>:
    /// it is also what a build that overwrote one project's log with another's leaves.
    /// </summary>
    /// <exception cref="FindingsFileNotFoundException">A path does not exist, or a folder holds no *.sarif file.</exception>
    /// <exception cref="FindingsFileInvalidException">A file is not a SARIF log.</exception>
    public static SarifFindings ReadAll(IEnumerable<string> paths)
    {
        ArgumentNullException.ThrowIfNull(paths);
        var findings = new List<AnalyzerFinding>();
        var warnings = new List<ReportWarning>();
        var seen = new HashSet<(string, string?, int?, int?)>();
        foreach (var file in paths.SelectMany(LogFiles))
        {
            var log = ParseLog(File.ReadAllText(file), file, out var results, out var tool);
            if (log.Count == 0)
            {
                warnings.Add(new ReportWarning("sarif-empty",
                    tool is not null && !IsDotNetCompiler(tool)
                    ? $"{file} is a SARIF log from {tool}, not from a .NET build with the AsyncCost analyzers: it has no AsyncCost findings to rank."
                    : results == 0
                    ? $"{file} has no results: no analyzer reported anything in that build (or another project's log overwrote it; give each project its own ErrorLog)."
                    : $"{file} has {results.ToString("N0", CultureInfo.InvariantCulture)} results but none from the AsyncCost analyzers (no AsyncCostMethod property)."));
            }
            findings.AddRange(log.Where(f => seen.Add((f.RuleId, f.FilePath, f.Line, f.Column))));
        }
        return new SarifFindings(findings, warnings);
    }

    // The C# and VB compilers name themselves "Microsoft (R) Visual C# Compiler" (and "csc", "vbc" in hand-written logs).
    private static bool IsDotNetCompiler(string tool) =>
        tool.Contains("Compiler", StringComparison.OrdinalIgnoreCase) || tool is "csc" or "vbc";

    private static IEnumerable<string> LogFiles(string path)
    {
        if (File.Exists(path))
        {
            return [path];
        }
        if (!Directory.Exists(path))
        {
            throw new FindingsFileNotFoundException(path);
        }
        var logs = Directory.GetFiles(path, "*.sarif").Order(StringComparer.Ordinal).ToList();
        return logs.Count > 0 ? logs : throw new FindingsFileNotFoundException(Path.Combine(path, "*.sarif"));
    }

    /// <summary>Reads SARIF text; <paramref name="sourceName"/> names it in error messages.</summary>
    /// <exception cref="FindingsFileInvalidException">The text is not a SARIF log.</exception>
    public static IReadOnlyList<AnalyzerFinding> Parse(string json, string sourceName) => ParseLog(json, sourceName, out _, out _);

    /// <param name="json">The log's text.</param>
    /// <param name="sourceName">Names the log in error messages.</param>
    /// <param name="results">The results of every rule, AsyncCost's or not.</param>
    /// <param name="tool">The first run's tool (2.1: tool.driver.name; 1.0: tool.name), when named.</param>
    private static List<AnalyzerFinding> ParseLog(string json, string sourceName, out int results, out string? tool)
    {
        results = 0;
        tool = null;
        JsonDocument document;
        try
        {
            document = JsonDocument.Parse(json, new JsonDocumentOptions { AllowTrailingCommas = true, CommentHandling = JsonCommentHandling.Skip });
        }
        catch (JsonException e)
        {
            throw new FindingsFileInvalidException($"{sourceName} is not JSON: {e.Message}", e);
        }

        using (document)
        {
            if (document.RootElement.ValueKind != JsonValueKind.Object
                || !document.RootElement.TryGetProperty("runs", out var runs)
                || runs.ValueKind != JsonValueKind.Array)
            {
                throw new FindingsFileInvalidException($"{sourceName} is not a SARIF log: it has no 'runs' array.");
            }

            var findings = new List<AnalyzerFinding>();
            var seen = new HashSet<(string, string?, int?, int?)>();
            foreach (var run in runs.EnumerateArray())
            {
                tool ??= run.TryGetProperty("tool", out var toolElement)
                    ? (toolElement.TryGetProperty("driver", out var driver) ? String(driver, "name") : String(toolElement, "name"))
                    : null;
                var costKinds = ReadCostKinds(run);
                if (!run.TryGetProperty("results", out var runResults) || runResults.ValueKind != JsonValueKind.Array)
                {
                    continue;
                }
                foreach (var result in runResults.EnumerateArray())
                {
                    results++;
                    // A project built for several target frameworks logs the same finding once per build.
                    if (ReadFinding(result, costKinds) is { } finding && seen.Add((finding.RuleId, finding.FilePath, finding.Line, finding.Column)))
                    {
                        findings.Add(finding);
                    }
                }
            }
            return findings;
        }
    }

    private static AnalyzerFinding? ReadFinding(JsonElement result, Dictionary<string, FindingCostKind> costKinds)
    {
        var methodKey = CustomProperty(result, MethodKeyProperty);
        if (methodKey is null || String(result, "ruleId") is not { } ruleId)
        {
            return null;
        }

        var (file, line, column) = ReadLocation(result);
        return new AnalyzerFinding(
            ruleId,
            String(result, "level") ?? "warning",
            ReadMessage(result),
            file,
            line,
            column,
            methodKey,
            costKinds.GetValueOrDefault(ruleId))
        {
            CostMethodKeys = CustomProperty(result, CostInProperty)?.Split(';', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries) ?? [],
        };
    }

    // SARIF 2.1: message.text; 1.0: message is the text.
    private static string ReadMessage(JsonElement result) =>
        result.TryGetProperty("message", out var message)
            ? message.ValueKind == JsonValueKind.String ? message.GetString() ?? "" : String(message, "text") ?? ""
            : "";

    // SARIF 2.1: locations[0].physicalLocation.{artifactLocation.uri, region}; 1.0: locations[0].resultFile.{uri, region}.
    private static (string? File, int? Line, int? Column) ReadLocation(JsonElement result)
    {
        if (!result.TryGetProperty("locations", out var locations) || locations.ValueKind != JsonValueKind.Array || locations.GetArrayLength() == 0)
        {
            return (null, null, null);
        }
        var location = locations[0];
        JsonElement physical;
        string? uri = null;
        if (location.TryGetProperty("physicalLocation", out physical))
        {
            uri = physical.TryGetProperty("artifactLocation", out var artifact) ? String(artifact, "uri") : null;
        }
        else if (location.TryGetProperty("resultFile", out physical))
        {
            uri = String(physical, "uri");
        }
        else
        {
            return (null, null, null);
        }

        var region = physical.TryGetProperty("region", out var r) ? r : default;
        return (ToPath(uri), Int(region, "startLine"), Int(region, "startColumn"));
    }

    private static string? ToPath(string? uri) =>
        uri is not null && Uri.TryCreate(uri, UriKind.Absolute, out var parsed) && parsed.IsFile ? parsed.LocalPath : uri;

    // SARIF 2.1: tool.driver.rules, an array; 1.0: the run's own "rules", an object keyed by rule id.
    private static IEnumerable<JsonElement> Rules(JsonElement run) =>
        run.TryGetProperty("tool", out var tool) && tool.TryGetProperty("driver", out var driver)
        && driver.TryGetProperty("rules", out var rules) && rules.ValueKind == JsonValueKind.Array
            ? rules.EnumerateArray()
            : run.TryGetProperty("rules", out var byId) && byId.ValueKind == JsonValueKind.Object
                ? byId.EnumerateObject().Select(rule => rule.Value)
                : [];

    private static Dictionary<string, FindingCostKind> ReadCostKinds(JsonElement run)
    {
        var kinds = new Dictionary<string, FindingCostKind>(StringComparer.Ordinal);
        foreach (var rule in Rules(run))
        {
            if (String(rule, "id") is { } id && rule.TryGetProperty("properties", out var properties)
                && properties.TryGetProperty("tags", out var tags) && tags.ValueKind == JsonValueKind.Array)
            {
                foreach (var tag in tags.EnumerateArray())
                {
                    if (tag.GetString() is { } text && text.StartsWith(CostTagPrefix, StringComparison.Ordinal)
                        && Enum.TryParse<FindingCostKind>(text[CostTagPrefix.Length..], out var kind))
                    {
                        kinds[id] = kind;
                    }
                }
            }
        }
        return kinds;
    }

    private static string? CustomProperty(JsonElement result, string name) =>
        result.TryGetProperty("properties", out var properties)
        && properties.TryGetProperty("customProperties", out var custom)
        && custom.ValueKind == JsonValueKind.Object
            ? String(custom, name)
            : null;

    private static string? String(JsonElement element, string name) =>
        element.ValueKind == JsonValueKind.Object && element.TryGetProperty(name, out var value) && value.ValueKind == JsonValueKind.String
            ? value.GetString()
            : null;

    private static int? Int(JsonElement element, string name) =>
        element.ValueKind == JsonValueKind.Object && element.TryGetProperty(name, out var value) && value.TryGetInt32(out var number)
            ? number
            : null;
}
