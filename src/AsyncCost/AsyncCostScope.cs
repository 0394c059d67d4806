using AsyncCost.Os;

namespace AsyncCost;

/// <summary>
/// Exact in-process deltas for the code between <see cref="Start"/> and <see cref="Stop"/>, so a test can assert
/// "this hot path allocates 0 B and takes 0 hops". Process-wide figures include whatever else runs meanwhile.
/// </summary>
public sealed class AsyncCostScope
{
    private readonly long _totalAllocated;
    private readonly long _threadAllocated;
    private readonly int _threadId;
    private readonly long _workItems;
    private readonly long _contentions;
    private readonly (long Voluntary, long Involuntary)? _processSwitches;
    private readonly (long Voluntary, long Involuntary)? _threadSwitches;

    private AsyncCostScope()
    {
        _threadId = Environment.CurrentManagedThreadId;
        _processSwitches = ResourceUsage.Process();
        _threadSwitches = ResourceUsage.CurrentThread();
        _workItems = ThreadPool.CompletedWorkItemCount;
        _contentions = Monitor.LockContentionCount;
        _threadAllocated = GC.GetAllocatedBytesForCurrentThread();
        _totalAllocated = GC.GetTotalAllocatedBytes(precise: true);
    }

    /// <summary>Takes the starting readings.</summary>
    public static AsyncCostScope Start() => new();

    /// <summary>Takes the closing readings and returns the differences.</summary>
    public AsyncCostDelta Stop()
    {
        var totalAllocated = GC.GetTotalAllocatedBytes(precise: true);
        var sameThread = Environment.CurrentManagedThreadId == _threadId;
        var threadAllocated = GC.GetAllocatedBytesForCurrentThread();
        var workItems = ThreadPool.CompletedWorkItemCount;
        var contentions = Monitor.LockContentionCount;
        var processSwitches = ResourceUsage.Process();
        var threadSwitches = sameThread ? ResourceUsage.CurrentThread() : null;
        return new AsyncCostDelta
        {
            AllocatedBytes = totalAllocated - _totalAllocated,
            CurrentThreadAllocatedBytes = sameThread ? threadAllocated - _threadAllocated : null,
            CompletedWorkItems = workItems - _workItems,
            LockContentions = contentions - _contentions,
            VoluntaryContextSwitches = Difference(processSwitches, _processSwitches)?.Voluntary,
            InvoluntaryContextSwitches = Difference(processSwitches, _processSwitches)?.Involuntary,
            CurrentThreadVoluntaryContextSwitches = Difference(threadSwitches, _threadSwitches)?.Voluntary,
            CurrentThreadInvoluntaryContextSwitches = Difference(threadSwitches, _threadSwitches)?.Involuntary,
        };
    }

    private static (long Voluntary, long Involuntary)? Difference((long Voluntary, long Involuntary)? end, (long Voluntary, long Involuntary)? start)
        => end is { } e && start is { } s ? (e.Voluntary - s.Voluntary, e.Involuntary - s.Involuntary) : null;
}

/// <summary>Exact differences measured by an <see cref="AsyncCostScope"/>.</summary>
public sealed record AsyncCostDelta
{
    /// <summary>Bytes allocated by all threads (GC.GetTotalAllocatedBytes(precise: true)).</summary>
    public long AllocatedBytes { get; init; }

    /// <summary>Bytes allocated by the thread that started the scope; null when Stop ran on another thread.</summary>
    public long? CurrentThreadAllocatedBytes { get; init; }

    /// <summary>Thread-pool work items completed (ThreadPool.CompletedWorkItemCount).</summary>
    public long CompletedWorkItems { get; init; }

    /// <summary>Monitor lock contentions (Monitor.LockContentionCount).</summary>
    public long LockContentions { get; init; }

    /// <summary>Voluntary context switches of the whole process (getrusage), null off Linux.</summary>
    public long? VoluntaryContextSwitches { get; init; }

    /// <summary>Involuntary context switches of the whole process (getrusage), null off Linux.</summary>
    public long? InvoluntaryContextSwitches { get; init; }

    /// <summary>Voluntary switches of the scope's thread; null off Linux or when Stop ran on another thread.</summary>
    public long? CurrentThreadVoluntaryContextSwitches { get; init; }

    /// <summary>Involuntary switches of the scope's thread; null off Linux or when Stop ran on another thread.</summary>
    public long? CurrentThreadInvoluntaryContextSwitches { get; init; }
}
