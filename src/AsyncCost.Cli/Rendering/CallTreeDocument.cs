using System.Globalization;
using AsyncCost.Report;

namespace AsyncCost.Cli.Rendering;

/// <summary>
/// The async call tree (<see cref="AsyncCallTree"/>, computed by the library) as a table for every text format: one row per
/// call, indented under the call that awaited it, the costliest path first. The page draws the same cells (<see cref="CallTreeHtml"/>).
/// </summary>
internal static class CallTreeDocument
{
    /// <summary>Rows a text format shows; the JSON and the page hold every call.</summary>
    internal const int MaxRowsShown = 40;

    /// <summary>The tree as a table, or null when it has no calls (no hop pass, nothing awaited).</summary>
    /// <param name="report">The report.</param>
    /// <param name="allMethods">Name the framework's and libraries' methods one by one instead of by their assembly.</param>
    public static TextTable? Table(AsyncCostReport report, bool allMethods)
    {
        ArgumentNullException.ThrowIfNull(report);
        var tree = report.CallTree;
        var lines = tree.Lines();
        if (lines.Count == 0)
        {
            return null;
        }
        var per = HotFindingsDocument.Unit(tree.Per, PassBasis.OperationsAreRequests(report));
        var table = new TextTable("Async call tree, costliest path first",
        [
            new("Call", ColumnAlignment.Left, ColumnFit.Shorten), new("Calls" + per), new("Ran", ColumnAlignment.Left), new("Waited" + per),
            new("Elapsed/call", Fit: ColumnFit.Drop), new("Saves" + per),
        ])
        {
            Note = Note(per) + (lines.Count > MaxRowsShown
                ? string.Create(CultureInfo.InvariantCulture, $" The first {MaxRowsShown} of its {lines.Count} calls are shown; --format json and html hold all.")
                : ""),
        };
        foreach (var line in lines.Take(MaxRowsShown))
        {
            var node = line.Node;
            table.AddRow(Name(line, allMethods), Calls(node), RanText(node, line.Depth), Numbers.Time(node.WaitedMilliseconds), Numbers.Time(node.ElapsedPerCallMilliseconds), SavingText(node));
        }
        return table;
    }

    /// <summary>What each column is, for the table and the page.</summary>
    internal static string Note(string per) =>
        "Each call under the call that awaited it (hop pass: the runtime's task events link a callee to its awaiting caller); a root awaited calls and no method awaited it. [Assembly]: a method of the framework or a library (--all-methods names it). "
        + $"Calls{per}: the calls on that path{PerText(per)}. Ran: N in turn = N calls awaited one after another in each execution of the caller's loop; "
        + "N together = N calls started together (Task.WhenAll). "
        + $"Waited{per}: what the caller waited on them (a root: its own elapsed time). Elapsed/call: the method's mean call. "
        + $"Saves{per}: what running each loop's calls together would save, from their latencies independent (less the longest call) to finishing together (less the mean call). "
        + "A callee awaited by several methods shares its own calls among them by its calls from each; ↻ marks recursion, cut.";

    private static string PerText(string per) => per switch
    {
        "/op" => ", per operation",
        "/req" => ", per request (each pass's requests, from Kestrel's events)",
        "/s" => ", per second of the hop pass (operations unknown)",
        _ => "",
    };

    /// <summary>The method, indented under its caller; a cut path says why. The framework's and libraries' methods are named by
    /// their assembly, as the methods table sums them, unless <paramref name="allMethods"/>.</summary>
    internal static string Name(CallTreeLine line, bool allMethods) =>
        (line.Depth == 0 ? "" : new string(' ', 2 * (line.Depth - 1)) + "└ ")
        + (allMethods || line.Node.Origin == MethodOrigin.User ? line.Node.DisplayName : $"[{line.Node.Assembly ?? "framework"}]")
        + line.Node.Cut switch
        {
            CallTreeCut.Recursion => " ↻",
            CallTreeCut.Depth or CallTreeCut.Size => " …",
            _ => "",
        };

    /// <summary>The calls on the path; "-" when not counted.</summary>
    internal static string Calls(CallTreeNode node) => node.Calls is null ? "-" : Numbers.Figure(node.Calls, Numbers.Fraction);

    /// <summary>How the caller ran them: "4 in turn", "4 together", both, or "entry" for a root.</summary>
    internal static string RanText(CallTreeNode node, int depth)
    {
        if (depth == 0)
        {
            return "entry";
        }
        var ways = new List<string>();
        if (node.CallsPerRun > 0)
        {
            ways.Add(node.CallsPerRun.ToString("0.#", CultureInfo.InvariantCulture) + " in turn");
        }
        if (node.CallsPerGroup > 0)
        {
            ways.Add(node.CallsPerGroup.ToString("0.#", CultureInfo.InvariantCulture) + " together");
        }
        return ways.Count == 0 ? "-" : string.Join(", ", ways);
    }

    /// <summary>The predicted saving, its low end to its high end ("13.2–15.6 ms"); "-" where nothing was awaited in turn.</summary>
    internal static string SavingText(CallTreeNode node) => node switch
    {
        { SavingIfTogetherMilliseconds: null } => "-",
        { SavingIfTogetherMilliseconds: { Value: var low }, SavingIfOverlappingMilliseconds: { Value: var high } } when high > low => Numbers.TimeRange(low, high),
        _ => Numbers.Time(node.SavingIfTogetherMilliseconds!.Value),
    };
}
