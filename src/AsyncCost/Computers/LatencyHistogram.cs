namespace AsyncCost.Computers;

/// <summary>
/// Durations in buckets of 2 % relative width (from 1 µs), so that any percentile of any number of them is read within
/// ±1 % of its value from a few hundred counters at most, and two streams' histograms add exactly. What a percentile and
/// its distribution-free bound need (<see cref="Quantile"/>); the mean and its spread stay with <see cref="CallDurations"/>.
/// </summary>
internal sealed class LatencyHistogram
{
    /// <summary>The smallest duration told apart, in milliseconds: every shorter one is counted in the first bucket.</summary>
    public const double SmallestMs = 0.001;

    /// <summary>Each bucket's upper edge over its lower edge; a bucket's middle is within ±1 % of every value in it.</summary>
    public const double BucketRatio = 1.02;

    private static readonly double LogRatio = Math.Log(BucketRatio);

    private readonly Dictionary<int, long> _counts = [];

    /// <summary>Durations added.</summary>
    public long Count { get; private set; }

    public void Add(double durationMs)
    {
        var bucket = durationMs <= SmallestMs ? 0 : (int)Math.Min(Math.Ceiling(Math.Log(durationMs / SmallestMs) / LogRatio), int.MaxValue);
        _counts[bucket] = _counts.GetValueOrDefault(bucket) + 1;
        Count++;
    }

    public void Add(LatencyHistogram other)
    {
        ArgumentNullException.ThrowIfNull(other);
        foreach (var (bucket, count) in other._counts)
        {
            _counts[bucket] = _counts.GetValueOrDefault(bucket) + count;
        }
        Count += other.Count;
    }

    /// <summary>
    /// The <paramref name="fraction"/> quantile (0.5 for the median) by nearest rank, with a 95 % distribution-free interval:
    /// the durations at the ranks n·p ∓ 1.96 √(n·p·(1−p)) (the normal approximation of the binomial count of durations below
    /// the true quantile), the lower rounded down and the upper up, kept within 1..n. With few durations the upper end is the
    /// longest seen, which is no bound: read it with the count. Null when nothing was added.
    /// </summary>
    public (double Value, double Lower, double Upper)? Quantile(double fraction)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(fraction);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(fraction, 1.0);
        if (Count == 0)
        {
            return null;
        }
        double n = Count;
        var spread = 1.96 * Math.Sqrt(n * fraction * (1 - fraction));
        long Rank(double rank) => (long)Math.Clamp(rank, 1, n);
        var ranks = new[] { Rank(Math.Ceiling(n * fraction)), Rank(Math.Floor((n * fraction) - spread)), Rank(Math.Ceiling((n * fraction) + spread) + 1) };
        var values = new double[ranks.Length];
        var found = new bool[ranks.Length];
        long seen = 0;
        foreach (var (bucket, count) in _counts.OrderBy(c => c.Key))
        {
            seen += count;
            for (var i = 0; i < ranks.Length; i++)
            {
                if (!found[i] && ranks[i] <= seen)
                {
                    (values[i], found[i]) = (Middle(bucket), true);
                }
            }
            if (found.All(f => f))
            {
                break;
            }
        }
        return (values[0], values[1], values[2]);
    }

    /// <summary>The geometric middle of a bucket: within ±1 % of every duration in it (the first bucket: 1 µs or less).</summary>
    private static double Middle(int bucket) => bucket == 0 ? SmallestMs : SmallestMs * Math.Pow(BucketRatio, bucket - 0.5);
}
