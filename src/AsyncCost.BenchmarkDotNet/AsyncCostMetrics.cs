using System.Globalization;
using AsyncCost.Report;
using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;

namespace AsyncCost.BenchmarkDotNet;

/// <summary>
/// The diagnoser's figures: each as a column of BenchmarkDotNet's tables and exports, and beside an estimate its ± bound
/// (95 %), as the CLI prints them. Its own columns, not BenchmarkDotNet's metric columns, because those print "-" both for
/// 0 and for a figure that was not measured; here a cell is "-" only for an exact 0 (as Allocated is), "NA" for a figure the
/// benchmark has none of (no extra-statistics iteration; no hop pass without a fixed IterationCount), and a number
/// otherwise, a sampled estimate of 0 included (its ± column says how far from 0 it may be). The metrics stay in the
/// reports for BenchmarkDotNet's JSON export, their own columns hidden.
/// </summary>
internal static class AsyncCostMetrics
{
    /// <summary>A figure the benchmark has none of.</summary>
    public const string NotMeasured = "NA";

    private static readonly FigureColumn[] Figures =
    [
        new("AsyncCostBytes", "Async B/op", "Bytes async methods allocated per operation (AsyncCost allocation pass over the extra-statistics iteration)", "N1", 0, c => c.AsyncMethodBytes, IsBound: false),
        new("AsyncCostBytesBound", "Async B/op ±", "95 % bound of Async B/op (sampled; - when exact)", "N1", 1, c => c.AsyncMethodBytes, IsBound: true),
        new("AsyncCostStateMachines", "State machines/op", "State-machine boxes allocated per operation (AsyncCost allocation pass)", "N3", 2, c => c.StateMachines, IsBound: false),
        new("AsyncCostStateMachinesBound", "State machines/op ±", "95 % bound of State machines/op (sampled; - when exact)", "N3", 3, c => c.StateMachines, IsBound: true),
        new("AsyncCostHops", "Hops/op", "Thread-pool hops of async methods per operation (AsyncCost hop pass: every event counted)", "N3", 4, c => c.Hops, IsBound: false),
        new("AsyncCostBlockingWaits", "Blocking waits/op", "Blocking waits async methods made per operation (AsyncCost hop pass: every event counted)", "N3", 5, c => c.BlockingWaits, IsBound: false),
    ];

    /// <summary>The columns, for a configuration's column providers (<see cref="AsyncCostDiagnoser.Columns"/>).</summary>
    public static IColumnProvider Columns { get; } = new ColumnProvider();

    /// <summary>The figures as metrics (BenchmarkDotNet's JSON export): a figure the benchmark has none of is left out.</summary>
    public static IEnumerable<Metric> Of(BenchmarkAsyncCost cost) =>
        Figures.Select(column => (column, figure: column.Read(cost)))
            .Where(f => f.figure is not null)
            .Select(f => new Metric(f.column, f.column.IsBound ? (f.figure!.Sampled ? f.figure.ErrorBound : 0) : f.figure!.Value));

    private sealed class ColumnProvider : IColumnProvider
    {
        public IEnumerable<IColumn> GetColumns(Summary summary) => Figures;
    }

    /// <summary>One figure, or its bound: the column and the metric descriptor (whose own column stays hidden).</summary>
    private sealed record FigureColumn(string Id, string DisplayName, string Legend, string NumberFormat, int PriorityInCategory,
        Func<BenchmarkAsyncCost, Figure?> Read, bool IsBound) : IColumn, IMetricDescriptor
    {
        public string ColumnName => DisplayName;

        public bool AlwaysShow => true;

        public ColumnCategory Category => ColumnCategory.Metric;

        public bool IsNumeric => true;

        public UnitType UnitType => UnitType.Dimensionless;

        public string Unit => "";

        public bool TheGreaterTheBetter => false;

        /// <summary>False: the figure shows in this column, not in BenchmarkDotNet's metric column.</summary>
        public bool GetIsAvailable(Metric metric) => false;

        public bool IsDefault(Summary summary, BenchmarkCase benchmarkCase) => false;

        public bool IsAvailable(Summary summary) => true;

        public string GetValue(Summary summary, BenchmarkCase benchmarkCase) => GetValue(summary, benchmarkCase, SummaryStyle.Default);

        public string GetValue(Summary summary, BenchmarkCase benchmarkCase, SummaryStyle style)
        {
            ArgumentNullException.ThrowIfNull(style);
            if (!AsyncCostDiagnoser.Default.Results.TryGetValue(benchmarkCase, out var cost) || Read(cost) is not { } figure)
            {
                return NotMeasured;
            }
            var exact = !figure.Sampled;
            var value = IsBound ? (exact ? 0 : figure.ErrorBound) : figure.Value;
            return exact && value == 0 && !style.PrintZeroValuesInContent
                ? "-"
                : value.ToString(NumberFormat, summary?.GetCultureInfo() ?? CultureInfo.InvariantCulture);
        }
    }
}
