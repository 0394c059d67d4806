using AsyncCost.Attribution;

namespace AsyncCost.Computers;

/// <summary>What a sampled thread was doing, as the sample profiler tells.</summary>
internal enum SampledThreadState
{
    /// <summary>Running managed code.</summary>
    Managed,

    /// <summary>Outside managed code: in the runtime (JIT, type loading, GC), in native code, or blocked in a wait.</summary>
    External,
}

/// <summary>Takes the sample profiler's stack samples, one at a time, as <see cref="Events.StackSampleReader"/> reads them.</summary>
internal interface IStackSampleSink
{
    /// <param name="threadId">The sampled thread.</param>
    /// <param name="timestampMs">When, in milliseconds since the session started.</param>
    /// <param name="state">Managed or External (a sample the profiler could not take is not reported).</param>
    /// <param name="frames">The stack, leaf first, each frame's method as "Namespace.Type.Method" (no signature).</param>
    /// <param name="asyncMethodOf">The async method a frame is (its MoveNext, or the method MoveNext was inlined into), or null.</param>
    void OnSample(int threadId, double timestampMs, SampledThreadState state, IReadOnlyList<string> frames, Func<string, AsyncMethodName?> asyncMethodOf);
}

/// <summary>CPU-pass figures of one async method: the samples whose innermost async frame was it.</summary>
internal sealed class MethodSamples(AsyncMethodName method)
{
    public AsyncMethodName Method { get; } = method;

    /// <summary>Samples of a thread in the method (or in synchronous code it called) and not in a blocking wait.</summary>
    public long Running { get; set; }

    /// <summary>Samples of a thread in the method and blocked in a wait it made (Monitor, WaitHandle, ManualResetEventSlim,
    /// SemaphoreSlim, Task.Wait/Result/GetResult, Thread.Sleep/Join).</summary>
    public long Waiting { get; set; }
}

/// <summary>
/// Turns the sample profiler's stack samples into time per async method. Every managed thread is sampled about once a
/// millisecond; a sample belongs to the innermost async method on its stack: a state machine's MoveNext, or the method
/// itself where the JIT inlined MoveNext into it (a call that completes synchronously often shows only as that frame). So a
/// method that never suspends and never allocates, invisible to the allocation and hop passes, is seen here. A sample is
/// "waiting" when a blocking wait lies between the leaf and that frame, else "running" (which, on a busy machine, includes
/// time the thread was runnable but not scheduled: the profiler samples threads, not CPUs). Time = samples x the mean
/// interval between one thread's consecutive samples, measured from the trace itself.
/// </summary>
internal sealed class CpuComputer : IStackSampleSink
{
    /// <summary>Frames of the runtime's blocking waits: a sample with one of them above its async frame is a wait.</summary>
    private static readonly string[] BlockingWaitPrefixes =
    [
        "System.Threading.Monitor.",
        "System.Threading.Lock.Enter",
        "System.Threading.WaitHandle.Wait",
        "System.Threading.ManualResetEventSlim.Wait",
        "System.Threading.SemaphoreSlim.Wait",
        "System.Threading.Thread.Sleep",
        "System.Threading.Thread.Join",
        "System.Threading.Tasks.Task.Wait",
        "System.Threading.Tasks.Task.InternalWait",
        "System.Threading.Tasks.Task.SpinThenBlockingWait",
        "System.Threading.Tasks.Task`1.GetResultCore",
    ];

    private readonly Dictionary<string, MethodSamples> _methods = new(StringComparer.Ordinal);
    private readonly SampleInterval _interval = new();

    /// <summary>Samples read (threads in managed code or in the runtime; outside async methods too).</summary>
    public long Samples { get; private set; }

    /// <summary>Samples outside every async method.</summary>
    public long OutsideAsyncMethods { get; private set; }

    /// <summary>The mean time between one thread's consecutive samples, in milliseconds (null before two samples of a thread).</summary>
    public double? IntervalMs => _interval.Milliseconds;

    /// <param name="threadId">The sampled thread.</param>
    /// <param name="timestampMs">When, in milliseconds since the session started.</param>
    /// <param name="state">Managed or External (a sample the profiler could not take is not reported).</param>
    /// <param name="frames">The stack, leaf first, each frame's method as "Namespace.Type.Method" (no signature).</param>
    /// <param name="asyncMethodOf">The async method a frame is (its MoveNext, or the method MoveNext was inlined into), or null.</param>
    public void OnSample(int threadId, double timestampMs, SampledThreadState state, IReadOnlyList<string> frames, Func<string, AsyncMethodName?> asyncMethodOf)
    {
        ArgumentNullException.ThrowIfNull(frames);
        ArgumentNullException.ThrowIfNull(asyncMethodOf);
        Samples++;
        _interval.OnSample(threadId, timestampMs);
        var waiting = false;
        foreach (var frame in frames)
        {
            if (asyncMethodOf(frame) is { } method)
            {
                var samples = Method(method);
                if (waiting)
                {
                    samples.Waiting++;
                }
                else
                {
                    samples.Running++;
                }
                return;
            }
            // Only a thread outside managed code can be blocked; a managed leaf in a wait method is spinning, i.e. running.
            waiting |= state == SampledThreadState.External && IsBlockingWait(frame);
        }
        OutsideAsyncMethods++;
    }

    private static bool IsBlockingWait(string frame)
    {
        foreach (var prefix in BlockingWaitPrefixes)
        {
            if (frame.StartsWith(prefix, StringComparison.Ordinal))
            {
                return true;
            }
        }
        return false;
    }

    private MethodSamples Method(AsyncMethodName name)
    {
        if (!_methods.TryGetValue(name.MethodKey, out var samples))
        {
            samples = new MethodSamples(name);
            _methods.Add(name.MethodKey, samples);
        }
        return samples;
    }

    public IEnumerable<MethodSamples> Results() => _methods.Values;

    /// <summary>Adds another stream's samples (a later slice or trace file of the same pass); its threads' spans stay its own.</summary>
    public void Add(CpuComputer other)
    {
        ArgumentNullException.ThrowIfNull(other);
        foreach (var theirs in other._methods.Values)
        {
            var mine = Method(theirs.Method);
            mine.Running += theirs.Running;
            mine.Waiting += theirs.Waiting;
        }
        Samples += other.Samples;
        OutsideAsyncMethods += other.OutsideAsyncMethods;
        _interval.Add(other._interval);
    }
}
