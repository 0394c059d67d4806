namespace AsyncCost.Analyzers;

/// <summary>
/// What a finding costs at run time, so measured costs can rank it: the runtime library's hot-findings
/// join reads it from the rule's SARIF tags (<c>AsyncCost.Cost.Allocations</c> …).
/// </summary>
public enum CostKind
{
    /// <summary>State machines, tasks, closures: measured as bytes per call.</summary>
    Allocations,

    /// <summary>Continuations posted to the thread pool or a context: measured as hops per call.</summary>
    Hops,

    /// <summary>Threads blocked while waiting: measured as blocking waits and context switches.</summary>
    Blocking,
}

/// <summary>The custom tag that carries a rule's <see cref="CostKind"/> into SARIF.</summary>
public static class CostKindTag
{
    public const string Prefix = "AsyncCost.Cost.";

    public static string[] For(CostKind kind) => [Prefix + kind];
}
