using AsyncCost.Events;

namespace AsyncCost.Computers;

/// <summary>
/// Where a sampled allocation was made, read from its stack: <paramref name="Frame"/> is the innermost frame of application
/// code ("Ns.T+&lt;GetAsync&gt;d__2.MoveNext", "Ns.T.Parse"; no signature), null when every frame was the framework's or the
/// runtime's. <paramref name="ByAsyncBuilder"/> is true when the frames between it and the allocation were the async method
/// builder's alone: a Task&lt;T&gt; so made is the result of the frame's own method, not one a framework method it called made.
/// </summary>
internal readonly record struct AllocationSite(string? Frame, bool ByAsyncBuilder);

/// <summary>Sampled allocations of one type (made at one site, when the samples had stacks), as estimated totals with their variances.</summary>
internal sealed class TypeTally(string typeName, AllocationSite? site)
{
    public string TypeName { get; } = typeName;

    /// <summary>Where the samples were made; null for samples read without a stack (charged by their type's name alone).</summary>
    public AllocationSite? Site { get; } = site;
    public long Samples { get; set; }
    public double Bytes { get; set; }
    public double BytesVariance { get; set; }
    public double Objects { get; set; }
    public double ObjectsVariance { get; set; }

    /// <summary>Half-width of a ~95 % interval.</summary>
    public static double Bound(double variance) => 1.96 * Math.Sqrt(variance);
}

/// <summary>
/// Turns allocation samples into per-type estimates. Memory grows with the number of distinct types, never with events.
/// AllocationSampled (.NET 10): an object of size s is sampled with probability π = 1 − (1 − p)^s, p = 1/102,400, so the
/// unbiased (Horvitz–Thompson) estimates are Σ s/π bytes and Σ 1/π objects, with variance Σ (1 − π)/π² · s².
/// GCAllocationTick (fallback): each event carries the bytes allocated since the last one (~100 KB), charged to the type
/// that crossed the threshold; its error is taken as 1/√n.
/// Samples read with their stacks are tallied per (type, site), so the report can charge each to the code that made it.
/// </summary>
internal sealed class AllocationComputer
{
    private readonly Dictionary<(string Type, AllocationSite? Site), TypeTally> _types = [];

    /// <summary>Samples seen (both kinds).</summary>
    public long Samples { get; private set; }

    /// <summary>AllocationSampled samples read with their stack (a site), of <see cref="Samples"/>.</summary>
    public long SamplesWithStacks { get; private set; }

    /// <summary>Why the samples were read without their stacks where a reader tried to read them (a trace recorded without
    /// stacks, or a file TraceLog could not read); null when none tried or they were read.</summary>
    public string? StacksMissing { get; set; }

    /// <summary>Which event fed the computer: "AllocationSampled", "GCAllocationTick" or null when none arrived.</summary>
    public string? EventKind { get; private set; }

    /// <summary>One AllocationSampled event, with where its stack says it was made when it was read with one.</summary>
    public void OnAllocationSampled(string typeName, long objectSize, AllocationSite? site = null)
    {
        if (objectSize <= 0)
        {
            return;
        }
        EventKind = "AllocationSampled";
        var probability = 1 - Math.Pow(1 - KnownEvents.AllocationSamplingProbability, objectSize);
        var tally = Tally(typeName, site);
        if (site is not null)
        {
            SamplesWithStacks++;
        }
        tally.Samples++;
        tally.Bytes += objectSize / probability;
        tally.Objects += 1 / probability;
        var weight = (1 - probability) / (probability * probability);
        tally.BytesVariance += weight * objectSize * objectSize;
        tally.ObjectsVariance += weight;
        Samples++;
    }

    /// <summary>One GCAllocationTick event: <paramref name="amount"/> bytes since the last tick, <paramref name="objectSize"/> of the object that crossed it (0 if unknown).</summary>
    public void OnAllocationTick(string typeName, long amount, long objectSize)
    {
        if (amount <= 0)
        {
            return;
        }
        // AllocationSampled is exact where it exists; never mix the two estimators.
        if (EventKind == "AllocationSampled")
        {
            return;
        }
        EventKind = "GCAllocationTick";
        var tally = Tally(typeName, site: null);
        tally.Samples++;
        tally.Bytes += amount;
        tally.Objects += objectSize > 0 ? (double)amount / objectSize : 0;
        Samples++;
    }

    /// <summary>
    /// Adds another stream's estimates (a later slice or trace file of the same pass): Horvitz–Thompson totals and their
    /// variances add over disjoint streams. As within one stream, AllocationSampled estimates are never mixed with ticks.
    /// </summary>
    public void Add(AllocationComputer other) => Add(other, 1);

    /// <summary>
    /// Adds another stream's estimates, each standing for <paramref name="scale"/> times what it saw (samples taken in a slice
    /// of the time, scaled to the whole): totals scale by it, variances by its square.
    /// </summary>
    public void Add(AllocationComputer other, double scale)
    {
        ArgumentNullException.ThrowIfNull(other);
        if (other.EventKind is null || (EventKind == "AllocationSampled" && other.EventKind != EventKind))
        {
            return;
        }
        if (EventKind == "GCAllocationTick" && other.EventKind == "AllocationSampled")
        {
            _types.Clear();
            Samples = 0;
        }
        EventKind = other.EventKind;
        StacksMissing ??= other.StacksMissing;
        foreach (var theirs in other._types.Values)
        {
            var tally = Tally(theirs.TypeName, theirs.Site);
            tally.Samples += theirs.Samples;
            tally.Bytes += theirs.Bytes * scale;
            tally.BytesVariance += theirs.BytesVariance * scale * scale;
            tally.Objects += theirs.Objects * scale;
            tally.ObjectsVariance += theirs.ObjectsVariance * scale * scale;
        }
        Samples += other.Samples;
        SamplesWithStacks += other.SamplesWithStacks;
    }

    /// <summary>The per-type estimates, largest first.</summary>
    public IReadOnlyList<TypeTally> Results()
    {
        if (EventKind == "GCAllocationTick")
        {
            // Relative error 1/√n per type: a fixed stride has no per-object inclusion probability.
            foreach (var tally in _types.Values)
            {
                tally.BytesVariance = tally.Bytes * tally.Bytes / tally.Samples;
                tally.ObjectsVariance = tally.Objects * tally.Objects / tally.Samples;
            }
        }
        return [.. _types.Values.OrderByDescending(t => t.Bytes)];
    }

    private TypeTally Tally(string typeName, AllocationSite? site)
    {
        if (!_types.TryGetValue((typeName, site), out var tally))
        {
            tally = new TypeTally(typeName, site);
            _types.Add((typeName, site), tally);
        }
        return tally;
    }
}
