using System.Diagnostics.Tracing;
using AsyncCost.Computers;
using AsyncCost.Events;

namespace AsyncCost.InProcess;

/// <summary>What the listener gathered since the last drain.</summary>
/// <param name="Allocations">Allocation samples recorded while TPL events were off.</param>
/// <param name="ClosedWindows">The hop windows that closed, added up (<see cref="HopComputer.Windows"/> says how many).</param>
/// <param name="ExcludedSamples">Allocation samples dropped because TPL events were on.</param>
internal sealed record StreamInterval(AllocationComputer Allocations, HopComputer ClosedWindows, long ExcludedSamples);

/// <summary>
/// The in-process path: an EventListener on the runtime's own event sources, feeding the same computers as the EventPipe
/// reader through <see cref="EventMapping"/>. AllocationSampled (.NET 10, sampled by the runtime) stays on; TplEventSource and
/// FrameworkEventSource are switched on for the hop windows of a <see cref="HopDutyCycle"/>. While they are on, await
/// allocates differently (the observer effect), so allocations stamped inside a window are dropped. Never throws into the
/// process: a failure is reported once through the log callback and the listener stops feeding.
/// </summary>
internal sealed class RuntimeEventListener : EventListener
{
    /// <summary>Runtime events reach the listener after a delay: windows are kept this long past their end to judge late ones.</summary>
    private static readonly TimeSpan LateEventAllowance = TimeSpan.FromSeconds(10);

    // Initialized before the base constructor announces the existing sources.
    private readonly Lock _gate = new();
    private readonly List<EventSource> _hopSources = [];
    private readonly List<(DateTime Start, DateTime End)> _tplWindows = [];
    private AllocationComputer _allocations = new();
    // Each window is added in here as it closes: with nobody collecting (no scrape for hours), memory stays that of one window.
    private HopComputer _closedWindows = new();
    private HopComputer? _openWindow;
    private long _excludedSamples;
    private HopDutyCycle _dutyCycle = HopDutyCycle.Off;
    private Action<string> _log = _ => { };
    private Timer? _dutyTimer;
    private bool _failed;
    private bool _disposed;

    /// <summary>False until the constructor has run (events the base constructor lets through before are not fed), and false
    /// for a listener told to ignore allocation events (tests of a runtime that sends none).</summary>
    private bool _feedAllocationEvents;

    public RuntimeEventListener(HopDutyCycle dutyCycle, Action<string> log, bool ignoreAllocationEvents = false)
    {
        _dutyCycle = dutyCycle;
        _log = log;
        lock (_gate)
        {
            _feedAllocationEvents = !ignoreAllocationEvents;
            if (!dutyCycle.IsOff)
            {
                _dutyTimer = new Timer(_ => SafeToggle(), null, TimeSpan.Zero, Timeout.InfiniteTimeSpan);
            }
        }
    }

    protected override void OnEventSourceCreated(EventSource eventSource)
    {
        switch (eventSource.Name)
        {
            case KnownEvents.RuntimeProvider:
                EnableEvents(eventSource, EventLevel.Informational, (EventKeywords)KnownEvents.AllocationSamplingKeyword);
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
                    case KnownEvents.RuntimeProvider when InsideTplWindow(eventData.TimeStamp):
                        _excludedSamples++;
                        break;
                    case KnownEvents.RuntimeProvider:
                        EventMapping.OnRuntimeEvent(eventData.EventId, fields, _allocations);
                        break;
                    case KnownEvents.TplProvider when _openWindow is not null:
                        EventMapping.OnTplEvent(eventData.EventId, fields, _openWindow);
                        break;
                    case KnownEvents.FrameworkProvider when _openWindow is not null:
                        EventMapping.OnFrameworkEvent(eventData.EventId, fields.ThreadId, _openWindow);
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
            var interval = new StreamInterval(_allocations, _closedWindows, _excludedSamples);
            _allocations = new AllocationComputer();
            _closedWindows = new HopComputer();
            _excludedSamples = 0;
            return interval;
        }
    }

    public override void Dispose()
    {
        lock (_gate)
        {
            _disposed = true;
            _dutyTimer?.Dispose();
            _dutyTimer = null;
        }
        base.Dispose();
    }

    private bool InsideTplWindow(DateTime timestamp)
    {
        foreach (var (start, end) in _tplWindows)
        {
            if (timestamp >= start && timestamp < end)
            {
                return true;
            }
        }
        return false;
    }

    private void SafeToggle()
    {
        try
        {
            Toggle();
        }
#pragma warning disable CA1031 // a timer callback that throws would take the process down
        catch (Exception e)
#pragma warning restore CA1031
        {
            Fail("switching the hop stream failed", e);
        }
    }

    /// <summary>Opens a hop window when none is open, closes the open one otherwise (always on: closes and reopens at once).
    /// Sources are switched outside the gate: EventListener holds its own lock while it announces sources.</summary>
    private void Toggle()
    {
        List<EventSource> sources;
        bool opening;
        lock (_gate)
        {
            if (_disposed || _failed)
            {
                return;
            }
            sources = [.. _hopSources];
            opening = _openWindow is null;
            if (opening)
            {
                _openWindow = new HopComputer();
                _tplWindows.Add((DateTime.UtcNow, DateTime.MaxValue));
                _dutyTimer?.Change(_dutyCycle.Window, Timeout.InfiniteTimeSpan);
            }
            else
            {
                _closedWindows.Add(_openWindow!);
                // Every allocation sample is checked against these: keep only the windows a late sample can still fall in.
                var judged = DateTime.UtcNow - LateEventAllowance;
                _tplWindows.RemoveAll(w => w.End < judged);
                if (_dutyCycle.IsAlwaysOn)
                {
                    _openWindow = new HopComputer();
                    _dutyTimer?.Change(_dutyCycle.Period, Timeout.InfiniteTimeSpan);
                    return;
                }
                _openWindow = null;
                _dutyTimer?.Change(_dutyCycle.Period - _dutyCycle.Window, Timeout.InfiniteTimeSpan);
            }
        }
        foreach (var source in sources)
        {
            if (opening)
            {
                EnableHopSource(source);
            }
            else
            {
                DisableEvents(source);
            }
        }
        if (!opening)
        {
            lock (_gate)
            {
                // Allocations are dropped until the sources are off, and a little after.
                _tplWindows[^1] = (_tplWindows[^1].Start, DateTime.UtcNow + HopDutyCycle.WindowTail);
            }
        }
    }

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

    /// <summary>An EventListener event's fields, as <see cref="EventMapping"/> reads them.</summary>
    private readonly struct ListenerEventFields(EventWrittenEventArgs e) : IEventFields
    {
        public int ThreadId => (int)e.OSThreadId;

        public double TimestampMs => e.TimeStamp.Ticks / (double)TimeSpan.TicksPerMillisecond;

        public object? Field(string name)
        {
            var index = e.PayloadNames?.IndexOf(name) ?? -1;
            return index >= 0 && e.Payload is { } payload && index < payload.Count ? payload[index] : null;
        }
    }
}
