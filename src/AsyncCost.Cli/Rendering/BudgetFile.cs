using System.ComponentModel;
using System.Text.Json.Serialization;

namespace AsyncCost.Cli.Rendering;

/// <summary>
/// A budget checked into a repository (asynccost-budget.json), which `compare budget.json run.json --fail-on-regression` holds a
/// run to: the most each cost per operation may be and the least throughput, in the units compare prints. A figure left out is
/// not held to anything. Unknown properties are refused, so a misspelt limit fails the job instead of passing it silently.
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

    [Description("The least throughput, in operations per second of the run's allocation pass (as 'compare' prints it), or null for none.")]
    public double? MinimumThroughput { get; init; }

    [Description("The most bytes allocated in async methods per operation (the allocation pass's estimate; 'Async-method bytes per op'), or null for none.")]
    public double? AsyncMethodBytesPerOperation { get; init; }

    [Description("The most thread-pool hops per operation (the hop pass's count; 'Thread-pool hops per op'), or null for none.")]
    public double? HopsPerOperation { get; init; }

    /// <summary>The limit on one of compare's judged figures (by its key), or null when the budget sets none.</summary>
    public double? LimitOf(string figureKey) => figureKey switch
    {
        "throughput" => MinimumThroughput,
        "asyncMethodBytes" => AsyncMethodBytesPerOperation,
        "hops" => HopsPerOperation,
        _ => null,
    };
}
