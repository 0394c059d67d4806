using AsyncCost.Attribution;
using AsyncCost.Events;
using AsyncCost.Report;
using AsyncCost.Tests.Support;

namespace AsyncCost.Tests.Report;

/// <summary>Attribution and merging, fed with synthetic events (and the workload's real metadata for Task&lt;T&gt; owners).</summary>
public class ReportBuilderTests
{
    private static readonly ReportSource Source = new() { Kind = SourceKind.TraceFile };

    private static (MethodCatalog Methods, EventReader Allocations, EventReader Hops) Readers()
    {
        var modules = new MethodCatalog();
        modules.AddModule(WorkloadProcess.DllPath);
        return (modules, new EventReader(modules), new EventReader(modules));
    }

    private static AsyncCostReport Build(MethodCatalog modules, params PassResult[] passes)
        => new ReportBuilder(modules).Build(Source, passes, [], StopReason.EndOfTrace, cutShort: false, []);

    [Fact]
    public void Charges_boxes_closures_and_tasks_to_their_methods()
    {
        var (modules, allocations, _) = Readers();
        // Sample counts in proportion to bytes, as the sampler draws them: per call one 112 B box and one 32 B closure.
        for (var i = 0; i < 1_400; i++)
        {
            allocations.Allocations.OnAllocationSampled("AsyncStateMachineBox`1[System.Int32,Ns.Service+<GetAsync>d__3]", 112);
            allocations.Allocations.OnAllocationSampled("System.Threading.Tasks.Task`1[System.Decimal]", 80);
        }
        for (var i = 0; i < 400; i++)
        {
            allocations.Allocations.OnAllocationSampled("Ns.Service+<>c__DisplayClass3_0", 32);
        }
        allocations.Allocations.OnAllocationSampled("System.String", 40);

        var report = Build(modules, new PassResult { Pass = MeasurementPasses.Allocations, Figures = PassFigures.Of(allocations) });

        var service = Assert.Single(report.Methods, m => m.MethodKey == "Ns.Service.GetAsync");
        Assert.Equal([AllocationKind.StateMachineBox, AllocationKind.Closure], service.Allocations.Select(a => a.Kind));
        Assert.Equal(FigureSource.AllocationPass, service.Bytes!.Source);
        Assert.Equal(1_800, service.Bytes.Samples);
        // Calls come from the boxes only (closures are not calls): bytes per call = box + closure.
        Assert.Equal(112 + 32, service.BytesPerCall!.Value, 0);
        var price = Assert.Single(report.Methods, m => m.MethodKey == "AsyncCost.Workload.PriceService.GetPriceTaskAsync");
        Assert.Equal(AllocationKind.Task, Assert.Single(price.Allocations).Kind);
        Assert.Contains(report.Warnings, w => w.Code == "task-attribution");
        Assert.Equal("System.String", Assert.Single(report.UnattributedAllocations).TypeName);
        Assert.Equal(1.0, report.Methods.Sum(m => m.ShareOfAsyncBytes ?? 0), 6);
        Assert.Null(service.Hops); // no hop pass ran
    }

    [Fact]
    public void A_method_its_async_local_function_and_its_async_lambdas_are_rows_of_their_own()
    {
        var (modules, allocations, _) = Readers();
        // The boxes of one member's state machines, as the compiler names them (see the analyzer's LambdaOrdinalTests).
        allocations.Allocations.OnAllocationSampled("AsyncStateMachineBox`1[System.Int32,Shop.Feed+<RunAsync>d__2]", 112);
        allocations.Allocations.OnAllocationSampled("AsyncStateMachineBox`1[System.Int32,Shop.Feed+<<RunAsync>g__PollAsync|2_0>d]", 104);
        allocations.Allocations.OnAllocationSampled("AsyncStateMachineBox`1[System.Threading.Tasks.VoidTaskResult,Shop.Feed+<>c+<<RunAsync>b__2_1>d]", 96);
        allocations.Allocations.OnAllocationSampled("AsyncStateMachineBox`1[System.Threading.Tasks.VoidTaskResult,Shop.Feed+<>c__DisplayClass2_0+<<RunAsync>b__2>d]", 96);

        var report = Build(modules, new PassResult { Pass = MeasurementPasses.Allocations, Figures = PassFigures.Of(allocations) });

        Assert.Equal(
            ["Shop.Feed.RunAsync", "Shop.Feed.RunAsync.PollAsync", "Shop.Feed.RunAsync.lambda#1", "Shop.Feed.RunAsync.lambda#2"],
            report.Methods.Select(m => m.MethodKey).Order(StringComparer.Ordinal));
        Assert.Equal(report.Methods.Select(m => m.MethodKey), report.Methods.Select(m => m.DisplayName));
    }

    [Fact]
    public void Joins_hop_pass_short_names_to_full_names_and_keeps_each_figures_pass()
    {
        var (modules, allocations, hops) = Readers();
        allocations.Allocations.OnAllocationSampled("AsyncStateMachineBox`1[System.Int32,AsyncCost.Workload.Scenarios+<YieldOnceAsync>d__0]", 96);
        hops.Hops.OnOperationBegin(1, 10, "Async: <YieldOnceAsync>d__0");
        hops.Hops.OnContinuationScheduled(1, 11);
        hops.Hops.OnWorkItemDequeued(2);
        hops.Hops.OnContinuationStarted(2, 11);
        hops.Hops.OnOperationBegin(1, 20, "Async: <HandoffAsync>d__1"); // only in the hop pass: resolved through metadata

        var report = Build(modules,
            new PassResult { Pass = MeasurementPasses.Allocations, Figures = PassFigures.Of(allocations) },
            new PassResult { Pass = MeasurementPasses.Hops, Figures = PassFigures.Of(hops) });

        var yield = Assert.Single(report.Methods, m => m.MethodKey == "AsyncCost.Workload.Scenarios.YieldOnceAsync");
        Assert.Equal(FigureSource.AllocationPass, yield.Bytes!.Source);
        Assert.Equal(FigureSource.HopPass, yield.Hops!.Source);
        Assert.Equal(1, yield.Hops.Value);
        Assert.Equal(1, yield.HopsPerCall);
        var handoff = Assert.Single(report.Methods, m => m.MethodKey == "AsyncCost.Workload.Scenarios.HandoffAsync");
        Assert.Null(handoff.Bytes);
        Assert.Equal(0, handoff.Hops!.Value);
        Assert.Equal(1, report.Totals.Hops!.Value);
    }

    [Fact]
    public void Allocations_from_a_trace_with_TPL_events_are_marked_as_such()
    {
        var (modules, _, hops) = Readers();
        hops.Hops.OnOperationBegin(1, 10, "Async: <YieldOnceAsync>d__0");
        hops.Allocations.OnAllocationSampled("AsyncStateMachineBox`1[System.Int32,AsyncCost.Workload.Scenarios+<YieldOnceAsync>d__0]", 96);
        typeof(EventReader).GetProperty(nameof(EventReader.SawTplEvents))!.SetValue(hops, true);

        var report = Build(modules, new PassResult { Pass = MeasurementPasses.Hops, Figures = PassFigures.Of(hops) });

        Assert.Contains(report.Warnings, w => w.Code == "tpl-observer-effect");
        Assert.Equal(FigureSource.HopPass, Assert.Single(report.Methods).Bytes!.Source);
    }
}
