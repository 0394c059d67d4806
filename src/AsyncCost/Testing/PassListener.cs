using System.Diagnostics.Tracing;
using AsyncCost.Computers;
using AsyncCost.Events;
using AsyncCost.InProcess;
using AsyncCost.Report;

namespace AsyncCost.Testing;

/// <summary>
/// One measurement pass in this process, the CLI's passes in miniature: the allocation pass (AllocationSampled, TPL events
/// off) or the hop pass (TplEventSource and FrameworkEventSource, every event counted), fed to the same computers through
/// <see cref="EventMapping"/>, between <see cref="Start"/> and <see cref="StopAsync"/>. Allocation samples reach a listener
/// late and on the runtime's dispatch thread, so they are judged by their time stamps; the TPL's and the thread pool's
/// events are written on the thread that raised them, before the code goes on, so they are counted while the pass is open.
/// </summary>
internal sealed class PassListener : EventListener
{
    /// <summary>How long <see cref="StopAsync"/> waits for the allocation samples stamped before it to arrive.</summary>
    private static readonly TimeSpan LateEventLimit = TimeSpan.FromSeconds(10);

    // Initialized before the base constructor announces the sources that already exist.
    private readonly Lock _gate = new();
    private readonly List<EventSource> _announced = [];
    private MeasurementPasses _pass;
    private DateTime _from = DateTime.MaxValue;
    private DateTime _to = DateTime.MaxValue;
    private bool _counting;
    private int _callingThread;
    private bool _sampleAfterStop;
    private bool _sampleArrived;

    public PassListener(MeasurementPasses pass)
    {
        List<EventSource> announced;
        lock (_gate)
        {
            _pass = pass;
            announced = [.. _announced];
        }
        announced.ForEach(Enable);
    }

    /// <summary>The allocation pass's samples stamped between start and stop.</summary>
    public AllocationComputer Allocations { get; } = new();

    /// <summary>The hop pass's counts between start and stop.</summary>
    public HopComputer Hops { get; } = new();

    /// <summary>True when the hop pass saw the calling thread queue thread-pool work or block on a task: the operations then
    /// had work done on other threads, and the calling thread's allocations are not all of theirs.</summary>
    public bool CallingThreadHandedOff { get; private set; }

    /// <summary>Opens the pass on the calling thread: from now on events count.</summary>
    public void Start()
    {
        lock (_gate)
        {
            _from = DateTime.UtcNow;
            _callingThread = Environment.CurrentManagedThreadId;
            _counting = true;
        }
    }

    /// <summary>For the allocation pass, returns once the runtime's session sends samples (its first start takes a while, and
    /// samples of the time before would be lost), false after <see cref="LateEventLimit"/>; at once for the hop pass.</summary>
    public Task<bool> ReadyAsync() => _pass == MeasurementPasses.Allocations ? FlushUntilAsync(() => _sampleArrived) : Task.FromResult(true);

    /// <summary>Closes the pass; for the allocation pass, returns once a sample stamped after the close has arrived (the
    /// runtime sends them in order, so the pass's own are in), or after <see cref="LateEventLimit"/>: false then.</summary>
    public async Task<bool> StopAsync()
    {
        lock (_gate)
        {
            _to = DateTime.UtcNow;
            _counting = false;
        }
        if (_pass != MeasurementPasses.Allocations)
        {
            return true;
        }
        return await FlushUntilAsync(() => _sampleAfterStop).ConfigureAwait(false);
    }

    /// <summary>Allocates what is sure to be sampled until <paramref name="arrived"/> says its sample came.</summary>
    private async Task<bool> FlushUntilAsync(Func<bool> arrived)
    {
        var waited = System.Diagnostics.Stopwatch.StartNew();
        while (waited.Elapsed < LateEventLimit)
        {
            // 1 MB: sampled with probability 1 − e^−10, so each round sends a sample.
            GC.KeepAlive(new FlushMarker[16_384]);
            await Task.Delay(20).ConfigureAwait(false);
            lock (_gate)
            {
                if (arrived())
                {
                    return true;
                }
            }
        }
        return false;
    }

    protected override void OnEventSourceCreated(EventSource eventSource)
    {
        lock (_gate)
        {
            if (_pass == MeasurementPasses.None)
            {
                _announced.Add(eventSource);
                return;
            }
        }
        Enable(eventSource);
    }

    protected override void OnEventWritten(EventWrittenEventArgs eventData)
    {
        var fields = new ListenerEventFields(eventData);
        lock (_gate)
        {
            switch (eventData.EventSource.Name)
            {
                case KnownEvents.RuntimeProvider when !_sampleArrived:
                    _sampleArrived = true;
                    break;
                case KnownEvents.RuntimeProvider when eventData.TimeStamp >= _to:
                    _sampleAfterStop = true;
                    break;
                case KnownEvents.RuntimeProvider when eventData.TimeStamp >= _from:
                    EventMapping.OnRuntimeEvent(eventData.EventId, fields, Allocations);
                    break;
                case KnownEvents.TplProvider when _counting:
                    NoteHandOff(eventData.EventId == KnownEvents.TaskWaitBeginId && fields.Field("Behavior") is int behavior && behavior == KnownEvents.SynchronousWaitBehavior);
                    EventMapping.OnTplEvent(eventData.EventId, fields, Hops);
                    break;
                case KnownEvents.FrameworkProvider when _counting:
                    NoteHandOff(eventData.EventId == KnownEvents.ThreadPoolEnqueueWorkId);
                    EventMapping.OnFrameworkEvent(eventData.EventId, fields, Hops);
                    break;
                default:
                    break;
            }
        }
    }

    /// <summary>These sources write on the thread that raised the event, so the current thread is the one that raised it.</summary>
    private void NoteHandOff(bool handOff) => CallingThreadHandedOff |= handOff && Environment.CurrentManagedThreadId == _callingThread;

    private void Enable(EventSource source)
    {
        switch (source.Name)
        {
            case KnownEvents.RuntimeProvider when _pass == MeasurementPasses.Allocations:
                EnableEvents(source, EventLevel.Informational, (EventKeywords)KnownEvents.AllocationSamplingKeyword);
                break;
            case KnownEvents.TplProvider when _pass == MeasurementPasses.Hops:
                EnableEvents(source, EventLevel.Verbose, (EventKeywords)KnownEvents.TplKeywords);
                break;
            case KnownEvents.FrameworkProvider when _pass == MeasurementPasses.Hops:
                EnableEvents(source, EventLevel.Verbose, (EventKeywords)KnownEvents.FrameworkKeywords);
                break;
            default:
                break;
        }
    }

    /// <summary>What the flush allocates: a type nothing else does.</summary>
    private readonly record struct FlushMarker(long A, long B, long C, long D, long E, long F, long G, long H);
}
