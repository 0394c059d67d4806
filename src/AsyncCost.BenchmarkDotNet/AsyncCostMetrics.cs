using AsyncCost.Report;
using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Reports;

namespace AsyncCost.BenchmarkDotNet;

/// <summary>The diagnoser's columns: each figure, and beside an estimate its ± bound (95 %), as the CLI prints them.</summary>
internal static class AsyncCostMetrics
{
    private static readonly Descriptor Bytes = new("AsyncCostBytes", "Async B/op", "Bytes async methods allocated per operation (AsyncCost allocation pass, extra run)", "N1", 0);
    private static readonly Descriptor BytesBound = new("AsyncCostBytesBound", "Async B/op ±", "95 % bound of Async B/op (sampled)", "N1", 1);
    private static readonly Descriptor StateMachines = new("AsyncCostStateMachines", "State machines/op", "State-machine boxes allocated per operation (AsyncCost allocation pass)", "N3", 2);
    private static readonly Descriptor StateMachinesBound = new("AsyncCostStateMachinesBound", "State machines/op ±", "95 % bound of State machines/op (sampled)", "N3", 3);
    private static readonly Descriptor Hops = new("AsyncCostHops", "Hops/op", "Thread-pool hops of async methods per operation (AsyncCost hop pass: every event counted)", "N3", 4);
    private static readonly Descriptor BlockingWaits = new("AsyncCostBlockingWaits", "Blocking waits/op", "Blocking waits async methods made per operation (AsyncCost hop pass: every event counted)", "N3", 5);

    public static IEnumerable<Metric> Of(BenchmarkAsyncCost cost)
    {
        foreach (var (descriptor, bound, figure) in new[]
        {
            (Bytes, BytesBound, cost.AsyncMethodBytes),
            (StateMachines, StateMachinesBound, cost.StateMachines),
            (Hops, null, cost.Hops),
            (BlockingWaits, null, cost.BlockingWaits),
        })
        {
            if (figure is null)
            {
                continue;
            }
            yield return new Metric(descriptor, figure.Value);
            if (bound is not null)
            {
                yield return new Metric(bound, figure.Sampled ? figure.ErrorBound : 0);
            }
        }
    }

    private sealed record Descriptor(string Id, string DisplayName, string Legend, string NumberFormat, int PriorityInCategory) : IMetricDescriptor
    {
        public UnitType UnitType => UnitType.Dimensionless;

        public string Unit => "";

        public bool TheGreaterTheBetter => false;

        public bool GetIsAvailable(Metric metric) => true;
    }
}
