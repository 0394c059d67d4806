using AsyncCost.Attribution;
using AsyncCost.Computers;
using Microsoft.Diagnostics.Tracing;

namespace AsyncCost.Events;

/// <summary>
/// Reads one EventPipe stream (live or a file) to its end and feeds the computers. Only aggregates are kept, so memory
/// does not grow with the number of events. Which computers receive data tells which pass the stream was.
/// </summary>
internal sealed class EventReader
{
    private long _events;
    private EventPipeEventSource? _source;
    private long _eventsLostTaken;
    private Action<EventReader, TimeSpan>? _onInterval;
    private double _intervalMs;
    private double _nextBoundaryMs;
    private double _lastRecordedEventMs;

    public AllocationComputer Allocations { get; private set; } = new();

    /// <summary>Takes the stream's allocation samples as read again from its saved file with their stacks
    /// (<see cref="StackSampleReader.ReadInto"/>), in place of the same samples tallied by type name alone.</summary>
    public void UseAllocationsWithSites(AllocationComputer withSites) => Allocations = withSites;
    public HopComputer Hops { get; private set; } = new();
    public CounterComputer Counters { get; private set; } = new();

    /// <summary>The requests Kestrel served (its RequestStart and RequestStop events), per endpoint.</summary>
    public RequestComputer Requests { get; private set; } = new();

    /// <summary>Stack samples per async method: filled from the saved stream by <see cref="StackSampleReader"/>, which needs the
    /// whole file to name the stacks' frames.</summary>
    public CpuComputer Cpu { get; } = new();

    public MethodCatalog Methods { get; }

    /// <summary>Events read so far (safe to read from another thread).</summary>
    public long Events => Interlocked.Read(ref _events);

    /// <summary>True once a TplEventSource event was seen: allocations in this stream include the TPL observer effect.</summary>
    public bool SawTplEvents { get; private set; }

    /// <summary>Sample-profiler events read: the stream is a CPU pass.</summary>
    public long StackSamples { get; private set; }

    /// <summary>EventPipe events the runtime dropped (buffer full), as reported by the stream.</summary>
    public long EventsLost { get; private set; }

    /// <summary>Thread ids that sent events (to join with /proc thread ids).</summary>
    public HashSet<int> ThreadIds { get; } = [];

    /// <summary>The traced process id, from the stream.</summary>
    public int? ProcessId { get; private set; }

    /// <summary>When the trace started, from the stream.</summary>
    public DateTimeOffset? StartedAt { get; private set; }

    /// <summary>The traced process's command line, from the EventPipe ProcessInfo event.</summary>
    public string? CommandLine { get; private set; }

    /// <summary>The stream's session duration, when it says.</summary>
    public TimeSpan? Duration { get; private set; }

    /// <summary>The timestamp of the last event read, from the session's start.</summary>
    public TimeSpan LastEventTime { get; private set; }

    public EventReader(MethodCatalog methods) => Methods = methods;

    /// <summary>Processes the source until its stream ends.</summary>
    public void Process(EventPipeEventSource source)
    {
        _source = source;
        source.Clr.All += OnEvent;
        source.Dynamic.All += OnEvent;
        new Microsoft.Diagnostics.Tracing.Parsers.Clr.ClrRundownTraceEventParser(source).All += OnEvent;
        try
        {
            source.Process();
        }
        finally
        {
            _source = null;
            EventsLost = source.EventsLost;
            if (source.SessionStartTime != default)
            {
                StartedAt = source.SessionStartTime;
            }
            // The recording ends with the last event the workload's providers wrote: the rundown that follows the stop
            // (a second or more on a loaded machine) is not recorded time.
            if (_lastRecordedEventMs > 0)
            {
                Duration = TimeSpan.FromMilliseconds(_lastRecordedEventMs);
            }
            else if (source.SessionDuration > TimeSpan.Zero)
            {
                Duration = source.SessionDuration;
            }
        }
    }

    /// <summary>
    /// Cuts the stream into intervals of <paramref name="length"/> by the events' own timestamps (a live monitor): as the first
    /// event past each boundary arrives, <paramref name="onInterval"/> gets what the interval read (<see cref="TakeInterval"/>)
    /// and the interval's end. Intervals are then true slices of the target's time even when the events arrive late.
    /// </summary>
    public void SplitIntoIntervals(TimeSpan length, Action<EventReader, TimeSpan> onInterval)
    {
        _intervalMs = length.TotalMilliseconds;
        _nextBoundaryMs = _intervalMs;
        _onInterval = onInterval;
    }

    /// <summary>
    /// Moves what was read since the last take into a reader of its own, as if that interval had been a stream read alone
    /// (allocations, counters and hop counts; the hop computer keeps following the tasks in flight), and goes on from zero.
    /// Call it on the thread that reads, or once the stream has ended.
    /// </summary>
    public EventReader TakeInterval()
    {
        var lost = _source?.EventsLost ?? (int)EventsLost;
        var taken = new EventReader(Methods)
        {
            Allocations = Allocations,
            Hops = Hops.TakeCounts(),
            Counters = Counters,
            Requests = Requests,
            _events = Interlocked.Exchange(ref _events, 0),
            SawTplEvents = SawTplEvents,
            EventsLost = lost - _eventsLostTaken,
            ProcessId = ProcessId,
            StartedAt = StartedAt,
            CommandLine = CommandLine,
            LastEventTime = LastEventTime,
        };
        taken.ThreadIds.UnionWith(ThreadIds);
        _eventsLostTaken = lost;
        Allocations = new AllocationComputer();
        Counters = new CounterComputer();
        Requests = new RequestComputer();
        return taken;
    }

    private void OnEvent(TraceEvent e)
    {
        var timestamp = e.TimeStampRelativeMSec;
        while (_onInterval is not null && timestamp >= _nextBoundaryMs)
        {
            _onInterval(TakeInterval(), TimeSpan.FromMilliseconds(_nextBoundaryMs));
            _nextBoundaryMs += _intervalMs;
        }
        LastEventTime = TimeSpan.FromMilliseconds(timestamp);
        var provider = e.ProviderName;
        if (provider != KnownEvents.RundownProvider)
        {
            _lastRecordedEventMs = timestamp;
        }
        Interlocked.Increment(ref _events);
        ProcessId ??= e.ProcessID > 0 ? e.ProcessID : null;
        var id = (int)e.ID;
        switch (provider)
        {
            case KnownEvents.RuntimeProvider:
                OnRuntimeEvent(e, id);
                break;
            case KnownEvents.TplProvider:
                SawTplEvents = true;
                ThreadIds.Add(e.ThreadID);
                EventMapping.OnTplEvent(id, new TraceEventFields(e), Hops);
                break;
            case KnownEvents.FrameworkProvider:
                ThreadIds.Add(e.ThreadID);
                EventMapping.OnFrameworkEvent(id, new TraceEventFields(e), Hops);
                break;
            case KnownEvents.EventPipeProvider when e.PayloadIndex(nameof(CommandLine)) >= 0:
                CommandLine ??= e.PayloadByName(nameof(CommandLine)) as string;
                break;
            case KnownEvents.KestrelProvider:
                EventMapping.OnKestrelEvent(id, new TraceEventFields(e), Requests);
                break;
            case KnownEvents.CountersProvider when e.EventName == "EventCounters":
                OnCounters(e);
                break;
            case KnownEvents.SampleProfilerProvider:
                StackSamples++;
                break;
            default:
                OnLoaderOrMethodEvent(e); // the rundown provider: ModuleDCStop, MethodDCStopVerbose
                break;
        }
    }

    /// <summary>Module and method events name what ran: methods from MethodLoadVerbose and MethodDCStopVerbose, module paths
    /// from ModuleLoad and ModuleDCStop (for traces without method events).</summary>
    private void OnLoaderOrMethodEvent(TraceEvent e)
    {
        if (e.PayloadIndex("MethodNamespace") >= 0)
        {
            if (e.PayloadByName("MethodNamespace") is string type && e.PayloadByName("MethodName") is string name)
            {
                Methods.AddMethod(type, name, e.PayloadByName("MethodSignature") as string ?? "", ModuleId(e));
            }
        }
        else if (e.PayloadIndex("ModuleILPath") >= 0)
        {
            Methods.AddModule(e.PayloadByName("ModuleILPath") as string, ModuleId(e));
        }
    }

    private static long ModuleId(TraceEvent e) =>
        e.PayloadIndex("ModuleID") >= 0 ? Convert.ToInt64(e.PayloadByName("ModuleID"), System.Globalization.CultureInfo.InvariantCulture) : 0;

    private void OnRuntimeEvent(TraceEvent e, int id)
    {
        if (!EventMapping.OnRuntimeEvent(id, new TraceEventFields(e), Allocations))
        {
            OnLoaderOrMethodEvent(e);
        }
    }

    private void OnCounters(TraceEvent e)
    {
        // TraceEvent gives the EventCounters payload as one field holding {"Payload": {...}} (as dotnet-counters reads it).
        var fields = e.PayloadByName("Payload") ?? (e.PayloadValue(0) is IDictionary<string, object> outer && outer.TryGetValue("Payload", out var inner) ? inner : null);
        if (fields is not IDictionary<string, object> payload
            || !payload.TryGetValue("Name", out var name) || name is not string counter)
        {
            return;
        }
        var value = payload.TryGetValue("Increment", out var increment) ? increment
            : payload.TryGetValue("Mean", out var mean) ? mean : null;
        if (value is not null)
        {
            var interval = payload.TryGetValue("IntervalSec", out var seconds) ? Convert.ToDouble(seconds, System.Globalization.CultureInfo.InvariantCulture) : 1;
            Counters.OnCounter(counter, Convert.ToDouble(value, System.Globalization.CultureInfo.InvariantCulture), interval);
        }
    }

    /// <summary>A TraceEvent's fields, as <see cref="EventMapping"/> reads them.</summary>
    private readonly struct TraceEventFields(TraceEvent e) : IEventFields
    {
        public int ThreadId => e.ThreadID;

        public double TimestampMs => e.TimeStampRelativeMSec;

        public object? Field(string name) => e.PayloadIndex(name) >= 0 ? e.PayloadByName(name) : null;
    }
}
