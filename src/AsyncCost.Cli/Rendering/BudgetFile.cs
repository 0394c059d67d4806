using System.ComponentModel;
using System.Globalization;
using System.Reflection;
using System.Text.Json;
using System.Text.Json.Nodes;
using System.Text.Json.Serialization;
using AsyncCost.Report;

namespace AsyncCost.Cli.Rendering;

/// <summary>
/// A budget checked into a repository (asynccost-budget.json), which `compare budget.json run.json --fail-on-regression` holds a
/// run to: the most each cost per operation may be and the least throughput, in the units compare prints, for the run and
/// for single async methods. A figure left out is not held to anything. <see cref="Read"/> refuses, naming the field, what
/// would otherwise pass silently: an unknown field (a misspelt limit), a limit that is negative, not a number, or null, and
/// a file that sets no limit at all.
/// </summary>
[JsonUnmappedMemberHandling(JsonUnmappedMemberHandling.Disallow)]
internal sealed record BudgetFile
{
    /// <summary>The format version this tool reads.</summary>
    public const int CurrentVersion = 1;

    /// <summary>An editor's pointer to the schema ('dotnet-asynccost schema --budget'); ignored.</summary>
    [JsonPropertyName("$schema")]
    [Description("Optional: where the file's JSON schema is ('dotnet-asynccost schema --budget' prints it). Ignored by the tool.")]
    public string? Schema { get; init; }

    /// <summary>Marks the file as a budget and says its format version.</summary>
    [Description("Required, 1: marks the file as an AsyncCost budget and gives its format version.")]
    public required int BudgetVersion { get; init; }

    [Description("The least throughput, in operations per second of the run's allocation pass (as 'compare' prints it); 0 or more. A timing: it moves with the machine's load.")]
    public double? MinimumThroughput { get; init; }

    [Description("The most bytes allocated in async methods per operation of the allocation pass (its estimate; 'Async-method bytes per op'); 0 or more.")]
    public double? AsyncMethodBytesPerOperation { get; init; }

    [Description("The most thread-pool hops per operation of the hop pass (its count; 'Thread-pool hops per op'); 0 or more.")]
    public double? HopsPerOperation { get; init; }

    [Description("Limits for single async methods, by method key (Namespace.Type.Method, nested types joined with '.', as the analyzer's SARIF names it). A key that no row of the run and no method it ran has fails the gate as 'no such method'.")]
    public IReadOnlyDictionary<string, MethodLimits>? Methods { get; init; }

    /// <summary>The limit on one of compare's judged figures (by its key), or null when the budget sets none.</summary>
    public double? LimitOf(string figureKey) => figureKey switch
    {
        "throughput" => MinimumThroughput,
        "asyncMethodBytes" => AsyncMethodBytesPerOperation,
        "hops" => HopsPerOperation,
        _ => null,
    };

    /// <summary>
    /// The budget in <paramref name="root"/>, checked field by field before it is read, so that each error names the file and
    /// the field ("methods.Shop.Orders.ReserveAsync.bytesPerOperation: -50 is negative"), never a type of this tool.
    /// </summary>
    /// <exception cref="CliException">What is wrong, exit code 24.</exception>
    public static BudgetFile Read(JsonObject root, string path)
    {
        ArgumentNullException.ThrowIfNull(root);
        CliException Refused(string what) => new(ExitCode.ReportFileInvalid, $"Cannot read budget {path}: {what.TrimEnd('.')} ('dotnet-asynccost schema --budget' prints its shape).");
        var limits = 0;
        foreach (var (name, value) in root)
        {
            switch (name)
            {
                case "$schema" when value is JsonValue schema && schema.TryGetValue<string>(out _):
                    break;
                case "$schema":
                    throw Refused("$schema must be a string (the schema's location), or left out.");
                case "budgetVersion" when value is JsonValue version && version.TryGetValue<int>(out var number):
                    if (number != CurrentVersion)
                    {
                        throw Refused($"budgetVersion {number} is not {CurrentVersion}, the version this tool reads.");
                    }
                    break;
                case "budgetVersion":
                    throw Refused($"budgetVersion must be the whole number {CurrentVersion}, not {Text(value)}.");
                case "methods" when value is JsonObject methods:
                    foreach (var (key, method) in methods)
                    {
                        if (method is not JsonObject methodLimits)
                        {
                            throw Refused($"methods.{key} must be an object of limits ({string.Join(", ", FieldNames(typeof(MethodLimits)))}), not {Text(method)}.");
                        }
                        if (key.Length == 0 || key.Any(char.IsWhiteSpace) || !key.Contains('.', StringComparison.Ordinal))
                        {
                            throw Refused($"methods: \"{key}\" is not a method key (Namespace.Type.Method, nested types joined with '.', as the analyzer's SARIF names it).");
                        }
                        var methodCount = 0;
                        foreach (var (field, limit) in methodLimits)
                        {
                            methodCount += CheckLimit($"methods.{key}.{field}", field, limit, typeof(MethodLimits));
                        }
                        limits += methodCount > 0 ? methodCount : throw Refused($"methods.{key} sets no limit: give {string.Join(", ", FieldNames(typeof(MethodLimits)))}, or leave the method out.");
                    }
                    break;
                case "methods":
                    throw Refused($"methods must be an object of method keys to limits, not {Text(value)}.");
                default:
                    limits += CheckLimit(name, name, value, typeof(BudgetFile));
                    break;
            }
        }
        if (!root.ContainsKey("budgetVersion"))
        {
            throw Refused($"budgetVersion is missing: it marks the file as a budget ({CurrentVersion}).");
        }
        if (limits == 0)
        {
            throw Refused($"it sets no limit, so it would hold the run to nothing: give at least one of {string.Join(", ", LimitFields())}.");
        }
        return root.Deserialize<BudgetFile>(AsyncCostReportJson.Options) ?? throw Refused("it is null.");

        // 1 for a limit that is a number of 0 or more; refused, naming the field, otherwise.
        int CheckLimit(string where, string field, JsonNode? value, Type owner)
        {
            if (!FieldNames(owner).Contains(field))
            {
                throw Refused($"{where} is not a {(owner == typeof(MethodLimits) ? "method limit" : "budget field")} (known: {string.Join(", ", FieldNames(owner))}).");
            }
            if (value is not JsonValue limit || !limit.TryGetValue<double>(out var number))
            {
                throw Refused($"{where} must be a number, not {Text(value)} (leave a limit out to hold nothing to it).");
            }
            return number >= 0 ? 1 : throw Refused($"{where} is {number.ToString(CultureInfo.InvariantCulture)}: a limit is 0 or more (a cost can only be above it).");
        }
    }

    /// <summary>
    /// The budget's JSON schema: the record's, generated so it cannot drift, with what <see cref="Read"/> also refuses
    /// stated in it: a limit is a number of 0 or more (never null: leave it out to hold nothing), budgetVersion is 1, and a
    /// method's limits are at least one.
    /// </summary>
    public static JsonNode JsonSchema()
    {
        var schema = AsyncCostReportJson.GetSchema(typeof(BudgetFile), $"AsyncCost budget, version {CurrentVersion}");
        static void Limits(JsonObject? properties)
        {
            foreach (var (_, property) in properties ?? [])
            {
                if (property is JsonObject limit && limit["type"] is JsonArray types && types.Any(t => (string?)t == "number"))
                {
                    limit["type"] = "number";
                    limit["minimum"] = 0;
                }
            }
        }
        var properties = schema["properties"]!.AsObject();
        Limits(properties);
        properties["budgetVersion"]!["enum"] = new JsonArray(CurrentVersion);
        var methods = properties["methods"]!.AsObject();
        methods["type"] = "object";
        var method = methods["additionalProperties"]!.AsObject();
        Limits(method["properties"]!.AsObject());
        method["minProperties"] = 1;
        // At least one limit: a file with its version alone would hold the run to nothing.
        schema.AsObject()["anyOf"] = new JsonArray([.. LimitFields().Select(limit => (JsonNode)new JsonObject { ["required"] = new JsonArray(limit) })]);
        return schema;
    }

    /// <summary>The fields that set limits: all but the file's version and its schema pointer.</summary>
    private static IEnumerable<string> LimitFields() => FieldNames(typeof(BudgetFile)).Where(f => f is not ("$schema" or "budgetVersion"));

    /// <summary>A JSON value as the file spells it, for an error ("null", "\"7\"", "[1,2]").</summary>
    private static string Text(JsonNode? value) => value?.ToJsonString() ?? "null";

    /// <summary>The fields a budget object may have, as the JSON names them: the record's properties (the schema's source).</summary>
    private static IReadOnlyList<string> FieldNames(Type owner) =>
    [
        .. owner.GetProperties(BindingFlags.Public | BindingFlags.Instance)
            .Select(p => p.GetCustomAttribute<JsonPropertyNameAttribute>()?.Name ?? AsyncCostReportJson.Options.PropertyNamingPolicy!.ConvertName(p.Name)),
    ];
}

/// <summary>The most one async method may cost per operation, in a budget file's "methods".</summary>
[JsonUnmappedMemberHandling(JsonUnmappedMemberHandling.Disallow)]
internal sealed record MethodLimits
{
    [Description("The most bytes the method allocates per operation of the allocation pass (its row's bytes; an estimate with its bound); 0 or more.")]
    public double? BytesPerOperation { get; init; }

    [Description("The most thread-pool hops the method's resumptions take per operation of the hop pass (exact); 0 or more.")]
    public double? HopsPerOperation { get; init; }

    [Description("The most blocking waits (Wait, Result, GetAwaiter().GetResult() on an incomplete task) the method makes per operation of the hop pass (exact); 0 or more.")]
    public double? BlockingWaitsPerOperation { get; init; }
}
