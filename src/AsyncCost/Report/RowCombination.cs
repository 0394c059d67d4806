using System.Globalization;

namespace AsyncCost.Report;

/// <summary>
/// How the passes' figures of one method become one row on one <see cref="RowBasis"/>, so that the row's calls × bytes per
/// call equal its bytes within the printed bounds. Bytes per call are always the allocation samples' ratio (boxes and result
/// tasks are the calls, both in the same samples). The calls beside them are the hop pass's exact count only when that pass
/// counted the same run the samples came from; otherwise they are the samples' own estimate, and the hop pass's count stays
/// its own (<see cref="MethodCost.SuspendingCalls"/>), for the slice of time it recorded.
/// </summary>
internal static class RowCombination
{
    /// <summary>
    /// The basis the passes share. Each pass of a launched command runs it once, from start to exit: every pass counts the same
    /// run (of a command that does the same work each time). Traces of passes recorded from different processes are read alike,
    /// when none of them is cut short. Anything else (an attached process, a pass cut short or ended by the duration or by
    /// the user) recorded each pass in its own slice of time, at its own pace: the hop pass's TPL events slow the process.
    /// So did a command whose runs said different operation counts (one that stops itself after some seconds does a
    /// fraction of the work under the hop pass's tracing): the hop pass's count of calls is not the allocation pass's run's.
    /// </summary>
    public static RowBasis BasisOf(SourceKind source, IReadOnlyList<PassResult> passes, StopReason stop)
    {
        ArgumentNullException.ThrowIfNull(passes);
        var wholeRuns = passes.All(p => !p.CutShort) && stop is StopReason.ProcessExited or StopReason.EndOfTrace && !RunsDiffer(passes);
        var processes = passes.Select(p => p.ProcessId ?? p.Figures.ProcessId).ToList();
        return source switch
        {
            SourceKind.Launch when wholeRuns => RowBasis.Run,
            SourceKind.TraceFile when wholeRuns && passes.Count > 1 && processes.All(p => p is not null) && processes.Distinct().Count() == passes.Count => RowBasis.Run,
            _ => RowBasis.EachPass,
        };
    }

    /// <summary>True when the passes' runs said different operation counts: they did different work.</summary>
    public static bool RunsDiffer(IReadOnlyList<PassResult> passes) =>
        passes.Select(p => p.Operations).OfType<long>().Distinct().Count() > 1;

    /// <summary>
    /// The row's calls, bytes and objects. On <see cref="RowBasis.Run"/>, where the hop pass counted every call (none completed
    /// synchronously, which it cannot see), the count is the calls, and bytes and objects are their per-call ratios times it
    /// (the ratio estimator of a total whose calls are known: narrower than the samples' own total, and a stray sample in a
    /// method called a few times costs it a few calls' bytes, not a sample's weight). Samples whose estimate contradicts the
    /// count beyond its bound are named in <see cref="RowFigures.Disagreement"/>. On <see cref="RowBasis.EachPass"/> the
    /// calls are the allocation samples' estimate (the hop pass's, when no call of it was sampled); when neither saw a call,
    /// none (not observable).
    /// </summary>
    public static RowFigures Combine(RowBasis basis, MethodPassFigures figures)
    {
        ArgumentNullException.ThrowIfNull(figures);
        var counted = figures.HopCountsComplete && figures.SuspendingCalls is { Sampled: false, Value: > 0 };
        if (basis == RowBasis.Run && counted && !figures.CompletedSynchronously)
        {
            var calls = figures.SuspendingCalls!;
            return new RowFigures(
                calls,
                Times(figures.BytesPerCall, calls.Value) ?? figures.Bytes,
                Times(figures.ObjectsPerCall, calls.Value) ?? figures.Objects,
                Contradicts(figures.SampledCalls, calls.Value) ? Disagreement(figures.SampledCalls!, calls.Value, "counted") : null);
        }
        if (basis == RowBasis.Run && counted && figures.SampledCalls is { } estimate && estimate.Value + estimate.ErrorBound < figures.SuspendingCalls!.Value)
        {
            // Some calls completed synchronously, so the estimate counts more calls than suspended, never fewer.
            return new RowFigures(null, figures.Bytes, figures.Objects, Disagreement(estimate, figures.SuspendingCalls.Value, "counted suspending"));
        }
        // No call sampled and none suspended: the row exists because the method ran (it allocated, hopped or blocked), in calls
        // that completed synchronously without a box or task, which EventPipe cannot count. Not observable, never 0.
        return new RowFigures(figures.SampledCalls ?? (figures.SuspendingCalls is { Value: > 0 } suspended ? suspended : null), figures.Bytes, figures.Objects, null);
    }

    private static bool Contradicts(Figure? estimate, double count) => estimate is not null && Math.Abs(estimate.Value - count) > estimate.ErrorBound;

    private static string Disagreement(Figure estimate, double count, string counted) => string.Create(CultureInfo.InvariantCulture,
        $"the hop pass {counted} {count:N0} call(s), the allocation samples estimate {estimate.Value:N0} ± {estimate.ErrorBound:N0}");

    /// <summary>A per-call figure times the exact calls. Its bound is the ratio's times the calls, but never under what n
    /// samples can miss: a kind of allocation none of them hit is, at 95 %, under 3/n of the bytes (the rule of three), which
    /// the ratio's bound does not see when every sample is one size.</summary>
    private static Figure? Times(Figure? perCall, double calls)
    {
        if (perCall is null)
        {
            return null;
        }
        var value = perCall.Value * calls;
        return perCall with { Value = value, ErrorBound = Math.Max(perCall.ErrorBound * calls, value * 3.0 / Math.Max(perCall.Samples, 1)) };
    }
}

/// <summary>One method's figures from each pass, before they are combined into a row.</summary>
/// <param name="SampledCalls">Calls estimated from the allocation samples of the method's boxes and result tasks.</param>
/// <param name="SuspendingCalls">Calls that suspended, from the hop pass (exact, or scaled from windows).</param>
/// <param name="HopCountsComplete">True when the hop pass lost no events.</param>
/// <param name="CompletedSynchronously">True when result tasks were sampled: calls the hop pass cannot see.</param>
/// <param name="Bytes">The allocation samples' bytes.</param>
/// <param name="Objects">The allocation samples' objects.</param>
/// <param name="BytesPerCall">Bytes per sampled call (ratio estimator).</param>
/// <param name="ObjectsPerCall">Objects per sampled call.</param>
internal sealed record MethodPassFigures(
    Figure? SampledCalls, Figure? SuspendingCalls, bool HopCountsComplete, bool CompletedSynchronously,
    Figure? Bytes, Figure? Objects, Figure? BytesPerCall, Figure? ObjectsPerCall);

/// <summary>A row's calls, bytes and objects on one basis, and why the passes disagreed, if they did.</summary>
internal sealed record RowFigures(Figure? Calls, Figure? Bytes, Figure? Objects, string? Disagreement);
