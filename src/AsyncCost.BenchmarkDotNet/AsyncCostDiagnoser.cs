using AsyncCost.Report;
using BenchmarkDotNet.Analysers;
using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Diagnosers;
using BenchmarkDotNet.Engines;
using BenchmarkDotNet.Exporters;
using BenchmarkDotNet.Loggers;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;
using BenchmarkDotNet.Validators;

namespace AsyncCost.BenchmarkDotNet;

/// <summary>
/// Per benchmark, what its async methods cost per operation: bytes, state-machine boxes, thread-pool hops and blocking
/// waits, each an exact count or an estimate with its 95 % bound, and the methods behind them (exported beside
/// BenchmarkDotNet's own files as <c>*-asynccost.md</c> and <c>*-asynccost.csv</c>), never in the timed iterations, with the
/// runtime library's sessions attached to the benchmark's process: the allocation pass (AllocationSampled, TPL events off)
/// over the iteration BenchmarkDotNet runs after the actual ones for its extra statistics, the one MemoryDiagnoser reads,
/// so the two agree where they measure the same bytes; that iteration exists when a MemoryDiagnoser (or
/// Threading/ExceptionDiagnoser) is configured too. Hops need every TPL event over the actual iterations, whose
/// operations are known only when the job fixes IterationCount: for such a job both passes run in an extra run (a second
/// run of the whole job), for any other the allocation pass rides the benchmark's own run. Add it with
/// <c>[AsyncCostDiagnoser]</c> or <c>config.AddDiagnoser(AsyncCostDiagnoser.Default).AddColumnProvider(AsyncCostDiagnoser.Columns)</c>.
/// </summary>
public sealed class AsyncCostDiagnoser : IDiagnoser
{
    private readonly Lock _gate = new();
    private readonly Dictionary<BenchmarkCase, (AsyncCostReport? Allocations, AsyncCostReport? Hops)> _reports = [];
    private readonly Dictionary<BenchmarkCase, BenchmarkAsyncCost> _results = [];
    private AttachedPass? _running;

    private AsyncCostDiagnoser()
    {
    }

    /// <summary>The diagnoser (one per process: it keeps each benchmark's results for the exporter and the columns).</summary>
    public static AsyncCostDiagnoser Default { get; } = new();

    /// <summary>The diagnoser's columns ("-" an exact 0, "NA" a figure the benchmark has none of): add them beside the diagnoser,
    /// <c>config.AddDiagnoser(AsyncCostDiagnoser.Default).AddColumnProvider(AsyncCostDiagnoser.Columns)</c>, as
    /// <c>[AsyncCostDiagnoser]</c> does.</summary>
    public static IColumnProvider Columns => AsyncCostMetrics.Columns;

    /// <summary>Each benchmark's figures, once its runs are over.</summary>
    public IReadOnlyDictionary<BenchmarkCase, BenchmarkAsyncCost> Results
    {
        get
        {
            lock (_gate)
            {
                return new Dictionary<BenchmarkCase, BenchmarkAsyncCost>(_results);
            }
        }
    }

    /// <inheritdoc/>
    public IEnumerable<string> Ids => ["AsyncCost"];

    /// <inheritdoc/>
    public IEnumerable<IExporter> Exporters => [new AsyncCostExporter(this)];

    /// <inheritdoc/>
    public IEnumerable<IAnalyser> Analysers => [];

    /// <inheritdoc/>
    /// <remarks>Hops need every TPL event over the timed iterations, which would slow them: a run of their own, which
    /// BenchmarkDotNet makes a whole second run of the job. Bytes need only the untimed extra-statistics iteration, which
    /// the benchmark's own run has: without hops (a job that does not fix IterationCount has none to give) the diagnoser
    /// rides that run and costs an attach, not a run.</remarks>
    public RunMode GetRunMode(BenchmarkCase benchmarkCase) => MeasuresHops(benchmarkCase) ? RunMode.ExtraRun : RunMode.NoOverhead;

    /// <inheritdoc/>
    /// <remarks>BenchmarkDotNet's host calls this synchronously between runs: the one place the diagnoser blocks on a session.</remarks>
    public void Handle(HostSignal signal, DiagnoserActionParameters parameters)
    {
        ArgumentNullException.ThrowIfNull(parameters);
        switch (signal)
        {
            case HostSignal.BeforeActualRun when MeasuresHops(parameters.BenchmarkCase):
                _running = AttachedPass.Start(parameters.Process.Id, MeasurementPasses.Hops);
                break;
            case HostSignal.AfterActualRun:
                var hops = _running?.StopAsync().GetAwaiter().GetResult();
                _running?.Dispose();
                _running = AttachedPass.Start(parameters.Process.Id, MeasurementPasses.Allocations);
                lock (_gate)
                {
                    _reports[parameters.BenchmarkCase] = (null, hops);
                }
                break;
            case HostSignal.AfterAll when _running is { } allocationPass:
                _running = null;
                var allocations = allocationPass.StopAsync().GetAwaiter().GetResult();
                allocationPass.Dispose();
                lock (_gate)
                {
                    _reports[parameters.BenchmarkCase] = (allocations, _reports.GetValueOrDefault(parameters.BenchmarkCase).Hops);
                }
                break;
            default:
                break;
        }
    }

    /// <inheritdoc/>
    public IEnumerable<Metric> ProcessResults(DiagnoserResults results)
    {
        ArgumentNullException.ThrowIfNull(results);
        BenchmarkAsyncCost cost;
        lock (_gate)
        {
            // The extra-statistics iteration's operations: one actual iteration's worth (BenchmarkDotNet 0.14's TotalOperations
            // adds up every workload iteration, pilot and warm-up included, and counts the actual ones twice).
            var iterationOperations = results.GcStats.TotalOperations > 0 ? results.GcStats.TotalOperations : results.ThreadingStats.TotalOperations;
            if (!_reports.Remove(results.BenchmarkCase, out var reports) || reports.Allocations is null || iterationOperations <= 0)
            {
                return [];
            }
            var actualIterations = MeasuresHops(results.BenchmarkCase) ? results.BenchmarkCase.Job.Run.IterationCount : 0;
            var nothingAllocated = results.GcStats.TotalOperations > 0 && results.GcStats.GetTotalAllocatedBytes(excludeAllocationQuantumSideEffects: true) == 0;
            cost = new BenchmarkAsyncCost(reports.Allocations, iterationOperations, reports.Hops, actualIterations * iterationOperations, nothingAllocated);
            _results[results.BenchmarkCase] = cost;
        }
        return AsyncCostMetrics.Of(cost);
    }

    /// <inheritdoc/>
    public void DisplayResults(ILogger logger)
    {
        ArgumentNullException.ThrowIfNull(logger);
        logger.WriteLineInfo("AsyncCost: bytes and state machines need the extra-statistics iteration BenchmarkDotNet runs with a MemoryDiagnoser (or Threading/ExceptionDiagnoser); per-method figures: *-asynccost.md and *-asynccost.csv in the results folder.");
        var withoutHops = Results.Where(r => r.Value.Hops is null).Select(r => r.Key.Descriptor.WorkloadMethodDisplayInfo).ToList();
        if (withoutHops.Count > 0)
        {
            logger.WriteLineInfo($"AsyncCost: no hop figures for {string.Join(", ", withoutHops)}: the hop pass records the actual iterations, whose operations are known only when the job fixes their number (IterationCount).");
        }
    }

    /// <summary>The hop pass counts the actual iterations' operations, known only when the job fixes their number.</summary>
    private static bool MeasuresHops(BenchmarkCase benchmarkCase) =>
        benchmarkCase.Job.Run.HasValue(global::BenchmarkDotNet.Jobs.RunMode.IterationCountCharacteristic);

    /// <inheritdoc/>
    public IEnumerable<ValidationError> Validate(ValidationParameters validationParameters) => [];
}
