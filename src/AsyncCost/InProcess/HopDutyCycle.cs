namespace AsyncCost.InProcess;

/// <summary>
/// When the in-process hop stream (TplEventSource and FrameworkEventSource) is on: <see cref="Window"/> out of every
/// <see cref="Period"/>. TPL events cost on every await and change what awaits allocate, so the stream is on for a slice of
/// the time and its counts are scaled by Period / Window. Window zero: never on. Window equal to Period: always on (exact
/// hops, but then every allocation carries the observer effect and no allocation figure is kept).
/// The scaling assumes work arrives at the same rate inside and outside the windows, as in a service paced by its
/// requests; a CPU-bound loop runs slower while TPL events are on, and its hop figures come out low.
/// </summary>
public sealed record HopDutyCycle(TimeSpan Window, TimeSpan Period)
{
    /// <summary>The default: on 1 s of every 60 s. Always on, the stream cost samples/WebShop ~72 % of its throughput
    /// (benchmarks/results/WebShopOverhead.md); one second in sixty keeps that near 1 %, and a minute is still finer than a
    /// fleet dashboard's usual rate window (5 min).</summary>
    public static HopDutyCycle Default { get; } = new(TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(60));

    /// <summary>The hop stream never runs: no hop, suspension or blocking-wait figures.</summary>
    public static HopDutyCycle Off { get; } = new(TimeSpan.Zero, TimeSpan.FromSeconds(10));

    /// <summary>The hop stream always runs: exact hop figures, no allocation figures.</summary>
    public static HopDutyCycle AlwaysOn(TimeSpan period) => new(period, period);

    /// <summary>True when the stream never runs.</summary>
    public bool IsOff => Window == TimeSpan.Zero;

    /// <summary>True when the stream never stops.</summary>
    public bool IsAlwaysOn => !IsOff && Window >= Period;

    /// <summary>Allocations this long after a window closed still count as inside it (continuations wrapped while TPL was on).</summary>
    internal static readonly TimeSpan WindowTail = TimeSpan.FromMilliseconds(50);

    /// <summary>What one on-window's counts are multiplied by to estimate the whole period's.</summary>
    public double Scale => IsOff ? 0 : Period / Window;

    /// <summary>What each kept allocation sample is multiplied by to stand for the ones dropped in the windows (a fixed
    /// weight, so an estimate does not swing with where a window falls in a collection interval).</summary>
    public double AllocationScale => IsOff ? 1 : IsAlwaysOn ? 0 : Period / (Period - Window - WindowTail);

    /// <summary>Why these settings cannot run, or null when they can.</summary>
    public string? Problem() =>
        Window < TimeSpan.Zero ? $"the hop window must not be negative (it is {Window})."
        : Period <= TimeSpan.Zero ? $"the hop period must be positive (it is {Period})."
        : Window > Period ? $"the hop window ({Window}) must not be longer than the hop period ({Period})."
        : Window < Period && Period - Window <= WindowTail ? $"the hop period ({Period}) must leave more than {WindowTail.TotalMilliseconds} ms outside the window, or equal it (always on)."
        : !IsOff && Window < TimeSpan.FromMilliseconds(100) ? $"the hop window must be 0 (off) or at least 100 ms (it is {Window}): shorter windows lose most resumptions at their edges."
        : null;
}
