using System.ComponentModel;
using System.Text.Json;
using System.Text.Json.Nodes;
using System.Text.Json.Schema;
using System.Text.Json.Serialization;

namespace AsyncCost.Report;

/// <summary>
/// The report's JSON form: camelCase properties, enums as camelCase strings, durations as "hh:mm:ss.fffffff",
/// a top-level "schemaVersion". The schema itself comes from the model (<see cref="GetSchema()"/>), so it cannot drift.
/// </summary>
public static class AsyncCostReportJson
{
    /// <summary>The serializer options used for reports (shared, read-only).</summary>
    public static JsonSerializerOptions Options { get; } = CreateOptions();

    /// <summary>Serializes a report (indented).</summary>
    public static string Serialize(AsyncCostReport report) => JsonSerializer.Serialize(report, Options);

    /// <summary>Writes a report as UTF-8 JSON to a stream.</summary>
    public static Task SerializeAsync(Stream utf8Json, AsyncCostReport report, CancellationToken cancellationToken = default)
        => JsonSerializer.SerializeAsync(utf8Json, report, Options, cancellationToken);

    /// <summary>Reads a report written by <see cref="Serialize"/>; rejects a newer schema version than this library knows.</summary>
    /// <exception cref="JsonException">The text is not a report, or its schema version is newer than <see cref="AsyncCostReport.CurrentSchemaVersion"/>.</exception>
    public static AsyncCostReport Deserialize(string json)
    {
        var root = JsonNode.Parse(json) as JsonObject ?? throw new JsonException("The JSON is not an object, not a report.");
        var version = root["schemaVersion"]?.GetValue<int>() ?? AsyncCostReport.CurrentSchemaVersion;
        if (version > AsyncCostReport.CurrentSchemaVersion)
        {
            throw new JsonException($"Report schema version {version} is newer than this library's {AsyncCostReport.CurrentSchemaVersion}.");
        }
        if (version < 2)
        {
            UpgradeFromVersion1(root);
        }
        return root.Deserialize<AsyncCostReport>(Options) ?? throw new JsonException("The JSON is null, not a report.");
    }

    /// <summary>Version 1 wrote per-call figures as plain numbers and its calls were the allocation pass's estimate: those
    /// numbers are dropped (they were computed from the figures still there) and the calls kept as the sampled calls.</summary>
    private static void UpgradeFromVersion1(JsonObject root)
    {
        foreach (var method in (root["methods"] as JsonArray ?? []).OfType<JsonObject>())
        {
            method.Remove("bytesPerCall");
            method.Remove("objectsPerCall");
            method.Remove("hopsPerCall");
            if (method["calls"] is JsonObject { } calls && calls["source"]?.GetValue<string>() == "allocationPass")
            {
                method["sampledCalls"] = calls.DeepClone();
            }
        }
    }

    /// <summary>The JSON schema of the report, generated from the model.</summary>
    public static JsonNode GetSchema() =>
        GetSchema(typeof(AsyncCostReport), $"AsyncCost report, schema version {AsyncCostReport.CurrentSchemaVersion}");

    /// <summary>The JSON schema of another document this library writes with <see cref="Options"/> (e.g. the hot-findings report).</summary>
    public static JsonNode GetSchema(Type type, string title)
    {
        var schema = Options.GetJsonSchemaAsNode(type, new JsonSchemaExporterOptions
        {
            TreatNullObliviousAsNonNullable = true,
            // Fields whose meaning is a contract with other tools ([Description]) carry it in the schema.
            TransformSchemaNode = (context, node) =>
            {
                if (context.PropertyInfo?.AttributeProvider?.GetCustomAttributes(typeof(DescriptionAttribute), inherit: true) is [DescriptionAttribute description, ..]
                    && node is JsonObject property)
                {
                    property.Insert(0, "description", description.Description);
                }
                return node;
            },
        });
        if (schema is JsonObject root)
        {
            root.Insert(0, "$schema", "https://json-schema.org/draft/2020-12/schema");
            root.Insert(1, "title", title);
        }
        return schema;
    }

    private static JsonSerializerOptions CreateOptions()
    {
        var options = new JsonSerializerOptions(JsonSerializerDefaults.Web)
        {
            WriteIndented = true,
            DefaultIgnoreCondition = JsonIgnoreCondition.Never,
            NumberHandling = JsonNumberHandling.Strict,
        };
        options.Converters.Add(new JsonStringEnumConverter(JsonNamingPolicy.CamelCase));
        options.MakeReadOnly(populateMissingResolver: true);
        return options;
    }
}
