using AsyncCost.Findings;

namespace AsyncCost.Cli.Rendering;

/// <summary>The analyzer findings ranked by measured cost (--sarif), as a table for every text format.</summary>
internal static class HotFindingsDocument
{
    /// <summary>For reading: one row per finding, costliest first.</summary>
    public static TextTable Table(HotFindingsReport hot)
    {
        var table = new TextTable("Analyzer findings, ranked by what their methods cost",
        [
            new("#"), new("Rule", ColumnAlignment.Left), new("Where", ColumnAlignment.Left), new("Method", ColumnAlignment.Left, ColumnFit.Shorten),
            new("Cost", ColumnAlignment.Left, ColumnFit.Drop), new("Share"), new("Calls", Fit: ColumnFit.Drop), new("Bytes/call", Fit: ColumnFit.Drop),
            new("Hops/call", Fit: ColumnFit.Drop),
        ])
        {
            Note = "Share: the method's part of the process's measured cost of the kind the rule is about (async bytes, hops, or blocking waits); "
                + "'(time)': none of that is tied to it, and the share is of the time the cpu pass sampled in async methods. "
                + "Not exercised: the trace's method events show the method never ran. Not observable: it ran, or the trace cannot tell, but no pass could "
                + "see it (a call that completes synchronously without allocating, or a Task<T> several methods return); json's verdictReason says which.",
        };
        foreach (var row in hot.Findings)
        {
            var method = row.Method;
            table.AddRow(
                row.Rank.ToString(System.Globalization.CultureInfo.InvariantCulture),
                row.Finding.RuleId,
                Location(row.Finding),
                method?.DisplayName ?? row.Finding.MethodKey ?? "-",
                CostName(row.Finding.CostKind),
                VerdictText(row),
                method is null ? "-" : Numbers.Calls(method.Calls),
                Numbers.PerCall(method?.BytesPerCall),
                Numbers.PerCall(method?.HopsPerCall));
        }

        return table;
    }

    /// <summary>For spreadsheets (csv): plain numbers.</summary>
    public static TextTable Raw(HotFindingsReport hot)
    {
        string[] headers = ["rank", "ruleId", "file", "line", "column", "methodKey", "cost", "exercised", "share", "calls", "callsErrorBound", "bytesPerCall", "bytesPerCallErrorBound", "hopsPerCall", "message", "verdict", "verdictReason"];
        var table = new TextTable("Hot findings", [.. headers.Select(h => new TextColumn(h))]);
        foreach (var row in hot.Findings)
        {
            var finding = row.Finding;
            table.AddRow(
                Numbers.Raw(row.Rank),
                finding.RuleId,
                finding.FilePath ?? "",
                Numbers.Raw(finding.Line),
                Numbers.Raw(finding.Column),
                finding.MethodKey ?? "",
                CostName(finding.CostKind),
                row.Exercised ? "true" : "false",
                Numbers.Raw(row.Share),
                Numbers.Raw(row.Method?.Calls?.Value),
                Numbers.Raw(row.Method?.Calls?.ErrorBound),
                Numbers.Raw(row.Method?.BytesPerCall?.Value),
                Numbers.Raw(row.Method?.BytesPerCall?.ErrorBound),
                Numbers.Raw(row.Method?.HopsPerCall?.Value),
                finding.Message,
                VerdictName(row.Verdict),
                row.VerdictReason ?? "");
        }

        return table;
    }

    internal static string VerdictText(HotFinding row) => row.Verdict != FindingVerdict.Measured ? VerdictName(row.Verdict).Replace('-', ' ')
        : Numbers.Percent(row.Share) + (row.ShareIsTime ? " (time)" : "");

    private static string VerdictName(FindingVerdict verdict) => verdict switch
    {
        FindingVerdict.Measured => "measured",
        FindingVerdict.NotObservable => "not-observable",
        _ => "not-exercised",
    };

    internal static string Location(AnalyzerFinding finding) =>
        finding.FilePath is null ? "-" : Path.GetFileName(finding.FilePath) + (finding.Line is { } line ? ":" + line.ToString(System.Globalization.CultureInfo.InvariantCulture) : "");

    internal static string CostName(FindingCostKind kind) => kind switch
    {
        FindingCostKind.Allocations => "allocations",
        FindingCostKind.Hops => "hops",
        FindingCostKind.Blocking => "blocking",
        _ => "-",
    };
}
