namespace AsyncCost.Report;

/// <summary>
/// The cpu pass's sampled stacks, for a flame graph (<see cref="SpeedscopeJson"/>): a table of frame names, and each
/// thread's samples, root first, as indexes into it. Async methods' frames carry the report's names for them.
/// </summary>
public sealed class StackProfile
{
    /// <summary>Frame names; a sample's stack holds indexes into this list.</summary>
    public IReadOnlyList<string> Frames { get; init; } = [];

    /// <summary>One entry per sampled thread, the busiest first (most samples running managed code).</summary>
    public IReadOnlyList<ThreadStacks> Threads { get; init; } = [];

    /// <summary>The mean time between one thread's consecutive samples (milliseconds): what one sample weighs.</summary>
    public double IntervalMs { get; init; }

    /// <summary>The traces the stacks were read from.</summary>
    public IReadOnlyList<string> TraceFiles { get; init; } = [];
}

/// <summary>One thread's stack samples in time order.</summary>
public sealed class ThreadStacks
{
    /// <summary>The OS thread id.</summary>
    public int ThreadId { get; init; }

    /// <summary>What to call it: its id, what it ran ("requests", "thread pool", "main"…) and its time running managed code.</summary>
    public string Name { get; init; } = "";

    /// <summary>The samples that found it running managed code (the rest found it outside: waiting, or in native code).</summary>
    public int RunningSamples { get; init; }

    /// <summary>When its first sample was taken, in milliseconds since the session started.</summary>
    public double StartMs { get; init; }

    /// <summary>When its last sample was taken.</summary>
    public double EndMs { get; init; }

    /// <summary>Each sample's stack, root first, as indexes into <see cref="StackProfile.Frames"/>.</summary>
    public IReadOnlyList<IReadOnlyList<int>> Samples { get; init; } = [];
}
