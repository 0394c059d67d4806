using System.Globalization;
using AsyncCost.Findings;
using AsyncCost.Report;

namespace AsyncCost.Cli.Rendering;

/// <summary>The analyzer findings ranked by measured cost (--sarif), as a table for every text format.</summary>
internal static class HotFindingsDocument
{
    /// <summary>For reading: one row per finding, costliest first.</summary>
    public static TextTable Table(HotFindingsReport hot)
    {
        var per = Unit(hot);
        var table = new TextTable("Analyzer findings, ranked by what they cost in time",
        [
            new("#"), new("Rule", ColumnAlignment.Left), new("Where", ColumnAlignment.Left), new("Cost in", ColumnAlignment.Left, ColumnFit.Shorten),
            new("Time" + per), new("Saves" + per), new("Proves"), new("Basis", ColumnAlignment.Left, ColumnFit.Drop), new("Calls", Fit: ColumnFit.Drop),
        ])
        {
            Note = hot.Findings.Count == 0 ? "There are none: the SARIF logs hold no AsyncCost finding." : Note(hot),
        };
        foreach (var row in hot.Findings)
        {
            var time = row.Time;
            table.AddRow(
                row.Rank.ToString(CultureInfo.InvariantCulture),
                row.Finding.RuleId,
                Location(row.Finding),
                CostIn(row, hot.Measured),
                TimeText(row),
                SavingText(row),
                ProvesText(row),
                BasisName(time.Basis),
                row.Method is null ? "-" : Numbers.Calls(row.Method.Calls));
        }

        return table;
    }

    /// <summary>For spreadsheets (csv): plain numbers.</summary>
    public static TextTable Raw(HotFindingsReport hot)
    {
        string[] headers = ["rank", "ruleId", "file", "line", "column", "methodKey", "costIn", "cost", "exercised", "verdict", "basis", "per", "milliseconds",
            "millisecondsErrorBound", "lowerBoundMilliseconds", "events", "fewEvents", "calls", "message", "verdictReason", "explanation",
            "savingMilliseconds", "savingErrorBound", "savingLowerBoundMilliseconds", "savingExplanation"];
        var table = new TextTable("Hot findings", [.. headers.Select(h => new TextColumn(h))]);
        foreach (var row in hot.Findings)
        {
            var finding = row.Finding;
            var time = row.Time;
            table.AddRow(
                Numbers.Raw(row.Rank),
                finding.RuleId,
                finding.FilePath ?? "",
                Numbers.Raw(finding.Line),
                Numbers.Raw(finding.Column),
                finding.MethodKey ?? "",
                string.Join(";", finding.CostMethodKeys),
                CostName(finding.CostKind),
                row.Exercised ? "true" : "false",
                VerdictName(row.Verdict),
                BasisName(time.Basis),
                time.Per.ToString(),
                Numbers.Raw(time.Milliseconds?.Value),
                Numbers.Raw(time.Milliseconds?.ErrorBound),
                Numbers.Raw(time.Milliseconds is null ? null : time.LowerBound),
                Numbers.Raw(time.Milliseconds is null ? null : time.Events),
                time.FewEvents ? "true" : "false",
                Numbers.Raw(row.Method?.Calls?.Value),
                finding.Message,
                row.VerdictReason ?? "",
                time.Explanation,
                Numbers.Raw((time.Saving ?? time).Milliseconds?.Value),
                Numbers.Raw((time.Saving ?? time).Milliseconds?.ErrorBound),
                Numbers.Raw((time.Saving ?? time).Milliseconds is null ? null : time.SavingLowerBound),
                time.Saving?.Explanation ?? "the saving is the time");
        }

        return table;
    }

    /// <summary>"/op", "/req" (an ASP.NET Core service's requests), "/s" or "" (over the recording): what the report's times are per.</summary>
    internal static string Unit(HotFindingsReport hot) =>
        Unit(hot.Findings.Select(f => f.Time).FirstOrDefault(t => t.Milliseconds is not null)?.Per, PassBasis.OperationsAreRequests(hot.Measured));

    /// <summary>"/op" ("/req" when the operations are a service's requests), "/s", or nothing (over the recording, or
    /// unknown): what a column's times are per.</summary>
    internal static string Unit(TimeUnit? per, bool requests) =>
        per switch
        {
            TimeUnit.Operation => requests ? "/req" : "/op",
            TimeUnit.SecondOfRecording => "/s",
            _ => "",
        };

    /// <summary>The time cell: the figure with its bound, or why there is none.</summary>
    internal static string TimeText(HotFinding row) => row.Verdict != FindingVerdict.Measured ? VerdictName(row.Verdict).Replace('-', ' ')
        : Numbers.Time(row.Time.Milliseconds);

    /// <summary>What the fix is predicted to save: the time itself where the fix removes it.</summary>
    internal static string SavingText(HotFinding row) => row.Time.Saving is not { } saving ? (row.Verdict == FindingVerdict.Measured ? "= time" : "-")
        : saving.Milliseconds is null ? Numbers.NotObservable : Numbers.Time(saving.Milliseconds);

    /// <summary>The saving's lower bound, what the ranking sorts by; * when it rests on few events.</summary>
    internal static string ProvesText(HotFinding row)
    {
        var ranked = row.Time.Saving ?? row.Time;
        return ranked.Milliseconds is null ? "" : Numbers.Time(ranked.LowerBound) + (ranked.FewEvents ? "*" : "");
    }

    /// <summary>Where the cost is spent: the first method the time was taken from ("+1" for each more), else the finding's own.</summary>
    internal static string CostIn(HotFinding row, Report.AsyncCostReport measured)
    {
        var keys = CostKeys(row);
        return keys.Count > 1 ? $"{CostName(keys[0], row, measured)} +{keys.Count - 1}" : CostName(keys.Count > 0 ? keys[0] : null, row, measured);
    }

    /// <summary>The display name of the method a finding's cost is in (its row's name where it has one).</summary>
    internal static string CostName(string? key, HotFinding row, Report.AsyncCostReport measured) => key is null
        ? row.Method?.DisplayName ?? row.Finding.MethodKey ?? "-"
        : measured.Methods.FirstOrDefault(m => m.MethodKey == key)?.DisplayName ?? key;

    /// <summary>The keys of the methods a finding's cost is spent in: those its time was taken from, else those the analyzer
    /// named; empty when it is the finding's own method.</summary>
    internal static IReadOnlyList<string> CostKeys(HotFinding row) =>
        row.Time.MethodKeys.Count > 0 ? row.Time.MethodKeys : row.Finding.CostMethodKeys;

    private static string Note(HotFindingsReport hot)
    {
        var per = hot.Findings.Select(f => f.Time).FirstOrDefault(t => t.Milliseconds is not null)?.Per;
        return "Time: what the finding costs "
            + (per switch
            {
                TimeUnit.Operation when PassBasis.OperationsAreRequests(hot.Measured) => "per request (each pass's requests, from Kestrel's events)",
                TimeUnit.Operation => "per operation of the run",
                TimeUnit.SecondOfRecording => "per second of recording (operations unknown; 'collect --operations N' gives them)",
                _ => "over the recording",
            })
            + ", ~ an estimate with its 95 % bound. Basis: blocked = time its waits held threads; elapsed = the awaited callees' elapsed "
            + "time (Cost in names them); hops = hops x a hop's benchmarked cost; calls = calls x what the fix saves per call, benchmarked. "
            + "Saves: what the fix is predicted to save; for an await in a loop, per execution of the loop its calls' elapsed time "
            + "less the longest (what running them together leaves), else the time itself. "
            + "Ranked by Proves, the lower end of what the saving can prove; * rests on fewer than "
            + FindingTime.MinimumEvents.ToString(CultureInfo.InvariantCulture)
            + " events and ranks by their Poisson lower bound (a wait's time leaves its longest wait out). Not observable: no measured figure "
            + "supports a time (json's time.explanation says why); not exercised: the method never ran. Benchmarked costs: " + BenchmarkedCosts.Machine + ".";
    }

    internal static string BasisName(TimeBasis basis) => basis switch
    {
        TimeBasis.TimeBlocked => "blocked",
        TimeBasis.CalleeElapsed => "elapsed",
        TimeBasis.Hops => "hops",
        TimeBasis.Calls => "calls",
        TimeBasis.LoopMethodElapsed => "loop elapsed",
        TimeBasis.SavingIfTogether => "saving if together",
        _ => "-",
    };

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
