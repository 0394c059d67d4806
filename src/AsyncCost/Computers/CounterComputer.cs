namespace AsyncCost.Computers;

/// <summary>Sums the System.Runtime counters' increments and keeps the peaks of the gauges over a pass.</summary>
internal sealed class CounterComputer
{
    public double? CompletedWorkItems { get; private set; }
    public double? LockContentions { get; private set; }
    public double? AllocatedBytes { get; private set; }
    public double? MaxQueueLength { get; private set; }
    public double? MaxThreadCount { get; private set; }

    /// <summary>Counter samples seen.</summary>
    public long Samples { get; private set; }

    /// <summary>One counter payload: its name and its increment (sum counters) or mean (gauges).</summary>
    public void OnCounter(string name, double value)
    {
        Samples++;
        switch (name)
        {
            case "threadpool-completed-items-count":
                CompletedWorkItems = (CompletedWorkItems ?? 0) + value;
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
