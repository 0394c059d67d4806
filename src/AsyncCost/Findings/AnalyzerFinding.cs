namespace AsyncCost.Findings;

/// <summary>What a finding costs at run time, as the analyzer's rule catalog tags it (<c>AsyncCost.Cost.*</c>).</summary>
public enum FindingCostKind
{
    /// <summary>The rule's catalog entry carried no cost tag (an older analyzer): ranked by all measured costs.</summary>
    Unknown,

    /// <summary>State machines, tasks, closures: ranked by the method's share of async bytes.</summary>
    Allocations,

    /// <summary>Continuations posted to the pool or a context: ranked by the method's share of hops.</summary>
    Hops,

    /// <summary>Blocked threads: ranked by the method's share of blocking waits.</summary>
    Blocking,
}

/// <summary>One AsyncCost analyzer finding read from a build's SARIF log.</summary>
/// <param name="RuleId">The rule, e.g. AC0005.</param>
/// <param name="Level">SARIF level: error, warning, note or none.</param>
/// <param name="Message">The diagnostic's message.</param>
/// <param name="FilePath">The source file, when the finding has a location.</param>
/// <param name="Line">1-based line of the finding.</param>
/// <param name="Column">1-based column of the finding.</param>
/// <param name="MethodKey">The containing method's join key (<c>Namespace.Type.Method</c>), from the diagnostic's <c>AsyncCostMethod</c> property.</param>
/// <param name="CostKind">What the rule costs at run time.</param>
public sealed record AnalyzerFinding(
    string RuleId,
    string Level,
    string Message,
    string? FilePath,
    int? Line,
    int? Column,
    [property: System.ComponentModel.Description(AsyncCost.Report.MethodCost.MethodKeyDescription)] string? MethodKey,
    FindingCostKind CostKind)
{
    /// <summary>The join keys of the methods the finding's cost is spent in, from the diagnostic's <c>AsyncCostCostIn</c>
    /// property (an await-in-loop's callees, the method whose task a wait blocks on); empty when it is spent in <see cref="MethodKey"/>'s method.</summary>
    [System.ComponentModel.Description("Join keys of the methods the finding's cost is spent in (SARIF result property 'AsyncCostCostIn', ';'-separated): the awaited callees of AC0001's loop, the method whose task AC0006 blocks on. Empty: its own method.")]
    public IReadOnlyList<string> CostMethodKeys { get; init; } = [];
}
