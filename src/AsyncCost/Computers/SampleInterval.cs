namespace AsyncCost.Computers;

/// <summary>
/// The mean time between one thread's consecutive stack samples, measured from the samples themselves: what one sample
/// weighs. The cpu pass's times and the flame graph's sample weights both rest on it.
/// </summary>
internal sealed class SampleInterval
{
    private readonly Dictionary<int, (double First, double Last, long Count)> _threads = [];

    /// <summary>Σ over the threads of earlier streams of the time between their first and last sample.</summary>
    private double _closedSpanMs;

    /// <summary>Σ over the threads of earlier streams of their samples less one: the intervals that span covers.</summary>
    private long _closedIntervals;

    /// <summary>The mean interval in milliseconds, or null before any thread has two samples.</summary>
    public double? Milliseconds
    {
        get
        {
            var span = _closedSpanMs + _threads.Values.Sum(t => t.Last - t.First);
            var intervals = _closedIntervals + _threads.Values.Sum(t => t.Count - 1);
            return intervals > 0 ? span / intervals : null;
        }
    }

    /// <summary>One sample of a thread; a thread's samples may come in any order (the span is from its earliest to its latest).</summary>
    public void OnSample(int threadId, double timestampMs) =>
        _threads[threadId] = _threads.TryGetValue(threadId, out var thread)
            ? (Math.Min(thread.First, timestampMs), Math.Max(thread.Last, timestampMs), thread.Count + 1)
            : (timestampMs, timestampMs, 1);

    /// <summary>Adds another stream's intervals (a later slice or trace file); the time between the streams is not one.</summary>
    public void Add(SampleInterval other)
    {
        ArgumentNullException.ThrowIfNull(other);
        _closedSpanMs += other._closedSpanMs + other._threads.Values.Sum(t => t.Last - t.First);
        _closedIntervals += other._closedIntervals + other._threads.Values.Sum(t => t.Count - 1);
    }
}
