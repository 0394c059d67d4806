using System.Diagnostics.Metrics;
using System.Reflection;
using AsyncCost.InProcess;
using AsyncCost.Report;

namespace AsyncCost.OpenTelemetry;

/// <summary>
/// The Meter "AsyncCost" and its counters, read from an <see cref="AsyncCostListener"/>. A collection takes one snapshot
/// (shared by all counters of that collection) and books it into bounded series; the callbacks never throw.
/// </summary>
internal sealed class AsyncCostMetrics : IDisposable
{
    public const string MeterName = "AsyncCost";

    /// <summary>Counters read within this long of the last snapshot share it (one collection reads every counter in turn).</summary>
    private static readonly TimeSpan SnapshotReuse = TimeSpan.FromMilliseconds(250);

    private readonly Lock _gate = new();
    private readonly AsyncCostListener _listener;
    private readonly SeriesBook _series;
    private readonly Meter _meter;
    private readonly Action<string> _log;
    private DateTime _lastSnapshot = DateTime.MinValue;
    private bool _saidCallbackFailed;

    public AsyncCostMetrics(AsyncCostInstrumentationOptions options, Action<string> log)
    {
        _log = log;
        _series = new SeriesBook(options.MaxMethods);
        _listener = new AsyncCostListener(options.DutyCycle, log);
        _meter = new Meter(MeterName, typeof(AsyncCostMetrics).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion);
        _meter.CreateObservableCounter("asynccost.method.allocated_bytes", AllocatedBytes, "By",
            "Bytes allocated by async methods (state-machine boxes, tasks, closures, delegates), estimated from the runtime's allocation sampling.");
        _meter.CreateObservableCounter("asynccost.method.calls", () => PerMethod(m => m.Calls), "{call}",
            "Calls of async methods, estimated from the boxes and tasks they allocate.");
        _meter.CreateObservableCounter("asynccost.method.suspensions", () => PerMethod(m => m.Suspensions), "{suspension}",
            "Calls of async methods that suspended (awaited something unfinished), from the duty-cycled hop stream.");
        _meter.CreateObservableCounter("asynccost.method.hops", () => PerMethod(m => m.Hops), "{hop}",
            "Resumptions of async methods that went through the thread pool, from the duty-cycled hop stream.");
        _meter.CreateObservableCounter("asynccost.method.blocking_waits", () => PerMethod(m => m.BlockingWaits), "{wait}",
            "Synchronous waits (.Result, .Wait()) on async methods' tasks, from the duty-cycled hop stream.");
        _meter.CreateObservableCounter("asynccost.method.elapsed", () => PerMethod(m => m.ElapsedMilliseconds / 1_000), "s",
            "Time callers waited on async methods' calls that suspended, each from the call (its synchronous first segment included) to its completion, summed, from the duty-cycled hop stream: its rate over the suspensions' rate is the mean per call.");
    }

    /// <summary>The tag value of an allocation kind.</summary>
    public static string KindTag(AllocationKind kind) => kind switch
    {
        AllocationKind.StateMachineBox => "box",
        AllocationKind.Task => "task",
        AllocationKind.Closure => "closure",
        AllocationKind.Delegate => "delegate",
        _ => "other",
    };

    public void Dispose()
    {
        _meter.Dispose();
        _listener.Dispose();
    }

    private IEnumerable<Measurement<double>> AllocatedBytes() =>
        Series().SelectMany(series => series.BytesByKind.Select(pair =>
            new Measurement<double>(pair.Value, new("method", series.MethodKey), new("kind", KindTag(pair.Key)))));

    private IEnumerable<Measurement<double>> PerMethod(Func<MethodTotals, double> figure) =>
        Series().Select(series => new Measurement<double>(figure(series), new KeyValuePair<string, object?>("method", series.MethodKey)));

    /// <summary>The series to publish, after a fresh snapshot unless one was just taken.</summary>
    private List<MethodTotals> Series()
    {
        lock (_gate)
        {
            try
            {
                var now = DateTime.UtcNow;
                if (now - _lastSnapshot >= SnapshotReuse)
                {
                    _series.Advance(_listener.Snapshot());
                    _lastSnapshot = now;
                }
                return [.. _series.Current()];
            }
#pragma warning disable CA1031 // a collection callback must never throw into the host's exporter
            catch (Exception e)
#pragma warning restore CA1031
            {
                if (!_saidCallbackFailed)
                {
                    _saidCallbackFailed = true;
                    _log($"AsyncCost could not publish its metrics ({e.GetType().Name}: {e.Message}).");
                }
                return [];
            }
        }
    }
}
