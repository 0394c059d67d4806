using BenchmarkDotNet.Analysers;
using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Diagnosers;
using BenchmarkDotNet.Engines;
using BenchmarkDotNet.Exporters;
using BenchmarkDotNet.Loggers;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;
using BenchmarkDotNet.Validators;

namespace AsyncCost.Benchmarks.Infrastructure;

/// <summary>
/// Host-side half of <see cref="ReportedMetrics"/>: notes each benchmark process's id, then reads the figures that
/// process recorded and returns them as BenchmarkDotNet metrics, so they appear as columns and in the JSON/CSV
/// exports, together with thread-pool work items and lock contentions per operation. It starts nothing of its own (no extra run), so it costs the measured code nothing.
/// </summary>
public sealed class ReportedMetricsDiagnoser : IDiagnoser
{
    private static readonly IMetricDescriptor WorkItems =
        new Descriptor("WorkItems", "Work items/op", "Thread-pool work items completed per operation (actual iterations)", "N3", UnitType.Dimensionless, "", 0);

    private static readonly IMetricDescriptor LockContentions =
        new Descriptor("LockContentions", "Lock contentions/op", "Monitor lock contentions per operation (actual iterations)", "N3", UnitType.Dimensionless, "", 0);

    private static readonly Dictionary<string, IMetricDescriptor> Descriptors = new[]
    {
        new Descriptor(ReportedMetrics.VoluntarySwitches, "Voluntary switches/op", "Voluntary context switches per operation, all its threads (/proc)", "N1", UnitType.Dimensionless, "", 1),
        new Descriptor(ReportedMetrics.InvoluntarySwitches, "Involuntary switches/op", "Involuntary (preemption) context switches per operation, all its threads (/proc)", "N1", UnitType.Dimensionless, "", 2),
        new Descriptor(ReportedMetrics.Cycles, "Cycles/op", "User-mode CPU cycles per operation (perf_event_open)", "N0", UnitType.Dimensionless, "", 3),
        new Descriptor(ReportedMetrics.Instructions, "Instructions/op", "User-mode instructions retired per operation (perf_event_open)", "N0", UnitType.Dimensionless, "", 4),
        new Descriptor(ReportedMetrics.RssBytesPerWaiter, "RSS B/waiter", "Resident set growth per pending waiter, bytes (VmRSS)", "N0", UnitType.Dimensionless, "", 5),
        new Descriptor(ReportedMetrics.Waiters, "Waiters", "Waiters actually created (threads are capped by the machine's limits)", "N0", UnitType.Dimensionless, "", 6),
    }.ToDictionary(d => d.Id, d => (IMetricDescriptor)d);

    public IEnumerable<string> Ids => ["AsyncCostReportedMetrics"];

    public IEnumerable<IExporter> Exporters => [];

    public IEnumerable<IAnalyser> Analysers => [];

    public RunMode GetRunMode(BenchmarkCase benchmarkCase) => RunMode.NoOverhead;

    public bool RequiresBlockingAcknowledgments(BenchmarkCase benchmarkCase) => false;

    private readonly Dictionary<BenchmarkCase, List<int>> _processIds = [];

    public void Handle(HostSignal signal, DiagnoserActionParameters parameters)
    {
        if (signal != HostSignal.BeforeAnythingElse)
            return;
        if (!_processIds.TryGetValue(parameters.BenchmarkCase, out var ids))
            _processIds[parameters.BenchmarkCase] = ids = [];
        ids.Add(parameters.Process.Id);
    }

    public IEnumerable<Metric> ProcessResults(DiagnoserResults results)
    {
        // A suite records its figures once per process, in [GlobalCleanup]; with several launches the last one wins.
        var values = new Dictionary<string, double>();
        foreach (var processId in _processIds.GetValueOrDefault(results.BenchmarkCase) ?? [])
        {
            foreach (var (id, value) in ReportedMetrics.Take(processId))
                values[id] = value;
        }
        var metrics = values.Where(pair => Descriptors.ContainsKey(pair.Key)).Select(pair => new Metric(Descriptors[pair.Key], pair.Value)).ToList();

        // BenchmarkDotNet's engine counts work items and contentions over the actual iterations on every run; its
        // ThreadingDiagnoser, which would show them, refuses .NET 10 in 0.14 (unknown runtime moniker), so show them here.
        var threading = results.ThreadingStats;
        if (threading is { TotalOperations: > 0 })
        {
            metrics.Add(new Metric(WorkItems, (double)threading.CompletedWorkItemCount / threading.TotalOperations));
            metrics.Add(new Metric(LockContentions, (double)threading.LockContentionCount / threading.TotalOperations));
        }
        return metrics;
    }

    public void DisplayResults(ILogger logger)
    {
    }

    public IEnumerable<ValidationError> Validate(ValidationParameters validationParameters) => [];

    private sealed record Descriptor(
        string Id, string DisplayName, string Legend, string NumberFormat, UnitType UnitType, string Unit, int PriorityInCategory)
        : IMetricDescriptor
    {
        public bool TheGreaterTheBetter => false;

        public bool GetIsAvailable(Metric metric) => true;
    }
}
