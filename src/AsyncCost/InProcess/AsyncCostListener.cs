using AsyncCost.Attribution;
using AsyncCost.Computers;
using AsyncCost.Report;

namespace AsyncCost.InProcess;

/// <summary>
/// Async cost per method, measured inside the running process and available at any moment: an EventListener feeds the same
/// computers as an EventPipe session, and each <see cref="Snapshot"/> attributes what arrived since the last one with the
/// same <c>ReportBuilder</c> the CLI's reports use, then adds it to running totals. Allocation figures are scaled to what the
/// process allocated between allocation windows, hop figures to the thread pool's work items between hop windows, as the
/// CLI's windowed hop pass scales them (see <see cref="DutyCycle"/>); each arrives as its window closes.
/// Create one per process; it never throws into the host once constructed.
/// </summary>
public sealed class AsyncCostListener : IDisposable
{
    /// <summary>Allocated bytes after which a stream that saw no AllocationSampled event says it cannot measure allocations.</summary>
    internal const long SilentAllocationThreshold = 16 * 1024 * 1024;

    private readonly Lock _gate = new();
    private readonly RuntimeEventListener _listener;
    private readonly Action<string> _log;
    private readonly MethodCatalog _catalog = new();
    private readonly Dictionary<string, MethodTotals> _totals = new(StringComparer.Ordinal);
    private readonly long _allocatedAtStart = GC.GetTotalAllocatedBytes();
    private readonly DateTime _startedAt = DateTime.UtcNow;
    private long _allocationSamples;
    private long _excludedSamples;
    private int _hopWindows;
    private int _allocationWindows;
    private bool _saidAllocationsSilent;
    // Scaled allocation samples not yet attributed. A sample that arrives after its window closed waits here for the next
    // close: a report built for a few stragglers at every snapshot would allocate, outside the windows, bytes the windows
    // then never sample (a test snapshotting every 10 ms read its method's bytes 17 % high).
    private AllocationComputer _pendingAllocations = new();

    /// <summary>Starts listening.</summary>
    /// <param name="dutyCycle">When the hop and allocation streams run (see <see cref="InProcess.DutyCycle"/>).</param>
    /// <param name="log">Receives the rare messages the stream has for a person: what it cannot measure, or why it stopped.
    /// A callback that throws loses its message; the exception never reaches the process.</param>
    /// <exception cref="ArgumentException">The duty cycle cannot run.</exception>
    public AsyncCostListener(DutyCycle dutyCycle, Action<string>? log = null)
        : this(dutyCycle, log, ignoreAllocationEvents: false)
    {
    }

    /// <summary>Starts listening; <paramref name="ignoreAllocationEvents"/> makes it behave as on a runtime whose
    /// AllocationSampled events never arrive (tests of that fallback).</summary>
    internal AsyncCostListener(DutyCycle dutyCycle, Action<string>? log, bool ignoreAllocationEvents)
    {
        ArgumentNullException.ThrowIfNull(dutyCycle);
        if (dutyCycle.Problem() is { } problem)
        {
            throw new ArgumentException("Invalid duty cycle: " + problem, nameof(dutyCycle));
        }
        _log = NeverThrowing(log);
        _listener = new RuntimeEventListener(dutyCycle, _log, ignoreAllocationEvents);
    }

    /// <summary>Each method's totals since the stream started, including what arrived up to now.</summary>
    public AsyncCostSnapshot Snapshot()
    {
        lock (_gate)
        {
            try
            {
                Absorb(_listener.Drain());
            }
#pragma warning disable CA1031 // never throw into the host: keep the totals so far and say why once
            catch (Exception e)
#pragma warning restore CA1031
            {
                _log($"AsyncCost could not attribute the last interval ({e.GetType().Name}: {e.Message}); totals so far are kept.");
            }
            return new AsyncCostSnapshot([.. _totals.Values.Select(t => t.Copy())], DateTime.UtcNow - _startedAt, _allocationSamples, _excludedSamples, _allocationWindows, _hopWindows);
        }
    }

    /// <summary>Stops listening.</summary>
    public void Dispose() => _listener.Dispose();

    /// <summary>The log callback runs inside runtime event callbacks and metric collections: a host logger that fails there
    /// must not turn into an exception in the host's awaits or its exporter.</summary>
    private static Action<string> NeverThrowing(Action<string>? log) => log is null ? _ => { } : message =>
    {
        try
        {
            log(message);
        }
#pragma warning disable CA1031 // the message is lost; the host is not disturbed
        catch (Exception)
#pragma warning restore CA1031
        {
        }
    };

    private void Absorb(StreamInterval interval)
    {
        _allocationSamples += interval.Allocations.Samples;
        _excludedSamples += interval.ExcludedSamples;
        _allocationWindows += interval.AllocationWindows;
        _hopWindows += interval.HopWindows;
        CheckAllocationsArrive();
        _pendingAllocations.Add(interval.Allocations);
        if ((interval.AllocationWindows == 0 || _pendingAllocations.Samples == 0) && interval.HopSpans.Count == 0)
        {
            return;
        }

        _catalog.AddAssembliesOfThisProcess();
        var allocationFigures = new PassFigures();
        allocationFigures.Allocations.Add(_pendingAllocations);
        _pendingAllocations = new AllocationComputer();
        var allocationPass = new PassResult { Pass = MeasurementPasses.Allocations, Figures = allocationFigures };
        // A report reads one hop pass, and each span has its own scale: one report per span, the allocations with the first.
        var hopPasses = interval.HopSpans.Select(HopPass).ToList();
        for (var i = 0; i < Math.Max(hopPasses.Count, 1); i++)
        {
            List<PassResult> passes = i < hopPasses.Count ? [hopPasses[i]] : [];
            if (i == 0)
            {
                passes.Insert(0, allocationPass);
            }
            Add(new ReportBuilder(_catalog).Build(new ReportSource { Kind = SourceKind.InProcess, ProcessId = Environment.ProcessId },
                passes, [], StopReason.DurationElapsed, cutShort: false, []));
        }
    }

    /// <summary>A span of the hop schedule as a hop pass: windowed when it has time outside its windows, then scaled by the
    /// thread pool's work items, an exact count read at each window's close.</summary>
    private static PassResult HopPass(HopSpan span)
    {
        var figures = new PassFigures();
        figures.Hops.Add(span.Counted);
        var workItems = new CounterComputer();
        workItems.OnCounter(CounterComputer.CompletedWorkItemsCounter, span.CompletedWorkItems, (span.Recorded + span.Unrecorded).TotalSeconds);
        return new PassResult
        {
            Pass = MeasurementPasses.Hops,
            Figures = figures,
            Duration = span.Recorded,
            Unrecorded = span.Unrecorded,
            WindowedPassCounters = workItems,
            CounterInterval = TimeSpan.Zero,
        };
    }

    private void Add(AsyncCostReport report)
    {
        foreach (var method in report.Methods)
        {
            var totals = Totals(method);
            foreach (var allocation in method.Allocations)
            {
                totals.BytesByKind[allocation.Kind] = totals.BytesByKind.GetValueOrDefault(allocation.Kind) + allocation.Bytes.Value;
            }
            if (method.SampledCalls is { Source: FigureSource.AllocationPass } calls)
            {
                totals.Calls += calls.Value;
            }
            totals.Suspensions += method.SuspendingCalls?.Value ?? 0;
            totals.Hops += method.Hops?.Value ?? 0;
            totals.BlockingWaits += method.BlockingWaits?.Value ?? 0;
            totals.ElapsedMilliseconds += method.ElapsedMilliseconds?.Value ?? 0;
        }
    }

    private MethodTotals Totals(MethodCost method)
    {
        if (!_totals.TryGetValue(method.MethodKey, out var totals))
        {
            totals = new MethodTotals { MethodKey = method.MethodKey, DisplayName = method.DisplayName };
            _totals.Add(method.MethodKey, totals);
        }
        return totals;
    }

    /// <summary>A runtime without AllocationSampled (before .NET 10, or with EventPipe off) sends nothing: say once what is missing.</summary>
    private void CheckAllocationsArrive()
    {
        if (_saidAllocationsSilent || _allocationSamples + _excludedSamples > 0 || _allocationWindows == 0
            || GC.GetTotalAllocatedBytes() - _allocatedAtStart < SilentAllocationThreshold)
        {
            return;
        }
        _saidAllocationsSilent = true;
        _log($"AsyncCost cannot measure allocations in this process: no AllocationSampled event arrived while it allocated {SilentAllocationThreshold / (1024 * 1024)} MB (the event needs .NET 10 or later with EventPipe on). Bytes and calls per method stay at zero; hops and blocking waits are still measured.");
    }
}
