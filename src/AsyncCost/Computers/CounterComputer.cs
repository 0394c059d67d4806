namespace AsyncCost.Computers;

/// <summary>Sums the System.Runtime counters' increments and keeps the peaks of the gauges over a pass.</summary>
internal sealed class CounterComputer
{
    /// <summary>The System.Runtime counter of thread-pool work items completed (<see cref="ThreadPool.CompletedWorkItemCount"/>).</summary>
    public const string CompletedWorkItemsCounter = "threadpool-completed-items-count";

    public double? CompletedWorkItems { get; private set; }
    public double? LockContentions { get; private set; }
    public double? AllocatedBytes { get; private set; }
    public double? MaxQueueLength { get; private set; }
    public double? MaxThreadCount { get; private set; }

    /// <summary>Counter samples seen.</summary>
    public long Samples { get; private set; }

    /// <summary>threadpool-completed-items-count payloads summed in <see cref="CompletedWorkItems"/>: each covers one counter
    /// interval, so a rate can be taken over the counter's own time rather than a clock that may cut between payloads.</summary>
    public int CompletedWorkItemsSamples { get; private set; }

    /// <summary>Seconds the threadpool-completed-items-count payloads cover (their intervals summed): a session that ends,
    /// or a process that exits, between two payloads leaves its last part of an interval uncounted.</summary>
    public double CoveredSeconds { get; private set; }

    /// <summary>Adds another stream's counters (a later slice or trace file of the same pass): increments add, peaks take the larger.</summary>
    public void Add(CounterComputer other)
    {
        ArgumentNullException.ThrowIfNull(other);
        CompletedWorkItems = Sum(CompletedWorkItems, other.CompletedWorkItems);
        LockContentions = Sum(LockContentions, other.LockContentions);
        AllocatedBytes = Sum(AllocatedBytes, other.AllocatedBytes);
        MaxQueueLength = Max(MaxQueueLength, other.MaxQueueLength);
        MaxThreadCount = Max(MaxThreadCount, other.MaxThreadCount);
        Samples += other.Samples;
        CompletedWorkItemsSamples += other.CompletedWorkItemsSamples;
        CoveredSeconds += other.CoveredSeconds;
    }

    private static double? Sum(double? a, double? b) => a is null && b is null ? null : (a ?? 0) + (b ?? 0);

    private static double? Max(double? a, double? b) => a is null && b is null ? null : Math.Max(a ?? 0, b ?? 0);

    /// <summary>One counter payload: its name, its increment (sum counters) or mean (gauges), and the seconds it covers.</summary>
    public void OnCounter(string name, double value, double intervalSeconds = 1)
    {
        Samples++;
        switch (name)
        {
            case CompletedWorkItemsCounter:
                CompletedWorkItems = (CompletedWorkItems ?? 0) + value;
                CompletedWorkItemsSamples++;
                CoveredSeconds += intervalSeconds;
                break;
            case "monitor-lock-contention-count":
                LockContentions = (LockContentions ?? 0) + value;
                break;
            case "alloc-rate":
                AllocatedBytes = (AllocatedBytes ?? 0) + value;
                break;
            case "threadpool-queue-length":
                MaxQueueLength = Math.Max(MaxQueueLength ?? 0, value);
                break;
            case "threadpool-thread-count":
                MaxThreadCount = Math.Max(MaxThreadCount ?? 0, value);
                break;
            default:
                Samples--;
                break;
        }
    }
}
