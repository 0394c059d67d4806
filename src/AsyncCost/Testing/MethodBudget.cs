using System.Globalization;
using AsyncCost.Report;

namespace AsyncCost.Testing;

/// <summary>
/// The most one async method may cost per operation; null figures are not checked. A figure passes when it is within the
/// budget at its bound's top (an exact count: when it is within), fails when it is over at its bound's bottom, and is
/// undecided (a failure that says so) when the budget lies inside its bound. Bytes also pass when the GC's exact count of all
/// bytes per operation (<see cref="MeasuredCost.BytesCeilingPerOperation"/>) is within the budget.
/// </summary>
public sealed record MethodBudget
{
    /// <summary>Bytes the method may allocate per operation.</summary>
    public double? BytesPerOperation { get; init; }

    /// <summary>State-machine boxes it may allocate per operation.</summary>
    public double? StateMachinesPerOperation { get; init; }

    /// <summary>Thread-pool hops its resumptions may take per operation.</summary>
    public double? HopsPerOperation { get; init; }

    /// <summary>Synchronous waits on its task per operation.</summary>
    public double? BlockingWaitsPerOperation { get; init; }

    /// <summary>One sentence per figure over (or undecided against) its budget; none when all are within.</summary>
    internal IEnumerable<string> Check(MethodCostPerOperation method, MeasuredCost cost)
    {
        if (BytesPerOperation is { } bytes && !(cost.BytesCeilingPerOperation <= bytes)
            && Verdict(method.DisplayName, "allocates", "B", method.Bytes, bytes, cost.AllocationOperations, method.SharedTaskBytes) is { } overBytes)
        {
            var counted = cost.BytesCeilingIsThreadCount ? "the calling thread" : "the whole process";
            yield return $"{overBytes} (The GC counted {Number(cost.BytesCeilingPerOperation)} B per operation allocated by {counted}.)";
        }
        if (StateMachinesPerOperation is { } boxes && !(cost.BytesCeilingPerOperation == 0)
            && Verdict(method.DisplayName, "allocates", "state-machine boxes", method.StateMachines, boxes, cost.AllocationOperations) is { } overBoxes)
        {
            yield return overBoxes;
        }
        if (HopsPerOperation is { } hops && Verdict(method.DisplayName, "takes", "thread-pool hops", method.Hops, hops, cost.Operations) is { } overHops)
        {
            yield return overHops;
        }
        if (BlockingWaitsPerOperation is { } waits && Verdict(method.DisplayName, "blocks on tasks", "times", method.BlockingWaits, waits, cost.Operations) is { } overWaits)
        {
            yield return overWaits;
        }
    }

    private static string? Verdict(string method, string verb, string unit, Figure figure, double budget, long operations, Figure? shared = null)
    {
        var bound = figure.Sampled ? figure.ErrorBound : 0;
        var sharedTop = shared is { Value: > 0 } ? shared.Value + shared.ErrorBound : 0;
        if (figure.Value + bound + sharedTop <= budget)
        {
            return null;
        }
        var basis = figure.Sampled
            ? $"estimate ±{Number(figure.ErrorBound)} at {Figure.ConfidenceLevel:P0}, {figure.Samples.ToString("N0", CultureInfo.InvariantCulture)} samples over {operations.ToString("N0", CultureInfo.InvariantCulture)} operations"
            : $"exact: every event counted over {operations.ToString("N0", CultureInfo.InvariantCulture)} operations";
        var what = $"{method} {verb} {Number(figure.Value)} {unit} per operation ({basis})"
            + (sharedTop > 0 ? $", and up to {Number(sharedTop)} {unit} more of a Task<T> that other async methods return too" : "");
        return figure.Value - bound > budget
            ? $"AsyncCost budget exceeded: {what}, over its budget of {Number(budget)} {unit}."
            : $"AsyncCost budget undecided: {what}; its budget of {Number(budget)} {unit} lies inside that bound. Measure more operations (MeasurementOptions) to narrow it.";
    }

    private static string Number(double value) => value.ToString(value == Math.Floor(value) ? "N0" : "0.###", CultureInfo.InvariantCulture);
}
