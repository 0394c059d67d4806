using System.ComponentModel;
using AsyncCost.Findings;

namespace AsyncCost.Report;

/// <summary>Why a node of the call tree has no children although its method awaited calls.</summary>
public enum CallTreeCut
{
    /// <summary>Not cut: its children are all there.</summary>
    None,

    /// <summary>The method is already on the path above (recursion): its calls are those of the node above, not repeated.</summary>
    Recursion,

    /// <summary>The path reached <see cref="AsyncCallTree.MaxDepth"/> calls.</summary>
    Depth,

    /// <summary>The tree reached <see cref="AsyncCallTree.MaxNodes"/> nodes.</summary>
    Size,
}

/// <summary>
/// One call of the async call tree: a method as the call above awaited it (a root: as its own callers did, none of which is
/// timed), with the figures of its calls on that path, per the tree's unit.
/// </summary>
public sealed class CallTreeNode
{
    /// <summary>The method's join key.</summary>
    public required string MethodKey { get; init; }

    /// <summary>The method's name as printed.</summary>
    public required string DisplayName { get; init; }

    /// <summary>Whose code the method is, from its row (the application's own, or the framework's or a library's).</summary>
    public MethodOrigin Origin { get; init; }

    /// <summary>The method's assembly, from its row, when known.</summary>
    public string? Assembly { get; init; }

    /// <summary>The method's calls on this path, per the tree's unit: a root's suspending calls; a callee's calls its caller
    /// awaited one after another and started together (timed calls only).</summary>
    [Description("The method's calls on this path, per the tree's unit (per operation, else per second): a root's suspending calls; a callee's timed calls its caller awaited one after another or started together.")]
    public Figure? Calls { get; init; }

    /// <summary>Calls the caller awaited one after another per run (an execution of the loop that made them); 0 when none were.</summary>
    [Description("The mean number of calls the caller awaited one after another in a run (an execution of the loop that made them); 0 when it awaited none so.")]
    public double CallsPerRun { get; init; }

    /// <summary>Calls the caller started together per group (Task.WhenAll); 0 when none were.</summary>
    [Description("The mean number of calls the caller started together in a group (Task.WhenAll); 0 when it started none so.")]
    public double CallsPerGroup { get; init; }

    /// <summary>What the caller waited on these calls, per the tree's unit (one after another and together); a root's: what
    /// its callers waited on it, its elapsed time.</summary>
    [Description("Milliseconds per the tree's unit the caller waited on these calls, one after another and together (a root: its own elapsed time, what its untimed callers waited).")]
    public Figure? WaitedMilliseconds { get; init; }

    /// <summary>The method's mean elapsed time per call, from its row (all its calls, whoever made them).</summary>
    [Description("The method's mean milliseconds from a call to its completion, from its row (all its suspending calls, whoever made them).")]
    public Figure? ElapsedPerCallMilliseconds { get; init; }

    /// <summary>What running each run's calls together would save, per the tree's unit, if their latencies are independent
    /// (each run less its longest call); null when the caller awaited none one after another.</summary>
    [Description("Predicted milliseconds per the tree's unit that running each run's calls together would save, their latencies independent (each run's calls less the longest): the low end. Null when none were awaited one after another.")]
    public Figure? SavingIfTogetherMilliseconds { get; init; }

    /// <summary>The same, had the calls run together finished together (each run less its mean call): the high end.</summary>
    [Description("The same had the calls, run together, finished together (each run's calls less their mean): the high end of the prediction.")]
    public Figure? SavingIfOverlappingMilliseconds { get; init; }

    /// <summary>The share of the method's calls (as a callee, from all its callers) that this path holds: its own awaited
    /// calls below are its figures times this share (1 for a root, or a callee with one caller).</summary>
    [Description("The share (0..1) of the method's calls, from all its callers, on this path: the figures of its own callees below are apportioned by it (1 for a root or a callee of one caller).")]
    public double Share { get; init; } = 1;

    /// <summary>Why the node has no children although its method awaited calls.</summary>
    [Description("Why the node has no children although its method awaited calls: 'none', 'recursion' (already on the path above), 'depth' or 'size' (the tree's limits).")]
    public CallTreeCut Cut { get; init; }

    /// <summary>The calls this one awaited, the most waited first.</summary>
    public IReadOnlyList<CallTreeNode> Children { get; init; } = [];
}

/// <summary>A node with its depth (0 for a root), in the order a tree is read: depth first, the costliest child first.</summary>
/// <param name="Node">The node.</param>
/// <param name="Depth">Its distance from its root.</param>
public readonly record struct CallTreeLine(CallTreeNode Node, int Depth);

/// <summary>
/// The async call tree of a report, computed here and only here from the methods' awaited calls (the hop pass links each
/// timed call to the call that awaited or started it): roots are the methods that awaited calls and that no other method
/// awaited (the operation's entry points), each node's children the calls its method awaited, the most waited first, so the costliest path reads
/// first. Figures are per operation when every pass knows its operations, else per second of the hop pass, as findings'
/// times are. A callee awaited by several methods has one set of awaited calls (its row's): under each caller they are
/// apportioned by the share of the callee's calls that caller made. Recursion is cut where a method recurs on its own path.
/// </summary>
public sealed class AsyncCallTree
{
    /// <summary>Paths are cut at this many calls.</summary>
    public const int MaxDepth = 16;

    /// <summary>The tree stops growing at this many nodes.</summary>
    public const int MaxNodes = 500;

    /// <summary>What the figures are per.</summary>
    [Description("What the tree's figures are per: 'operation' (every pass knew its operations), 'secondOfRecording' (of the hop pass) or 'recording'.")]
    public TimeUnit Per { get; init; }

    /// <summary>The entry points, costliest first.</summary>
    public IReadOnlyList<CallTreeNode> Roots { get; init; } = [];

    /// <summary>Every node with its depth, depth first, the costliest child first.</summary>
    public IReadOnlyList<CallTreeLine> Lines()
    {
        var lines = new List<CallTreeLine>();
        var stack = new Stack<CallTreeLine>(Roots.Reverse().Select(r => new CallTreeLine(r, 0)));
        while (stack.TryPop(out var line))
        {
            lines.Add(line);
            foreach (var child in line.Node.Children.Reverse())
            {
                stack.Push(new CallTreeLine(child, line.Depth + 1));
            }
        }
        return lines;
    }

    /// <summary>The tree of <paramref name="report"/>; without a hop pass (no awaited calls, no elapsed time), no roots.</summary>
    public static AsyncCallTree Of(AsyncCostReport report)
    {
        ArgumentNullException.ThrowIfNull(report);
        var scale = new FindingTimes.TimeScale(report);
        var rows = report.Methods.GroupBy(m => m.MethodKey, StringComparer.Ordinal).ToDictionary(g => g.Key, g => g.First(), StringComparer.Ordinal);
        // What each method's calls as a callee add up to, over all its callers: the whole a path's share is taken of.
        var calledFrom = report.Methods.SelectMany(m => m.AwaitedCalls.Select(a => (Caller: m.MethodKey, Call: a))).ToList();
        var inbound = calledFrom.GroupBy(c => c.Call.MethodKey, StringComparer.Ordinal)
            .ToDictionary(g => g.Key, g => g.Sum(c => CallsOf(c.Call)?.Value ?? 0), StringComparer.Ordinal);
        var awaitedByAnother = calledFrom.Where(c => c.Caller != c.Call.MethodKey).Select(c => c.Call.MethodKey).ToHashSet(StringComparer.Ordinal);
        var builder = new Builder(rows, inbound, scale);

        var entries = report.Methods
            .Where(m => m.AwaitedCalls.Count > 0 && !awaitedByAnother.Contains(m.MethodKey))
            .ToList();
        // Methods only a cycle awaits (A awaits B, B awaits A, nothing else either) are reached from none of those roots:
        // the costliest of them is a root too, until each is reachable (whatever the tree's limits leave out).
        var reached = new HashSet<string>(StringComparer.Ordinal);
        entries.ForEach(entry => Reach(entry.MethodKey, rows, reached));
        while (report.Methods.Where(m => m.AwaitedCalls.Count > 0 && !reached.Contains(m.MethodKey)).OrderByDescending(m => m.ElapsedMilliseconds?.Value ?? 0).FirstOrDefault() is { } cycle)
        {
            entries.Add(cycle);
            Reach(cycle.MethodKey, rows, reached);
        }
        var roots = entries.Select(builder.Root).ToList();
        return new AsyncCallTree { Per = scale.Unit, Roots = [.. roots.OrderByDescending(Cost).ThenBy(r => r.DisplayName, StringComparer.Ordinal)] };
    }

    /// <summary>Adds <paramref name="key"/> and every method its calls awaited, transitively, to <paramref name="reached"/>.</summary>
    private static void Reach(string key, Dictionary<string, MethodCost> rows, HashSet<string> reached)
    {
        var pending = new Stack<string>([key]);
        while (pending.TryPop(out var next))
        {
            if (reached.Add(next) && rows.TryGetValue(next, out var row))
            {
                row.AwaitedCalls.Select(a => a.MethodKey).ToList().ForEach(pending.Push);
            }
        }
    }

    /// <summary>A root's weight: what its callers waited on it, or, when it was not timed, what it waited on its callees.</summary>
    private static double Cost(CallTreeNode root) => Math.Max(root.WaitedMilliseconds?.Value ?? 0, root.Children.Sum(c => c.WaitedMilliseconds?.Value ?? 0));

    /// <summary>The callee's timed calls under its caller: one after another and together, on the hop pass's basis.</summary>
    private static Figure? CallsOf(AwaitedCall call) => Figure.Sum([Times(call.Runs, call.CallsPerRun), Times(call.Groups, call.CallsPerGroup)]);

    private static Figure? Times(Figure? figure, double factor) =>
        figure is null || factor <= 0 ? null : figure with { Value = figure.Value * factor, ErrorBound = figure.ErrorBound * factor };

    /// <summary>Grows the tree from the rows, keeping count of its nodes and the methods it reached.</summary>
    private sealed class Builder(Dictionary<string, MethodCost> rows, Dictionary<string, double> inbound, FindingTimes.TimeScale scale)
    {
        private int _nodes;

        public CallTreeNode Root(MethodCost row)
        {
            _nodes++;
            var (children, cut) = Children(row, share: 1, [row.MethodKey]);
            return new CallTreeNode
            {
                MethodKey = row.MethodKey,
                DisplayName = row.DisplayName,
                Origin = row.Origin,
                Assembly = row.Assembly,
                Calls = PerUnit(row.SuspendingCalls, 1),
                WaitedMilliseconds = PerUnit(row.ElapsedMilliseconds, 1),
                ElapsedPerCallMilliseconds = row.ElapsedPerCallMilliseconds,
                Children = children,
                Cut = cut,
            };
        }

        private (List<CallTreeNode> Children, CallTreeCut Cut) Children(MethodCost row, double share, List<string> path)
        {
            if (row.AwaitedCalls.Count == 0)
            {
                return ([], CallTreeCut.None);
            }
            if (path.Count >= MaxDepth)
            {
                return ([], CallTreeCut.Depth);
            }
            var children = new List<CallTreeNode>();
            foreach (var call in row.AwaitedCalls.OrderByDescending(c => c.WaitedMilliseconds.Value))
            {
                if (_nodes >= MaxNodes)
                {
                    return (children, CallTreeCut.Size);
                }
                children.Add(Node(call, share, path));
            }
            return (children, CallTreeCut.None);
        }

        private CallTreeNode Node(AwaitedCall call, double share, List<string> path)
        {
            _nodes++;
            var calls = CallsOf(call);
            // The callee's own awaited calls are those of all its calls: this path holds its part of them.
            var calleeShare = share * (inbound.TryGetValue(call.MethodKey, out var all) && all > 0 && calls is not null ? Math.Min(1, calls.Value / all) : 1);
            var recursive = path.Contains(call.MethodKey, StringComparer.Ordinal);
            var callee = rows.GetValueOrDefault(call.MethodKey);
            var (children, cut) = callee is null ? ([], CallTreeCut.None)
                : recursive ? ([], CallTreeCut.Recursion)
                : Children(callee, calleeShare, [.. path, call.MethodKey]);
            return new CallTreeNode
            {
                MethodKey = call.MethodKey,
                DisplayName = call.DisplayName,
                Origin = callee?.Origin ?? MethodOrigin.User,
                Assembly = callee?.Assembly,
                Calls = PerUnit(calls, share),
                CallsPerRun = call.Runs.Value > 0 ? call.CallsPerRun : 0,
                CallsPerGroup = call.Groups.Value > 0 ? call.CallsPerGroup : 0,
                WaitedMilliseconds = PerUnit(call.WaitedMilliseconds, share),
                ElapsedPerCallMilliseconds = callee?.ElapsedPerCallMilliseconds,
                SavingIfTogetherMilliseconds = PerUnit(call.SavingIfTogetherMilliseconds, share),
                SavingIfOverlappingMilliseconds = PerUnit(call.SavingIfOverlappingMilliseconds, share),
                Share = calleeShare,
                Cut = cut,
                Children = children,
            };
        }

        /// <summary>A total over the recording, times the path's share, per operation (or second) of its pass.</summary>
        private Figure? PerUnit(Figure? total, double share) => Times(total, share)?.Per(scale.Divisor(total!.Source));
    }
}
