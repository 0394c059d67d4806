namespace AsyncCost.InProcess;

/// <summary>
/// When the two in-process streams run, in each <see cref="Period"/>: first the hop stream (TplEventSource and
/// FrameworkEventSource) for <see cref="HopWindow"/>, then, once the hop stream's effect has passed, the allocation stream
/// (AllocationSampled) for <see cref="AllocationWindow"/>; then neither until the next period.
/// - Hop counts are scaled by the thread pool's own work items: count per work item dequeued in the windows on either side
///   of the time between them, times the work items the pool completed (an exact count), as the CLI's windowed hop pass does.
///   The service runs slower while TPL events are on, which a count per second would carry; a count per work item does not.
/// - Allocation samples are scaled by what the process allocated (the GC's exact total) over what it allocated while they
///   were counted, so a service that runs slower while sampled, or a burst inside a window, does not skew the bytes; only the
///   split between methods is sampled.
/// - While TPL events are on, awaits allocate differently (the observer effect), so no allocation is counted then.
/// </summary>
/// <param name="HopWindow">How long the hop stream runs per period. Zero: never. Equal to the period: always (exact hops, and
/// then no allocation figures, since every allocation would carry the observer effect).</param>
/// <param name="AllocationWindow">How long allocations are counted per period. Zero: never. The period (or anything longer than
/// what the hop window leaves): whenever the hop stream is off.</param>
/// <param name="Period">The cycle both streams share.</param>
public sealed record DutyCycle(TimeSpan HopWindow, TimeSpan AllocationWindow, TimeSpan Period)
{
    /// <summary>The default: hops 0.25 s and allocations 1 s of every 60 s. Always on, the hop stream cost samples/WebShop
    /// ~72 % of its throughput and the allocation stream ~13 %; at a partial load, as a fleet's services run, these slices
    /// cost it +0.5 and +0.7 % CPU per request where 1 s and 3 s cost +2.2 and +2.9 % (benchmarks/results/WebShopOverhead.md).
    /// The price: calls longer than a fraction of the hop window are counted low by about that fraction, and a method's
    /// bytes take three times as long to settle. A minute is still finer than a fleet dashboard's usual rate window (5 min).</summary>
    public static DutyCycle Default { get; } = new(TimeSpan.FromMilliseconds(250), TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(60));

    /// <summary>Allocations counted all the time, no hop stream (exact bytes, no hop, suspension or blocking-wait figures).</summary>
    public static DutyCycle AllocationsOnly { get; } = new(TimeSpan.Zero, TimeSpan.FromSeconds(10), TimeSpan.FromSeconds(10));

    /// <summary>The hop stream always on: exact hop figures, no allocation figures.</summary>
    public static DutyCycle HopsOnly(TimeSpan period) => new(period, TimeSpan.Zero, period);

    /// <summary>Allocations this long after a hop window closed still count as inside it (continuations wrapped while TPL was on).</summary>
    internal static readonly TimeSpan HopWindowTail = TimeSpan.FromMilliseconds(50);

    /// <summary>Edges lose events: a window shorter than this would be mostly edge.</summary>
    internal static readonly TimeSpan ShortestWindow = TimeSpan.FromMilliseconds(100);

    /// <summary>True when the hop stream never runs.</summary>
    public bool HopsOff => HopWindow == TimeSpan.Zero;

    /// <summary>True when the hop stream never stops.</summary>
    public bool HopsAlwaysOn => !HopsOff && HopWindow >= Period;

    /// <summary>The time left for allocations in each period: all of it but the hop window and its tail.</summary>
    internal TimeSpan AllocationRoom => HopsOff ? Period : HopsAlwaysOn ? TimeSpan.Zero : Period - HopWindow - HopWindowTail;

    /// <summary>How long allocations are counted per period, within <see cref="AllocationRoom"/>.</summary>
    internal TimeSpan CountedAllocationTime => AllocationWindow < AllocationRoom ? AllocationWindow : AllocationRoom;

    /// <summary>True when the allocation stream is switched off between its windows (otherwise it stays on, and the hop
    /// windows' samples are dropped by their time stamps).</summary>
    internal bool AllocationsSwitched => CountedAllocationTime > TimeSpan.Zero && CountedAllocationTime < AllocationRoom;

    /// <summary>Why these settings cannot run, or null when they can.</summary>
    public string? Problem() =>
        Period <= TimeSpan.Zero ? $"the period must be positive (it is {Period})."
        : HopWindow < TimeSpan.Zero ? $"the hop window must not be negative (it is {HopWindow})."
        : AllocationWindow < TimeSpan.Zero ? $"the allocation window must not be negative (it is {AllocationWindow})."
        : HopWindow > Period ? $"the hop window ({HopWindow}) must not be longer than the period ({Period})."
        : HopWindow < Period && Period - HopWindow <= HopWindowTail ? $"the period ({Period}) must leave more than {HopWindowTail.TotalMilliseconds} ms outside the hop window, or equal it (hops always on)."
        : !HopsOff && HopWindow < ShortestWindow ? $"the hop window must be 0 (off) or at least {ShortestWindow.TotalMilliseconds} ms (it is {HopWindow}): shorter windows lose most resumptions at their edges."
        : HopsOff && AllocationWindow == TimeSpan.Zero ? "both windows are 0: neither stream would run, and nothing would be measured."
        : AllocationWindow > TimeSpan.Zero && AllocationWindow < ShortestWindow ? $"the allocation window must be 0 (off) or at least {ShortestWindow.TotalMilliseconds} ms (it is {AllocationWindow})."
        : null;
}
