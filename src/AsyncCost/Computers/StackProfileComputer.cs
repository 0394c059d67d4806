using AsyncCost.Attribution;
using AsyncCost.Report;

namespace AsyncCost.Computers;

/// <summary>
/// Keeps the sample profiler's stacks themselves, for a flame graph: each thread's samples in time order, root first, with
/// one table of frame names. A frame that is an async method's MoveNext (or the method it was inlined into) is named as
/// the report names the method ("Ns.Checkout.CheckoutAsync", not "Ns.Checkout+&lt;CheckoutAsync&gt;d__3.MoveNext"), so the
/// flame graph and the report speak of the same methods.
/// </summary>
internal sealed class StackProfileComputer : IStackSampleSink
{
    private readonly Dictionary<string, int> _frameIndex = new(StringComparer.Ordinal);
    private readonly List<string> _frames = [];
    private readonly Dictionary<int, List<(double Time, int[] Stack)>> _threads = [];
    private readonly SampleInterval _interval = new();

    public long Samples { get; private set; }

    public void OnSample(int threadId, double timestampMs, SampledThreadState state, IReadOnlyList<string> frames, Func<string, AsyncMethodName?> asyncMethodOf)
    {
        ArgumentNullException.ThrowIfNull(frames);
        ArgumentNullException.ThrowIfNull(asyncMethodOf);
        // A sample weighs the interval the cpu pass measures, so the flame graph's times are the report's.
        _interval.OnSample(threadId, timestampMs);
        var stack = new int[frames.Count];
        for (var i = 0; i < frames.Count; i++)
        {
            var frame = frames[i];
            stack[frames.Count - 1 - i] = Index(asyncMethodOf(frame) is { } method ? method.DisplayName : frame);
        }
        if (!_threads.TryGetValue(threadId, out var samples))
        {
            samples = [];
            _threads.Add(threadId, samples);
        }
        samples.Add((timestampMs, stack));
        Samples++;
    }

    private int Index(string name)
    {
        if (!_frameIndex.TryGetValue(name, out var index))
        {
            index = _frames.Count;
            _frameIndex.Add(name, index);
            _frames.Add(name);
        }
        return index;
    }

    public StackProfile Result(IReadOnlyList<string> traceFiles) => new()
    {
        Frames = [.. _frames],
        // No thread sampled twice: the sample profiler's default interval.
        IntervalMs = _interval.Milliseconds ?? 1.0,
        TraceFiles = traceFiles,
        Threads = [.. _threads.OrderBy(t => t.Key).Select(t => new ThreadStacks
        {
            ThreadId = t.Key,
            StartMs = t.Value.Min(s => s.Time),
            EndMs = t.Value.Max(s => s.Time),
            Samples = [.. t.Value.OrderBy(s => s.Time).Select(s => (IReadOnlyList<int>)s.Stack)],
        })],
    };
}
