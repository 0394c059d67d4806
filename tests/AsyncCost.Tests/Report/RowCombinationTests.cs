using AsyncCost.Attribution;
using AsyncCost.Events;
using AsyncCost.Report;

namespace AsyncCost.Tests.Report;

/// <summary>How the passes' figures of a method become one row: one basis, calls × bytes per call = bytes within the bounds.</summary>
public class RowCombinationTests
{
    private const string Box = "AsyncStateMachineBox`1[System.Int32,Shop.Stock+<ReserveAsync>d__4]";

    /// <summary>The trace's method events: Shop.Stock.ReserveAsync (a box per call) and Demo.SampleMain.RunAsync, the only
    /// async method of the trace that returns Task&lt;int&gt;.</summary>
    private static MethodCatalog Methods()
    {
        var methods = new MethodCatalog();
        methods.AddMethod("Shop.Stock+<ReserveAsync>d__4", "MoveNext", "instance void  ()");
        methods.AddMethod("Demo.SampleMain+<RunAsync>d__0", "MoveNext", "instance void  ()");
        methods.AddMethod("Demo.SampleMain", "RunAsync", "class System.Threading.Tasks.Task`1<int32>  ()");
        return methods;
    }

    /// <summary>An allocation pass's stream with <paramref name="count"/> samples of ReserveAsync's 112 B box.</summary>
    private static EventReader BoxSamples(MethodCatalog methods, int count)
    {
        var allocations = new EventReader(methods);
        for (var i = 0; i < count; i++)
        {
            allocations.Allocations.OnAllocationSampled(Box, 112);
        }
        return allocations;
    }

    /// <summary>A hop pass's stream that saw ReserveAsync suspend <paramref name="calls"/> times.</summary>
    private static EventReader SuspendingCalls(MethodCatalog methods, int calls)
    {
        var hops = new EventReader(methods);
        for (var call = 0; call < calls; call++)
        {
            hops.Hops.OnOperationBegin(1, call + 2, "Async: <ReserveAsync>d__4", 0);
        }
        return hops;
    }

    private static AsyncCostReport Build(MethodCatalog methods, SourceKind source, StopReason stop, params PassResult[] passes)
        => new ReportBuilder(methods).Build(new ReportSource { Kind = source }, passes, [], stop, cutShort: false, []);

    private static PassResult Pass(MeasurementPasses pass, EventReader reader, int processId) =>
        new() { Pass = pass, Figures = PassFigures.Of(reader), ProcessId = processId, Duration = TimeSpan.FromSeconds(3) };

    /// <summary>|calls × bytes per call − bytes| within the printed bounds of the two sides.</summary>
    private static void AssertAddsUp(MethodCost row)
    {
        var product = row.Calls!.Value * row.BytesPerCall!.Value;
        var bound = row.Bytes!.ErrorBound + (row.Calls.Value * row.BytesPerCall.ErrorBound) + (row.BytesPerCall.Value * row.Calls.ErrorBound);
        Assert.True(Math.Abs(product - row.Bytes.Value) <= bound, $"{row.Calls.Value} × {row.BytesPerCall.Value} = {product} against {row.Bytes.Value} ± {bound}");
    }

    [Fact]
    public void Attached_passes_take_a_rows_calls_from_the_allocation_samples_not_from_the_hop_pass_slice()
    {
        var methods = Methods();
        // The allocation slice ran fast: 2,000 box samples (a 112 B box and a 32 B closure per call, sampled in proportion).
        var allocations = BoxSamples(methods, 2_000);
        for (var i = 0; i < 570; i++)
        {
            allocations.Allocations.OnAllocationSampled("Shop.Stock+<>c__DisplayClass4_0", 32);
        }
        // The hop slice, slowed by its own TPL events, counted far fewer calls than the allocation slice made.
        var hops = SuspendingCalls(methods, 8_205);

        var report = Build(methods, SourceKind.Attach, StopReason.DurationElapsed,
            Pass(MeasurementPasses.Allocations, allocations, 42), Pass(MeasurementPasses.Hops, hops, 42));

        Assert.Equal(RowBasis.EachPass, report.RowBasis);
        var row = Assert.Single(report.Methods, m => m.MethodKey == "Shop.Stock.ReserveAsync");
        Assert.Equal(row.SampledCalls, row.Calls);
        Assert.Equal((FigureKind.Estimate, FigureSource.AllocationPass), (row.Calls!.Kind, row.Calls.Source));
        // The hop pass's count stays its own slice's, exact there.
        Assert.Equal((FigureKind.Exact, 8_205), (row.SuspendingCalls!.Kind, row.SuspendingCalls.Value));
        Assert.True(row.Calls.Value > 10 * row.SuspendingCalls.Value);
        AssertAddsUp(row);
        Assert.Equal(1, row.Bytes!.Value / (row.Calls.Value * row.BytesPerCall!.Value), 9);
    }

    [Fact]
    public void One_launched_run_counts_the_calls_exactly_and_its_bytes_are_bytes_per_call_times_them()
    {
        var methods = Methods();
        var allocations = BoxSamples(methods, 2_000);
        var estimate = Assert.Single(Build(methods, SourceKind.Launch, StopReason.ProcessExited, Pass(MeasurementPasses.Allocations, allocations, 7)).Methods).Calls!;
        var count = (int)Math.Round(estimate.Value);
        var hops = SuspendingCalls(methods, count);

        var report = Build(methods, SourceKind.Launch, StopReason.ProcessExited,
            Pass(MeasurementPasses.Allocations, allocations, 7), Pass(MeasurementPasses.Hops, hops, 8));

        Assert.Equal(RowBasis.Run, report.RowBasis);
        var row = Assert.Single(report.Methods, m => m.MethodKey == "Shop.Stock.ReserveAsync");
        Assert.Equal((FigureKind.Exact, count), (row.Calls!.Kind, row.Calls.Value));
        Assert.Equal(1, row.Bytes!.Value / (112.0 * count), 9);
        AssertAddsUp(row);
        Assert.DoesNotContain(report.Warnings, w => w.Code == "calls-disagree");
    }

    [Fact]
    public void A_launched_command_whose_passes_said_different_operation_counts_is_not_one_run_and_its_rows_stand_on_each_pass()
    {
        // An app that stops itself after three seconds: 10,000,000 orders untraced, 186,610 under the hop pass's tracing. The
        // hop pass's exact count of calls is its own run's; times the allocation pass's bytes per call, the row's bytes would
        // stand for the hop pass's run and read ~54× low over the allocation pass's operations.
        var methods = Methods();
        var allocations = BoxSamples(methods, 2_000);
        var hops = SuspendingCalls(methods, 186_610);
        var allocationPass = Pass(MeasurementPasses.Allocations, allocations, 7);
        var hopPass = Pass(MeasurementPasses.Hops, hops, 8);

        var report = Build(methods, SourceKind.Launch, StopReason.ProcessExited,
            new PassResult { Pass = allocationPass.Pass, Figures = allocationPass.Figures, ProcessId = 7, Duration = allocationPass.Duration, Operations = 10_000_000 },
            new PassResult { Pass = hopPass.Pass, Figures = hopPass.Figures, ProcessId = 8, Duration = hopPass.Duration, Operations = 186_610 });

        Assert.Equal(RowBasis.EachPass, report.RowBasis);
        var row = Assert.Single(report.Methods, m => m.MethodKey == "Shop.Stock.ReserveAsync");
        // Calls and bytes are the allocation pass's own samples; the hop pass's count stays its own.
        Assert.Equal(row.SampledCalls, row.Calls);
        Assert.Equal((FigureKind.Exact, 186_610), (row.SuspendingCalls!.Kind, row.SuspendingCalls.Value));
        // Each sample of a small object stands for about 1/p bytes of it (the sampler's p): 2,000 samples, ~195 MB.
        Assert.Equal(2_000 / KnownEvents.AllocationSamplingProbability, row.Bytes!.Value, 2_000 / KnownEvents.AllocationSamplingProbability * 0.01);
        AssertAddsUp(row);
        var warning = Assert.Single(report.Warnings, w => w.Code == "runs-differ");
        Assert.Contains("10,000,000 operations in the allocations pass, 186,610 operations in the hops pass", warning.Message, StringComparison.Ordinal);
        Assert.DoesNotContain(report.Warnings, w => w.Code == "calls-disagree");

        // The same counts in both passes: one run, as before.
        var same = Build(methods, SourceKind.Launch, StopReason.ProcessExited,
            new PassResult { Pass = allocationPass.Pass, Figures = allocationPass.Figures, ProcessId = 7, Operations = 400 },
            new PassResult { Pass = hopPass.Pass, Figures = hopPass.Figures, ProcessId = 8, Operations = 400 });
        Assert.Equal(RowBasis.Run, same.RowBasis);
        Assert.DoesNotContain(same.Warnings, w => w.Code == "runs-differ");
    }

    [Fact]
    public void Samples_that_contradict_the_runs_exact_count_beyond_their_bound_are_not_its_calls_and_are_named()
    {
        var methods = Methods();
        var allocations = BoxSamples(methods, 2_000);
        var hops = SuspendingCalls(methods, 500); // 2,000 samples of 112 B stand for ~1.8 M calls ± 4 %, not 500

        var report = Build(methods, SourceKind.Launch, StopReason.ProcessExited,
            Pass(MeasurementPasses.Allocations, allocations, 7), Pass(MeasurementPasses.Hops, hops, 8));

        var row = Assert.Single(report.Methods, m => m.MethodKey == "Shop.Stock.ReserveAsync");
        Assert.Equal((FigureKind.Exact, 500), (row.Calls!.Kind, row.Calls.Value));
        AssertAddsUp(row);
        Assert.Contains("Shop.Stock.ReserveAsync", Assert.Single(report.Warnings, w => w.Code == "calls-disagree").Message);
    }

    [Theory]
    [InlineData(SourceKind.Launch, StopReason.ProcessExited)]
    [InlineData(SourceKind.Attach, StopReason.DurationElapsed)]
    public void A_method_whose_calls_complete_synchronously_allocating_only_a_closure_has_calls_not_observable_never_zero(SourceKind source, StopReason stop)
    {
        // StockPrices' GetPositionValueAsync: no box (it never suspends) and no Task (a ValueTask), only its closure per call.
        // The hop pass counts its suspending calls, 0; the calls it made are invisible to both passes.
        var methods = new MethodCatalog();
        methods.AddMethod("Shop.Quotes+<>c__DisplayClass5_0", "<GetValueAsync>b__0", "instance int32  ()");
        var allocations = new EventReader(methods);
        var hops = new EventReader(methods);
        for (var i = 0; i < 1_000; i++)
        {
            allocations.Allocations.OnAllocationSampled("Shop.Quotes+<>c__DisplayClass5_0", 40);
        }

        var report = Build(methods, source, stop, Pass(MeasurementPasses.Allocations, allocations, 7), Pass(MeasurementPasses.Hops, hops, 8));

        var row = Assert.Single(report.Methods);
        Assert.Equal("Shop.Quotes.GetValueAsync", row.MethodKey);
        Assert.True(row.Bytes!.Value > 0);
        Assert.Null(row.Calls);
        Assert.Null(row.BytesPerCall);
    }

    [Fact]
    public void A_group_with_a_row_whose_calls_are_not_observable_neither_sums_a_partial_count_nor_divides_its_bytes_by_one()
    {
        var counted = new MethodCost
        {
            MethodKey = "System.Linq.A", DisplayName = "A", Calls = Figure.Exact(1_000, FigureSource.HopPass), SampledCalls = Estimate(1_000),
            Bytes = Estimate(112_000), BytesPerCall = Estimate(112),
        };
        var unseen = new MethodCost { MethodKey = "System.Linq.B", DisplayName = "B", Bytes = Estimate(1_800_000) };

        var group = MethodCost.Combine([counted, unseen], "[System.Linq]", "[System.Linq: 2 methods]");

        Assert.Equal(1_912_000, group.Bytes!.Value);
        Assert.Null(group.Calls);
        Assert.Null(group.BytesPerCall);
        Assert.Null(group.ObjectsPerCall);
        // Every row counted: the sum and its ratio hold.
        var both = MethodCost.Combine([counted, counted], "[System.Linq]", "[System.Linq: 2 methods]");
        Assert.Equal(2_000, both.Calls!.Value);
        Assert.Equal(112, both.BytesPerCall!.Value, 9);

        static Figure Estimate(double value) => new() { Value = value, ErrorBound = value * 0.05, Samples = 1_500, Sampled = true, Source = FigureSource.AllocationPass };
    }

    [Fact]
    public void A_stray_sample_does_not_make_a_once_called_method_big()
    {
        var methods = Methods();
        // The costly method: 3,000 box samples. RunAsync ran once: one framework Task<int> sample (RunAsync is the only
        // async method of the trace returning Task<int>), and, by chance, its own box sampled once.
        var allocations = BoxSamples(methods, 3_000);
        allocations.Allocations.OnAllocationSampled("System.Threading.Tasks.Task`1[System.Int32]", 88);
        allocations.Allocations.OnAllocationSampled("AsyncStateMachineBox`1[System.Int32,Demo.SampleMain+<RunAsync>d__0]", 104);
        var hops = SuspendingCalls(methods, 2_700_000);
        hops.Hops.OnOperationBegin(1, 1, "Async: <RunAsync>d__0", 0);

        var report = Build(methods, SourceKind.Launch, StopReason.ProcessExited,
            Pass(MeasurementPasses.Allocations, allocations, 7), Pass(MeasurementPasses.Hops, hops, 8));

        var run = Assert.Single(report.Methods, m => m.MethodKey == "Demo.SampleMain.RunAsync");
        Assert.Equal((FigureKind.Exact, 1), (run.Calls!.Kind, run.Calls.Value));
        Assert.Equal(AllocationKind.StateMachineBox, Assert.Single(run.Allocations).Kind);
        Assert.Equal(104, run.Bytes!.Value, 6); // one call's box, not a sample's weight (~100 KB)
        Assert.True(run.ShareOfAsyncBytes < 1e-5, $"share {run.ShareOfAsyncBytes}");
        var task = Assert.Single(report.UnattributedAllocations);
        Assert.Equal(["Demo.SampleMain.RunAsync"], task.CandidateMethods);
        Assert.Contains(report.Warnings, w => w.Code == "task-unattributed");
        Assert.DoesNotContain(report.Warnings, w => w.Code == "task-attribution");
    }

    [Theory]
    [InlineData(SourceKind.Launch, StopReason.ProcessExited, false, 1, 2, RowBasis.Run)]
    [InlineData(SourceKind.Launch, StopReason.DurationElapsed, false, 1, 2, RowBasis.EachPass)] // cut by --duration: part of a run
    [InlineData(SourceKind.Launch, StopReason.Canceled, false, 1, 2, RowBasis.EachPass)]
    [InlineData(SourceKind.Launch, StopReason.ProcessExited, true, 1, 2, RowBasis.EachPass)] // a pass cut short
    [InlineData(SourceKind.Attach, StopReason.DurationElapsed, false, 1, 1, RowBasis.EachPass)]
    [InlineData(SourceKind.Attach, StopReason.ProcessExited, false, 1, 1, RowBasis.EachPass)]
    [InlineData(SourceKind.TraceFile, StopReason.EndOfTrace, false, 1, 2, RowBasis.Run)] // a launched collect's traces
    [InlineData(SourceKind.TraceFile, StopReason.EndOfTrace, false, 1, 1, RowBasis.EachPass)] // an attached collect's traces
    [InlineData(SourceKind.TraceFile, StopReason.TraceTruncated, false, 1, 2, RowBasis.EachPass)]
    public void The_basis_is_one_run_only_when_every_pass_ran_the_command_whole(SourceKind source, StopReason stop, bool cutShort, int firstProcess, int secondProcess, RowBasis basis)
    {
        var passes = new[]
        {
            new PassResult { Pass = MeasurementPasses.Allocations, Figures = new PassFigures(), ProcessId = firstProcess },
            new PassResult { Pass = MeasurementPasses.Hops, Figures = new PassFigures(), ProcessId = secondProcess, CutShort = cutShort },
        };

        Assert.Equal(basis, RowCombination.BasisOf(source, passes, stop));
    }

    [Theory]
    [InlineData("System.Threading.Tasks.Task`1[System.Int32]", true)]
    [InlineData("System.Threading.Tasks.Task`1[System.Boolean]", true)]
    [InlineData("System.Threading.Tasks.Task`1[System.String]", true)]
    [InlineData("System.Threading.Tasks.Task`1[System.Byte[]]", true)]
    [InlineData("System.Threading.Tasks.Task`1[System.Net.Http.HttpResponseMessage]", true)]
    [InlineData("System.Threading.Tasks.Task`1[System.Decimal]", false)]
    [InlineData("System.Threading.Tasks.Task`1[System.Guid]", false)]
    [InlineData("System.Threading.Tasks.Task`1[Shop.Order]", false)]
    [InlineData("System.Threading.Tasks.Task`1[System.Collections.Generic.List`1[Shop.Order]]", true)]
    public void A_Task_of_a_type_the_frameworks_own_methods_return_is_framework_shaped(string typeName, bool frameworkShaped)
        => Assert.Equal(frameworkShaped, AllocationClassifier.IsFrameworkShapedTask(typeName));
}
