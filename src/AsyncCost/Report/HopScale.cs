using AsyncCost.Computers;

namespace AsyncCost.Report;

/// <summary>
/// How the hop pass's counts stand for the whole pass. A continuous pass counted everything: its counts are exact. A windowed
/// pass counted only in its windows, and the process ran untraced between them, so each count is scaled by the thread pool's
/// own work items: count per work item dequeued in the windows × the work items the thread pool completed over the whole
/// pass, from one counters-only session that spans it (a session's counter starts from zero when it is enabled, so sessions
/// one after another would lose the time between them). Scaling by work items rather than by time matters: a window runs
/// slower than the untraced process (the TPL events cost), so a count per second of window would be too low. The error bound
/// (~95 %) is the ratio estimate's, from how the count per work item varied between windows, and never less than the count's
/// own Poisson error.
/// </summary>
internal sealed class HopScale
{
    private readonly HopComputer _hops;
    private readonly double _totalWorkItems;

    private HopScale(HopComputer hops, double totalWorkItems, bool windowed)
    {
        _hops = hops;
        _totalWorkItems = totalWorkItems;
        Windowed = windowed;
    }

    /// <summary>True when counts are scaled from windows.</summary>
    public bool Windowed { get; }

    /// <summary>Work items of the whole pass per work item dequeued in the windows (1 when continuous).</summary>
    public double Factor => Windowed ? _totalWorkItems / _hops.WorkItems : 1;

    /// <summary>The work items the thread pool completed over the pass (windowed), or dequeued in it (continuous).</summary>
    public double TotalWorkItems => _totalWorkItems;

    /// <summary>The scale of a pass: windowed when it has time between windows, counters over it, and dequeued work items in the windows.</summary>
    public static HopScale For(PassResult pass)
    {
        var hops = pass.Figures.Hops;
        if (pass.Unrecorded > TimeSpan.Zero && pass.WindowedPassCounters?.CompletedWorkItems is { } total && hops.WorkItems > 0)
        {
            return new HopScale(hops, total, windowed: true);
        }
        return new HopScale(hops, hops.WorkItems, windowed: false);
    }

    /// <summary>A count of the pass (hops, suspending calls, waits) as a figure: exact, or scaled with its bound.</summary>
    public Figure Count(double count, WindowSpread? spread)
    {
        if (!Windowed)
        {
            return Figure.Exact(count, FigureSource.HopPass);
        }
        var workItems = (double)_hops.WorkItems;
        var ratio = count / workItems;
        var poisson = 1.96 * Math.Sqrt(count) * Factor;
        var bound = poisson;
        var windows = _hops.Windows;
        if (spread is not null && windows >= 2)
        {
            // Ratio estimator: var(R) ≈ Σ(c_i − R w_i)² / (n (n − 1) w̄²).
            var residuals = spread.SumOfSquares - (2 * ratio * spread.SumTimesWorkItems) + (ratio * ratio * _hops.WorkItemsSquared);
            var meanWorkItems = workItems / windows;
            var variance = Math.Max(residuals, 0) / (windows * (windows - 1.0) * meanWorkItems * meanWorkItems);
            bound = Math.Max(bound, 1.96 * Math.Sqrt(variance) * _totalWorkItems);
        }
        return new Figure { Value = ratio * _totalWorkItems, ErrorBound = bound, Samples = (long)count, Sampled = true, Source = FigureSource.HopPass };
    }
}
