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
/// own Poisson error. The counter's last interval is never reported (the session ends before its next poll), so the total
/// lacks between none and one interval of work items: half of one is added to it, and half to the bound (nothing when the
/// count was read exactly, as in process). What the bound
/// leaves out: a window's edges cut some calls from their hops, as the providers are not switched at one instant.
/// <para>Times (milliseconds blocked, a call's elapsed time) are not counts: inside a window the TPL events slow the process,
/// so fewer work items complete per second and each wait and call lasts longer, and a time per work item reads as many times
/// too high. Times are scaled by the pass's seconds over the windows' instead (<see cref="Time"/>): what the windows held per
/// second × the seconds of the pass. That is the work-item scaling with each work item between the windows charged the
/// windows' time per work item ÷ the measured slowdown (<see cref="TimeCorrection"/>), the two being one and the same, and it
/// can never exceed what is physically possible (blocked seconds per second ≤ the threads that blocked in the windows).</para>
/// </summary>
internal sealed class HopScale
{
    /// <summary>The counters' interval in a windowed hop pass.</summary>
    public const double CounterIntervalSeconds = 0.1;

    private readonly HopComputer _hops;
    private readonly double _totalWorkItems;
    private readonly double _lastInterval;

    private HopScale(HopComputer hops, double totalWorkItems, bool windowed, double lastInterval = 0, double windowShare = 1)
    {
        _hops = hops;
        _totalWorkItems = totalWorkItems + (lastInterval / 2);
        _lastInterval = lastInterval;
        Windowed = windowed;
        // The windows' work items per second over the pass's: below 1 when tracing slowed the process. Never above 1: tracing
        // does not speed a process up, so windows busier than the pass caught more load, and per work item their times stand.
        TimeCorrection = windowed ? Math.Min(1, hops.WorkItems / (_totalWorkItems * windowShare)) : 1;
    }

    /// <summary>True when counts are scaled from windows.</summary>
    public bool Windowed { get; }

    /// <summary>Work items of the whole pass per work item dequeued in the windows (1 when continuous).</summary>
    public double Factor => Windowed ? _totalWorkItems / _hops.WorkItems : 1;

    /// <summary>
    /// What a time per work item measured in the windows is multiplied by to stand for the pass: the windows' work items per
    /// second over the pass's, at most 1 (1 when continuous). A count scaled by <see cref="Factor"/> and a time per count
    /// multiplied by this give <see cref="Time"/>'s figure: the windows' time × the pass's seconds ÷ the windows' seconds.
    /// </summary>
    public double TimeCorrection { get; }

    /// <summary>The work items the thread pool completed over the pass (windowed), or dequeued in it (continuous).</summary>
    public double TotalWorkItems => _totalWorkItems;

    /// <summary>The scale of a pass: windowed when it has time between windows, counters over it, and dequeued work items in the windows.</summary>
    public static HopScale For(PassResult pass)
    {
        var hops = pass.Figures.Hops;
        if (pass.Unrecorded > TimeSpan.Zero && pass.WindowedPassCounters?.CompletedWorkItems is { } total && hops.WorkItems > 0)
        {
            var seconds = (pass.Duration + pass.Unrecorded).TotalSeconds;
            return new HopScale(hops, total, windowed: true, lastInterval: total * Math.Min(pass.CounterInterval.TotalSeconds / seconds, 1),
                windowShare: pass.Duration > TimeSpan.Zero ? pass.Duration.TotalSeconds / seconds : 1);
        }
        return new HopScale(hops, hops.WorkItems, windowed: false);
    }

    /// <summary>
    /// What the windows cost the process, from the thread pool's work items per second inside the windows (dequeued there)
    /// and between them (the pass's completed work items less the windows'): how many times slower the traced process ran,
    /// and the share of the pass's work items the windows cost, were the untraced rate kept throughout. Under a load that
    /// does not wait for the process (a service's clients), this is the throughput it lost while attached. Null when
    /// continuous, or without time or work items between the windows to compare with.
    /// </summary>
    public (double WindowRate, double BetweenRate, double PassLoss)? WindowCost(PassResult pass)
    {
        ArgumentNullException.ThrowIfNull(pass);
        var between = _totalWorkItems - _hops.WorkItems;
        if (!Windowed || pass.Duration <= TimeSpan.Zero || pass.Unrecorded <= TimeSpan.Zero || between <= 0)
        {
            return null;
        }
        var windowRate = _hops.WorkItems / pass.Duration.TotalSeconds;
        var betweenRate = between / pass.Unrecorded.TotalSeconds;
        var untracedTotal = betweenRate * (pass.Duration + pass.Unrecorded).TotalSeconds;
        return (windowRate, betweenRate, Math.Max(0, 1 - (_totalWorkItems / untracedTotal)));
    }

    /// <summary>
    /// A time summed in the pass (milliseconds blocked) as a figure: exact when continuous; windowed, the windows' sum ×
    /// <see cref="Factor"/> × <see cref="TimeCorrection"/> (per second of window × the pass's seconds, or per work item when
    /// the windows ran no slower than the pass). Its bound is the compound Poisson one of a sum of <paramref name="events"/>
    /// durations, 1.96 √Σd² scaled alike; how the windows' moments differed is not in it (no time is kept per window).
    /// </summary>
    /// <param name="milliseconds">Σd over the windows.</param>
    /// <param name="squaredMilliseconds">Σd² over the windows.</param>
    /// <param name="events">The durations summed.</param>
    public Figure Time(double milliseconds, double squaredMilliseconds, long events)
    {
        if (!Windowed)
        {
            return Figure.Exact(milliseconds, FigureSource.HopPass);
        }
        var scale = Factor * TimeCorrection;
        return new Figure
        {
            Value = milliseconds * scale,
            ErrorBound = Figure.StandardErrors * Math.Sqrt(squaredMilliseconds) * scale,
            Samples = events,
            Sampled = true,
            Source = FigureSource.HopPass,
        };
    }

    /// <summary>A time per call measured in the windows, as the mean over the pass's calls (× <see cref="TimeCorrection"/>),
    /// so that the scaled calls × it is the windows' time scaled like <see cref="Time"/>; unchanged when continuous.</summary>
    public Figure? PerCallTime(Figure? perCall) => perCall is null || !Windowed ? perCall
        : perCall with { Value = perCall.Value * TimeCorrection, ErrorBound = perCall.ErrorBound * TimeCorrection };

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
        bound += ratio * _lastInterval / 2;
        return new Figure { Value = ratio * _totalWorkItems, ErrorBound = bound, Samples = (long)count, Sampled = true, Source = FigureSource.HopPass };
    }
}
