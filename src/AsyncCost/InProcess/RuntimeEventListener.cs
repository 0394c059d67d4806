using System.Diagnostics;
using System.Diagnostics.Tracing;
using AsyncCost.Computers;
using AsyncCost.Events;

namespace AsyncCost.InProcess;

/// <summary>What the listener gathered since the last drain.</summary>
/// <param name="Allocations">Allocation samples of the allocation windows that closed, scaled to the bytes the process
/// allocated between them (<see cref="AllocationWindowLedger"/>).</param>
/// <param name="AllocationWindows">How many allocation windows those are.</param>
/// <param name="HopSpans">The hop schedule's spans that ended (one per hop window that closed, unless many closed unread).</param>
/// <param name="HopWindows">How many hop windows closed.</param>
/// <param name="ExcludedSamples">Allocation samples dropped because TPL events were on.</param>
internal sealed record StreamInterval(AllocationComputer Allocations, int AllocationWindows, IReadOnlyList<HopSpan> HopSpans, int HopWindows, long ExcludedSamples);

/// <summary>
/// The time from one hop window's close to the next's, and what stands for its hops: the counts of the hop windows on either
/// side of the time between them (the first span: of its own window), and the work items the thread pool completed in the
/// whole span (exact, <see cref="ThreadPool.CompletedWorkItemCount"/>). Its hops are then those windows' count per dequeued
/// work item times that total (<c>Report.HopScale</c>): right however much slower the service ran while TPL events were on,
/// and, with both windows pooled, right when the load starts or stops between them (a window on an idle service has few
/// work items, and weighs little). With the hop stream always on, a span is its window, counted exactly.
/// </summary>
/// <param name="Counted">The counts of the windows that stand for the span.</param>
/// <param name="Recorded">How long those windows recorded.</param>
/// <param name="Unrecorded">The span's time outside its own window (zero: the window is the span, its counts exact).</param>
/// <param name="CompletedWorkItems">Work items the thread pool completed in the span.</param>
internal sealed record HopSpan(HopComputer Counted, TimeSpan Recorded, TimeSpan Unrecorded, long CompletedWorkItems)
{
    /// <summary>Spans most kept between drains: beyond it, the latest are added together (one ratio over their windows).</summary>
    public const int MaxKept = 64;

    /// <summary>This span and a later one as one: counts and work items added.</summary>
    public HopSpan Then(HopSpan later)
    {
        var counted = new HopComputer();
        counted.Add(Counted);
        counted.Add(later.Counted);
        return new HopSpan(counted, Recorded + later.Recorded, Unrecorded + later.Unrecorded, CompletedWorkItems + later.CompletedWorkItems);
    }
}

/// <summary>
/// The in-process path: an EventListener on the runtime's own event sources, feeding the same computers as the EventPipe
/// reader through <see cref="EventMapping"/>, on the schedule of a <see cref="DutyCycle"/>: each period a hop window
/// (TplEventSource and FrameworkEventSource on), its tail, an allocation window (AllocationSampled counted), then quiet.
/// When the allocation window fills all the hop window leaves, AllocationSampled stays on and the samples stamped inside hop
/// windows are dropped (TPL tracing changes what awaits allocate); otherwise it is switched on for its window only.
/// What the process allocated between two allocation windows' closes, by the GC's exact count, is split by the samples of the
/// windows on either side, weighted by the work each saw (<see cref="AllocationWindowLedger"/>), so the bytes stay right when
/// the service runs slower while sampled, and when its load starts or stops between windows. Never throws into the process: a failure
/// is reported once through the log callback and the listener stops feeding.
/// </summary>
internal sealed class RuntimeEventListener : EventListener
{
    /// <summary>Runtime events reach the listener after a delay: windows are kept this long past their end to judge late ones.</summary>
    private static readonly TimeSpan LateEventAllowance = TimeSpan.FromSeconds(30);

    private enum Phase { Hops, HopTail, Allocations, Quiet }

    private static readonly Phase[] Cycle = [Phase.Hops, Phase.HopTail, Phase.Allocations, Phase.Quiet];

    // Initialized before the base constructor announces the existing sources.
    private readonly Lock _gate = new();
    // Held while the streams switch, and by Dispose: a timer callback in flight must not enable a source on a listener that
    // was disposed meanwhile (the runtime's dispatcher would keep that subscription, and its session, for the process's life).
    private readonly Lock _switching = new();
    private readonly List<EventSource> _hopSources = [];
    private readonly List<(DateTime Start, DateTime End)> _tplWindows = [];
    private readonly AllocationWindowLedger _allocationWindows = new(LateEventAllowance);
    private EventSource? _runtimeSource;
    private bool _allocationEventsOn;
    private long _allocatedAtLastWindowEnd;
    private long _lastWindowEnd;
    private long _workItemsAtLastWindowEnd;
    // What the hop windows (with their tails) allocated since the last allocation window closed, how long they lasted and
    // the thread pool's work items in them: TPL tracing makes awaits allocate more, so those bytes are left out and the work
    // outside them stands for theirs.
    private (long Allocated, long Timestamp, long WorkItems)? _hopSpanStart;
    private long _hopSpanBytes;
    private long _hopSpanTicks;
    private long _hopSpanWorkItems;
    // Each span as its window closes; with nobody collecting (no scrape for hours), at most HopSpan.MaxKept of them.
    private List<HopSpan> _hopSpans = [];
    private int _hopWindowsClosed;
    private HopComputer? _openWindow;
    private long _openWindowSince;
    // The last closed window's counts (pooled with the next window's), and when it closed, by the clock and the thread pool.
    private HopComputer? _lastWindow;
    private TimeSpan _lastWindowRecorded;
    private long _lastWindowClosedAt;
    private long _workItemsAtLastWindowClose;
    private long _excludedSamples;
    private readonly DutyCycle _dutyCycle;
    private Action<string> _log = _ => { };
    private Timer? _phaseTimer;
    private Phase? _phase;
    private bool _failed;
    private bool _disposed;

    /// <summary>False until the constructor has run (events the base constructor lets through before are not fed), and false
    /// for a listener told to ignore allocation events (tests of a runtime that sends none).</summary>
    private bool _feedAllocationEvents;

    public RuntimeEventListener(DutyCycle dutyCycle, Action<string> log, bool ignoreAllocationEvents = false)
    {
        _dutyCycle = dutyCycle;
        _log = log;
        lock (_gate)
        {
            _feedAllocationEvents = !ignoreAllocationEvents;
            _allocatedAtLastWindowEnd = GC.GetTotalAllocatedBytes();
            _lastWindowEnd = Stopwatch.GetTimestamp();
            _lastWindowClosedAt = _lastWindowEnd;
            _workItemsAtLastWindowEnd = ThreadPool.CompletedWorkItemCount;
            _workItemsAtLastWindowClose = _workItemsAtLastWindowEnd;
            _phaseTimer = new Timer(_ => SafeAdvance(), null, TimeSpan.Zero, Timeout.InfiniteTimeSpan);
        }
    }

    protected override void OnEventSourceCreated(EventSource eventSource)
    {
        switch (eventSource.Name)
        {
            case KnownEvents.RuntimeProvider:
                bool allocationsOn;
                lock (_gate)
                {
                    _runtimeSource = eventSource;
                    allocationsOn = _allocationEventsOn;
                }
                if (allocationsOn)
                {
                    EnableAllocationEvents(eventSource);
                }
                break;
            case KnownEvents.TplProvider or KnownEvents.FrameworkProvider:
                bool windowOpen;
                lock (_gate)
                {
                    _hopSources.Add(eventSource);
                    windowOpen = _openWindow is not null;
                }
                if (windowOpen)
                {
                    EnableHopSource(eventSource);
                }
                break;
            default:
                break;
        }
    }

    protected override void OnEventWritten(EventWrittenEventArgs eventData)
    {
        try
        {
            var fields = new ListenerEventFields(eventData);
            lock (_gate)
            {
                if (_failed || _disposed)
                {
                    return;
                }
                switch (eventData.EventSource.Name)
                {
                    case KnownEvents.RuntimeProvider when !_feedAllocationEvents:
                        break;
                    case KnownEvents.RuntimeProvider when InsideTplWindow(eventData.TimeStamp) || !_allocationWindows.OnEvent(eventData.EventId, eventData.TimeStamp, fields):
                        _excludedSamples++;
                        break;
                    case KnownEvents.TplProvider when _openWindow is not null:
                        EventMapping.OnTplEvent(eventData.EventId, fields, _openWindow);
                        break;
                    case KnownEvents.FrameworkProvider when _openWindow is not null:
                        EventMapping.OnFrameworkEvent(eventData.EventId, fields, _openWindow);
                        break;
                    default:
                        break;
                }
            }
        }
#pragma warning disable CA1031 // an instrumentation must never throw into the host: say so once and stop
        catch (Exception e)
#pragma warning restore CA1031
        {
            Fail("reading a runtime event failed", e);
        }
    }

    /// <summary>Takes what was gathered since the last drain; the listener goes on into a fresh interval.</summary>
    public StreamInterval Drain()
    {
        lock (_gate)
        {
            var windowsClosed = _allocationWindows.WindowsClosed;
            var interval = new StreamInterval(_allocationWindows.Drain(), windowsClosed, _hopSpans, _hopWindowsClosed, _excludedSamples);
            _hopSpans = [];
            _hopWindowsClosed = 0;
            _excludedSamples = 0;
            return interval;
        }
    }

    public override void Dispose()
    {
        lock (_switching)
        {
            lock (_gate)
            {
                _disposed = true;
                _phaseTimer?.Dispose();
                _phaseTimer = null;
            }
        }
        base.Dispose();
    }

    private bool InsideTplWindow(DateTime timestamp) => Inside(_tplWindows, timestamp);

    private static bool Inside(List<(DateTime Start, DateTime End)> spans, DateTime timestamp)
    {
        foreach (var (start, end) in spans)
        {
            if (timestamp >= start && timestamp < end)
            {
                return true;
            }
        }
        return false;
    }

    private TimeSpan Length(Phase phase) => phase switch
    {
        Phase.Hops => _dutyCycle.HopWindow,
        Phase.HopTail => _dutyCycle.HopsOff || _dutyCycle.HopsAlwaysOn ? TimeSpan.Zero : DutyCycle.HopWindowTail,
        Phase.Allocations => _dutyCycle.CountedAllocationTime,
        _ => _dutyCycle.Period - Length(Phase.Hops) - Length(Phase.HopTail) - Length(Phase.Allocations),
    };

    /// <summary>The phase after <paramref name="phase"/> that lasts (a phase may follow itself: always-on hops close and
    /// reopen a window each period, always-on allocations close one).</summary>
    private Phase Next(Phase? phase)
    {
        var at = phase is { } current ? Array.IndexOf(Cycle, current) : Cycle.Length - 1;
        for (var step = 1; step <= Cycle.Length; step++)
        {
            var next = Cycle[(at + step) % Cycle.Length];
            if (Length(next) > TimeSpan.Zero)
            {
                return next;
            }
        }
        return Phase.Quiet;
    }

    private void SafeAdvance()
    {
        try
        {
            Advance();
        }
#pragma warning disable CA1031 // a timer callback that throws would take the process down
        catch (Exception e)
#pragma warning restore CA1031
        {
            Fail("switching the event streams failed", e);
        }
    }

    /// <summary>Leaves the current phase and enters the next. The timer is set once both are done (sources switch outside the
    /// gate, since EventListener holds its own lock while it announces sources), for what is left of the new phase. Never
    /// after <see cref="Dispose"/>: both hold the switching lock.</summary>
    private void Advance()
    {
        var started = Stopwatch.GetTimestamp();
        lock (_switching)
        {
            Phase? leaving;
            Phase entering;
            lock (_gate)
            {
                if (_disposed || _failed)
                {
                    return;
                }
                leaving = _phase;
                entering = Next(_phase);
                _phase = entering;
            }
            if (leaving == Phase.Hops && entering == Phase.Hops)
            {
                RollHopWindow();
            }
            else
            {
                if (leaving is { } left)
                {
                    Leave(left);
                }
                Enter(entering);
            }
            lock (_gate)
            {
                var rest = Length(entering) - Stopwatch.GetElapsedTime(started);
                _phaseTimer?.Change(rest > TimeSpan.Zero ? rest : TimeSpan.Zero, Timeout.InfiniteTimeSpan);
            }
        }
    }

    private void Enter(Phase phase)
    {
        switch (phase)
        {
            case Phase.Hops:
                List<EventSource> sources;
                lock (_gate)
                {
                    _hopSpanStart ??= (GC.GetTotalAllocatedBytes(), Stopwatch.GetTimestamp(), ThreadPool.CompletedWorkItemCount);
                    _openWindow = new HopComputer();
                    _openWindowSince = Stopwatch.GetTimestamp();
                    _tplWindows.Add((DateTime.UtcNow, DateTime.MaxValue));
                    sources = [.. _hopSources];
                }
                sources.ForEach(EnableHopSource);
                break;
            case Phase.Allocations:
                if (SwitchAllocationEvents(on: true) is { } runtime)
                {
                    EnableAllocationEvents(runtime);
                }
                lock (_gate)
                {
                    _allocationWindows.Open(DateTime.UtcNow, GC.GetTotalAllocatedBytes(), ThreadPool.CompletedWorkItemCount);
                }
                break;
            default:
                break;
        }
    }

    private void Leave(Phase phase)
    {
        switch (phase)
        {
            case Phase.Hops:
                List<EventSource> sources;
                lock (_gate)
                {
                    CloseHopWindow();
                    // Every allocation sample is checked against these: keep only the windows a late sample can still fall in.
                    var judged = DateTime.UtcNow - LateEventAllowance;
                    _tplWindows.RemoveAll(w => w.End < judged);
                    sources = [.. _hopSources];
                }
                sources.ForEach(DisableEvents);
                lock (_gate)
                {
                    // Allocations are dropped until the sources are off, and a little after.
                    _tplWindows[^1] = (_tplWindows[^1].Start, DateTime.UtcNow + DutyCycle.HopWindowTail);
                }
                break;
            case Phase.HopTail:
                lock (_gate)
                {
                    if (_hopSpanStart is { } start)
                    {
                        _hopSpanBytes += GC.GetTotalAllocatedBytes() - start.Allocated;
                        _hopSpanTicks += Stopwatch.GetTimestamp() - start.Timestamp;
                        _hopSpanWorkItems += ThreadPool.CompletedWorkItemCount - start.WorkItems;
                        _hopSpanStart = null;
                    }
                }
                break;
            case Phase.Allocations:
                CloseAllocationWindow();
                if (SwitchAllocationEvents(on: false) is { } runtime)
                {
                    DisableEvents(runtime);
                }
                break;
            default:
                break;
        }
    }

    /// <summary>The hop stream always on: the window closes and the next opens with the sources left on. Switched off and on
    /// instead, every call made in between went uncounted (a starved timer thread left 16 % of a test's calls out).</summary>
    private void RollHopWindow()
    {
        lock (_gate)
        {
            CloseHopWindow();
            _openWindow = new HopComputer();
            _openWindowSince = Stopwatch.GetTimestamp();
        }
    }

    /// <summary>Ends the open hop window and the span it closes (see <see cref="HopSpan"/>).</summary>
    private void CloseHopWindow()
    {
        var now = Stopwatch.GetTimestamp();
        var workItems = ThreadPool.CompletedWorkItemCount;
        var window = new HopComputer();
        window.Add(_openWindow!); // its counts only, not what it tracked
        _openWindow = null;
        var recorded = Stopwatch.GetElapsedTime(_openWindowSince, now);
        var unrecorded = _dutyCycle.HopsAlwaysOn ? TimeSpan.Zero : Stopwatch.GetElapsedTime(_lastWindowClosedAt, now) - recorded;
        var span = new HopSpan(window, recorded, unrecorded, workItems - _workItemsAtLastWindowClose);
        if (_lastWindow is { } last && unrecorded > TimeSpan.Zero)
        {
            var pooled = new HopComputer();
            pooled.Add(last);
            pooled.Add(window);
            span = span with { Counted = pooled, Recorded = recorded + _lastWindowRecorded };
        }
        if (_hopSpans.Count < HopSpan.MaxKept)
        {
            _hopSpans.Add(span);
        }
        else
        {
            _hopSpans[^1] = _hopSpans[^1].Then(span);
        }
        _hopWindowsClosed++;
        _lastWindow = window;
        _lastWindowRecorded = recorded;
        _lastWindowClosedAt = now;
        _workItemsAtLastWindowClose = workItems;
    }

    /// <summary>Closes the allocation window: what the process allocated since the last one closed is what the samples of the
    /// windows on either side stand for (<see cref="AllocationWindowLedger"/>). What it allocated in hop windows is replaced by
    /// what it allocates outside them for as much work: as many thread-pool work items (the service runs slower while TPL
    /// events are on, so by time the hop windows would weigh too much), or, in a process that does too little of its work on
    /// the pool for that, in the same time.</summary>
    private void CloseAllocationWindow()
    {
        lock (_gate)
        {
            var allocated = GC.GetTotalAllocatedBytes();
            var ticks = Stopwatch.GetTimestamp();
            var workItems = ThreadPool.CompletedWorkItemCount;
            var sinceLastWindow = workItems - _workItemsAtLastWindowEnd;
            var outsideHops = sinceLastWindow - _hopSpanWorkItems >= AllocationWindowLedger.MinWorkItemsToTellWork
                ? (double)(sinceLastWindow - _hopSpanWorkItems) / sinceLastWindow
                : (double)(ticks - _lastWindowEnd - _hopSpanTicks) / (ticks - _lastWindowEnd);
            var spanBytes = (allocated - _allocatedAtLastWindowEnd - _hopSpanBytes) / outsideHops;
            // Samples are judged by their time stamps: the runtime may still send some after it was told to stop.
            if (!_allocationWindows.Close(DateTime.UtcNow, allocated, workItems, spanBytes))
            {
                return; // nothing allocated while counting, on either side: the span's bytes go with the next one
            }
            _allocatedAtLastWindowEnd = allocated;
            _lastWindowEnd = ticks;
            _workItemsAtLastWindowEnd = workItems;
            _hopSpanBytes = 0;
            _hopSpanTicks = 0;
            _hopSpanWorkItems = 0;
        }
    }

    /// <summary>Records whether AllocationSampled should be on; returns the runtime source when it has to be switched now
    /// (only when the schedule switches it, and once the source exists).</summary>
    private EventSource? SwitchAllocationEvents(bool on)
    {
        lock (_gate)
        {
            if (_allocationEventsOn == on || (!on && !_dutyCycle.AllocationsSwitched))
            {
                return null;
            }
            _allocationEventsOn = on;
            return _runtimeSource;
        }
    }

    private void EnableAllocationEvents(EventSource runtime) =>
        EnableEvents(runtime, EventLevel.Informational, (EventKeywords)KnownEvents.AllocationSamplingKeyword);

    private void EnableHopSource(EventSource source) =>
        EnableEvents(source, EventLevel.Verbose, (EventKeywords)(source.Name == KnownEvents.TplProvider ? KnownEvents.InProcessTplKeywords : KnownEvents.FrameworkKeywords));

    private void Fail(string what, Exception e)
    {
        lock (_gate)
        {
            if (_failed)
            {
                return;
            }
            _failed = true;
        }
        _log($"AsyncCost stopped measuring: {what} ({e.GetType().Name}: {e.Message}).");
    }
}
