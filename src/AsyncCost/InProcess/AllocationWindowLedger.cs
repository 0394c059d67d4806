using AsyncCost.Computers;
using AsyncCost.Events;

namespace AsyncCost.InProcess;

/// <summary>
/// The in-process allocation windows and what their samples stand for. The bytes between one window's close and the next's
/// (the GC's exact count, handed to <see cref="Close"/>) are split between types by the samples of the windows on either
/// side, each weighted by the work it saw: the thread pool's work items, or, in a process that does too little on the pool
/// for that, the bytes it counted. So the bytes of a load that ends after one window go with that window's mix, not with
/// the next window's, which samples an idle process (as the hop spans pool their windows, <see cref="HopSpan"/>). A sample
/// that arrives after its window closed is scaled as that window's were, and carried into the share still to come.
/// Not thread-safe: the listener calls it under its gate.
/// </summary>
internal sealed class AllocationWindowLedger
{
    /// <summary>Thread-pool work items below which they do not tell how much work was done (the listener's own timer
    /// callbacks are a few per period): the listener's span scaling reads it too.</summary>
    internal const long MinWorkItemsToTellWork = 1_000;

    private readonly TimeSpan _lateEventAllowance;
    // The windows a late sample may still fall in, the open one last.
    private readonly List<Window> _kept = [];
    // The last window that closed with bytes counted: the next span's bytes are shared with it.
    private Window? _previous;
    private AllocationComputer _scaled = new();

    public AllocationWindowLedger(TimeSpan lateEventAllowance) => _lateEventAllowance = lateEventAllowance;

    /// <summary>Windows that closed with bytes counted since the last <see cref="Drain"/>.</summary>
    public int WindowsClosed { get; private set; }

    /// <summary>Opens a window: samples stamped from <paramref name="now"/> count.</summary>
    public void Open(DateTime now, long allocated, long workItems) => _kept.Add(new Window(now, allocated, workItems));

    /// <summary>
    /// Closes the open window; <paramref name="spanBytes"/> is what the process allocated since the last window closed (hop
    /// windows' bytes replaced). False when neither this window nor the previous one counted a byte: nothing can stand for the
    /// span, and the caller keeps its bytes for the next one.
    /// </summary>
    public bool Close(DateTime now, long allocated, long workItems, double spanBytes)
    {
        var window = _kept[^1];
        window.End = now;
        window.Counted = allocated - window.AllocatedAtStart;
        window.WorkItems = workItems - window.WorkItemsAtStart;
        window.Scale = 0;
        _kept.RemoveAll(w => w.End < now - _lateEventAllowance && w != _previous);
        var current = window.Counted > 0 ? window : null;
        if (current is null && _previous is null)
        {
            return false;
        }
        var currentShare = _previous is null ? 1 : current is null ? 0 : Share(current, _previous);
        if (current is not null)
        {
            Charge(current, spanBytes * currentShare);
            WindowsClosed++;
        }
        if (_previous is not null && currentShare < 1)
        {
            Charge(_previous, spanBytes * (1 - currentShare));
        }
        _previous = current;
        return true;
    }

    /// <summary>An allocation event stamped at <paramref name="stamped"/>; false when no window holds it (then it is not counted).</summary>
    public bool OnEvent<TFields>(int eventId, DateTime stamped, TFields fields) where TFields : IEventFields
    {
        if (_kept.FindLast(w => stamped >= w.Start && stamped < w.End) is not { } window)
        {
            return false;
        }
        if (window.Scale is not { } scale)
        {
            EventMapping.OnRuntimeEvent(eventId, fields, window.Samples);
            return true;
        }
        var late = new AllocationComputer();
        EventMapping.OnRuntimeEvent(eventId, fields, late);
        window.Samples.Add(late);
        _scaled.Add(late, scale);
        return true;
    }

    /// <summary>The scaled samples since the last drain.</summary>
    public AllocationComputer Drain()
    {
        var scaled = _scaled;
        _scaled = new AllocationComputer();
        WindowsClosed = 0;
        return scaled;
    }

    private void Charge(Window window, double bytes)
    {
        var scale = bytes / window.Counted;
        _scaled.Add(window.Samples, scale);
        window.Scale += scale;
    }

    /// <summary>The current window's share of the span: by work items where both windows saw enough, else by bytes counted.</summary>
    private static double Share(Window current, Window previous) => current.WorkItems + previous.WorkItems >= MinWorkItemsToTellWork
        ? (double)current.WorkItems / (current.WorkItems + previous.WorkItems)
        : (double)current.Counted / (current.Counted + previous.Counted);

    /// <summary>One window: when it counted, what it counted, the samples stamped in it whenever they arrived, and, once
    /// closed, what each stands for over the spans charged so far.</summary>
    private sealed class Window(DateTime start, long allocatedAtStart, long workItemsAtStart)
    {
        public DateTime Start { get; } = start;
        public DateTime End { get; set; } = DateTime.MaxValue;
        public long AllocatedAtStart { get; } = allocatedAtStart;
        public long WorkItemsAtStart { get; } = workItemsAtStart;
        public long Counted { get; set; }
        public long WorkItems { get; set; }
        public AllocationComputer Samples { get; } = new();
        public double? Scale { get; set; }
    }
}
