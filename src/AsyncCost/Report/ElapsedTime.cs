using AsyncCost.Computers;

namespace AsyncCost.Report;

/// <summary>
/// A method's elapsed-time figures from its timed calls (the hop pass's call → box completion pairs): the mean per
/// suspending call with a Student-t interval from the calls' own spread, and the total its callers waited, that mean times
/// the hop pass's suspending calls (exact, or scaled from windows like hops).
/// </summary>
internal static class ElapsedTime
{
    /// <summary>Two-sided 95 % Student-t quantiles for 1..30 degrees of freedom.</summary>
    private static readonly double[] StudentT95 =
    [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
        2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
    ];

    /// <summary>
    /// The mean elapsed milliseconds of the timed calls, ± t(n − 1) · s / √n, s the calls' standard deviation: wide for few
    /// calls (×6.5 the normal bound at 2 calls). One call has no spread: its bound is its value (a lower bound of 0). Calls
    /// left pending at a stream's end are the longer ones, and the mean of all the calls is at least the mean that counts
    /// each of them at what it is known to have lasted (<paramref name="pendingMs"/>): where that is above the timed calls'
    /// mean, the difference is added to the bound. Null when no call was timed.
    /// </summary>
    /// <param name="timed">The calls timed from their start to their completion.</param>
    /// <param name="pendingCalls">Calls seen to suspend but not to complete.</param>
    /// <param name="pendingMs">How long those had been pending when their stream ended, summed.</param>
    public static Figure? PerCall(CallDurations timed, long pendingCalls = 0, double pendingMs = 0)
    {
        ArgumentNullException.ThrowIfNull(timed);
        var n = timed.Count;
        if (n == 0)
        {
            return null;
        }
        var mean = timed.SumMs / n;
        var bound = mean;
        if (n > 1)
        {
            var variance = Math.Max(timed.SumOfSquaresMs - (n * mean * mean), 0) / (n - 1);
            bound = StudentQuantile(n - 1) * Math.Sqrt(variance / n);
        }
        var leastMeanOfAll = (timed.SumMs + pendingMs) / (n + pendingCalls);
        bound += Math.Max(leastMeanOfAll - mean, 0);
        return new Figure { Value = mean, ErrorBound = bound, Samples = n, Sampled = true, Source = FigureSource.HopPass };
    }

    /// <summary>
    /// The time callers waited on all the method's suspending calls: <paramref name="calls"/> × the mean per timed call. The
    /// timed calls' own sum is exact; the untimed ones (pending at an edge, or between windows) are estimated at the mean, so
    /// the bound is theirs times the mean's bound and the calls' bound times the mean, in quadrature: exact when every call
    /// was timed. Null when no call was timed, none suspending included: a call that never suspends has no box, and what
    /// its caller waited (its synchronous run) no hop-pass event tells.
    /// </summary>
    public static Figure? Total(Figure? perCall, Figure? calls)
    {
        if (calls is null || perCall is null)
        {
            return null;
        }
        var timed = perCall.Samples;
        // A call timed before the thread pool's first event is not among the counted calls (HopComputer): never fewer than timed.
        var all = Math.Max(calls.Value, timed);
        var untimed = all - timed;
        var bound = Math.Sqrt((untimed * perCall.ErrorBound * untimed * perCall.ErrorBound) + (perCall.Value * calls.ErrorBound * perCall.Value * calls.ErrorBound));
        return new Figure
        {
            Value = all * perCall.Value,
            ErrorBound = bound,
            Samples = timed,
            Sampled = calls.Sampled || untimed > 0,
            Source = FigureSource.HopPass,
        };
    }

    /// <summary>What <paramref name="runs"/> runs of some work are expected to take at <paramref name="perRun"/> each: the mean
    /// times the runs, the bound the mean's bound times the runs and the runs' bound times the mean, in quadrature. A
    /// prediction for the same work done again, so the mean's bound stays even where every run was timed (unlike
    /// <see cref="Total"/>, which sums what was).</summary>
    public static Figure Expected(Figure perRun, Figure runs)
    {
        ArgumentNullException.ThrowIfNull(perRun);
        ArgumentNullException.ThrowIfNull(runs);
        return new Figure
        {
            Value = runs.Value * perRun.Value,
            ErrorBound = Math.Sqrt(Math.Pow(runs.Value * perRun.ErrorBound, 2) + Math.Pow(perRun.Value * runs.ErrorBound, 2)),
            Samples = perRun.Samples,
            Sampled = true,
            Source = FigureSource.HopPass,
        };
    }

    /// <summary>Rows as one: the mean per call weighted by each row's suspending calls, the bounds of independent means
    /// weighted alike in quadrature; null when no row has a mean.</summary>
    public static Figure? PerCallOf(IEnumerable<(Figure? PerCall, Figure? Calls)> rows)
    {
        var weighted = rows.Where(r => r.PerCall is not null)
            .Select(r => (PerCall: r.PerCall!, Weight: Math.Max(r.Calls?.Value ?? 0, r.PerCall!.Samples))).ToList();
        var weights = weighted.Sum(r => r.Weight);
        if (weighted.Count == 0 || weights <= 0)
        {
            return null;
        }
        return new Figure
        {
            Value = weighted.Sum(r => r.Weight * r.PerCall.Value) / weights,
            ErrorBound = Math.Sqrt(weighted.Sum(r => r.Weight * r.PerCall.ErrorBound * r.Weight * r.PerCall.ErrorBound)) / weights,
            Samples = weighted.Sum(r => r.PerCall.Samples),
            Sampled = true,
            Source = FigureSource.HopPass,
        };
    }

    /// <summary>
    /// The timed calls' (or requests') distribution: <paramref name="mean"/> beside the 50th, 90th and 99th percentiles and
    /// their intervals (<see cref="LatencyHistogram.Quantile"/>), each × <paramref name="scale"/> (a windowed hop pass's
    /// time correction, as <see cref="HopScale.PerCallTime"/> scales the mean). Null when none was timed or no distribution
    /// was kept.
    /// </summary>
    public static TimeDistribution? Distribution(CallDurations timed, Figure? mean, double scale = 1)
    {
        ArgumentNullException.ThrowIfNull(timed);
        if (timed.Distribution is not { Count: > 0 } histogram)
        {
            return null;
        }
        Percentile? At(double fraction) => histogram.Quantile(fraction) is { } q
            ? new Percentile { Milliseconds = q.Value * scale, LowerMilliseconds = q.Lower * scale, UpperMilliseconds = q.Upper * scale }
            : null;
        return new TimeDistribution { Samples = histogram.Count, Mean = mean, P50 = At(0.50), P90 = At(0.90), P99 = At(0.99) };
    }

    /// <summary>A pass's requests per endpoint (<see cref="RequestComputer"/>): counts, rates over <paramref name="seconds"/>,
    /// and their durations' distribution; null when the pass saw no request.</summary>
    public static RequestFigures? Requests(RequestComputer requests, double seconds)
    {
        ArgumentNullException.ThrowIfNull(requests);
        if (requests.Completed == 0)
        {
            return null;
        }
        var endpoints = requests.Endpoints;
        return new RequestFigures
        {
            Completed = requests.Completed,
            Timed = endpoints.Sum(e => e.Durations.Count),
            Endpoints = [.. endpoints.Select(e => new EndpointFigures
            {
                Endpoint = e.Endpoint,
                Requests = e.Completed,
                RequestsPerSecond = seconds > 0 ? e.Completed / seconds : null,
                Milliseconds = Distribution(e.Durations, PerCall(e.Durations) is { } mean ? mean with { Source = FigureSource.OperatingSystem } : null),
            })],
        };
    }

    /// <summary>The two-sided 95 % Student-t quantile: the table to 30 degrees of freedom, then the Cornish–Fisher expansion
    /// around the normal quantile (within 0.001 of the exact value from 30 on).</summary>
    public static double StudentQuantile(long degreesOfFreedom)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(degreesOfFreedom, 1);
        if (degreesOfFreedom <= StudentT95.Length)
        {
            return StudentT95[degreesOfFreedom - 1];
        }
        const double z = Figure.StandardErrors;
        double df = degreesOfFreedom;
        return z + (((z * z * z) + z) / (4 * df)) + (((5 * Math.Pow(z, 5)) + (16 * z * z * z) + (3 * z)) / (96 * df * df));
    }
}
