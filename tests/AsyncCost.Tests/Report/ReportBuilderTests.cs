using AsyncCost.Attribution;
using AsyncCost.Computers;
using AsyncCost.Events;
using AsyncCost.Findings;
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
    public void A_framework_methods_hops_known_by_short_name_alone_are_named_from_the_framework_assembly_in_process()
    {
        // In process there are no method events, and a hop window's report may have no allocation naming the method.
        var stateMachine = typeof(Stream).Assembly.GetTypes().First(t => t.IsNested && !t.IsGenericType
            && typeof(System.Runtime.CompilerServices.IAsyncStateMachine).IsAssignableFrom(t) && t.Name.Contains(">d__", StringComparison.Ordinal));
        var methods = new MethodCatalog();
        methods.AddModule(typeof(Stream).Assembly.Location); // a user module only: ignored
        var hops = new EventReader(methods);
        hops.Hops.OnOperationBegin(1, 10, "Async: " + stateMachine.Name, 0);
        var unnamed = Build(methods, new PassResult { Pass = MeasurementPasses.Hops, Figures = PassFigures.Of(hops) });

        methods.AddFrameworkModule(typeof(Stream).Assembly.Location);
        var named = Build(methods, new PassResult { Pass = MeasurementPasses.Hops, Figures = PassFigures.Of(hops) });

        Assert.Equal(AsyncMethodName.UnknownType + "." + stateMachine.Name[1..stateMachine.Name.IndexOf('>', StringComparison.Ordinal)], Assert.Single(unnamed.Methods).MethodKey);
        Assert.Equal(AsyncMethodName.Parse(stateMachine.FullName!)!.MethodKey, Assert.Single(named.Methods).MethodKey);
    }

    [Fact]
    public void A_class_state_machine_named_alone_is_charged_to_its_method_and_an_async_iterator_has_one_call_per_suspending_MoveNextAsync()
    {
        var methods = new MethodCatalog();
        // The trace's method rundown: the iterator's state machine implements IAsyncEnumerator<int>.MoveNextAsync.
        methods.AddMethod("Shop.Feed+<StreamAsync>d__2", "System.Collections.Generic.IAsyncEnumerator<System.Int32>.MoveNextAsync", "instance value class System.Threading.Tasks.ValueTask`1<bool>  ()");
        methods.AddMethod("Shop.Feed+<StreamAsync>d__2", "MoveNext", "instance void  ()");
        methods.AddMethod("Shop.Feed+<LoadAsync>d__3", "MoveNext", "instance void  ()");
        var allocations = new EventReader(methods);
        // Per enumeration: the enumerator (its class state machine, named alone) and one box. Per Debug call: a class state
        // machine and a box. Sample counts in proportion to bytes, as the sampler draws them.
        for (var i = 0; i < 1_300; i++)
        {
            allocations.Allocations.OnAllocationSampled("<StreamAsync>d__2", 104);
        }
        for (var i = 0; i < 1_000; i++)
        {
            allocations.Allocations.OnAllocationSampled("AsyncStateMachineBox`1[System.Threading.Tasks.VoidTaskResult,Shop.Feed+<StreamAsync>d__2]", 80);
            allocations.Allocations.OnAllocationSampled("AsyncStateMachineBox`1[System.Int32,Shop.Feed+<LoadAsync>d__3]", 80);
        }
        for (var i = 0; i < 500; i++)
        {
            allocations.Allocations.OnAllocationSampled("<LoadAsync>d__3", 40);
        }
        // The hop pass: two enumerations of four items, each item's MoveNextAsync suspending once.
        var hops = new EventReader(methods);
        hops.Hops.OnOperationBegin(1, 10, "Async: <StreamAsync>d__2", 0);
        hops.Hops.OnOperationBegin(1, 20, "Async: <StreamAsync>d__2", 0);
        hops.Hops.OnSynchronousWorkBegin(1, 99, work: 2, timestampMs: 0);
        for (var call = 0; call < 6; call++)
        {
            hops.Hops.OnWaitBegin(1, 1_000 + call, call % 2 == 0 ? 10 : 20, behavior: 2, timestampMs: 0);
        }

        var report = Build(methods,
            new PassResult { Pass = MeasurementPasses.Allocations, Figures = PassFigures.Of(allocations) },
            new PassResult { Pass = MeasurementPasses.Hops, Figures = PassFigures.Of(hops) });

        Assert.Empty(report.UnattributedAllocations);
        var iterator = Assert.Single(report.Methods, m => m.MethodKey == "Shop.Feed.StreamAsync");
        Assert.Equal([AllocationKind.StateMachine, AllocationKind.StateMachineBox], iterator.Allocations.Select(a => a.Kind));
        Assert.Equal(8, iterator.SuspendingCalls!.Value);
        // Bytes per call is bytes per suspending MoveNextAsync: the allocation pass's enumerations times the hop pass's calls per enumeration.
        Assert.Equal((104 + 80) / 4.0, iterator.BytesPerCall!.Value, 1);
        var debug = Assert.Single(report.Methods, m => m.MethodKey == "Shop.Feed.LoadAsync");
        Assert.Equal(40 + 80, debug.BytesPerCall!.Value, 0);
    }

    [Fact]
    public void A_closure_is_charged_to_the_member_that_allocates_it_not_to_its_async_local_function()
    {
        var modules = new MethodCatalog();
        var allocations = new EventReader(modules);
        // The AC0009 shape: GetValueAsync (member ordinal 5) is not async; its async local function's state machine and the
        // closure's own method carry the ordinal. SumAsync (ordinal 7) is known only from a method on its closure.
        modules.AddMethod("Shop.Service+<<GetValueAsync>g__AwaitAsync|5_0>d", "MoveNext", "instance void  ()");
        modules.AddMethod("Shop.Service+<>c__DisplayClass7_0", "<SumAsync>b__0", "instance int32  (int32)");
        for (var i = 0; i < 100; i++)
        {
            allocations.Allocations.OnAllocationSampled("Shop.Service+<>c__DisplayClass5_0", 32);
            allocations.Allocations.OnAllocationSampled("Shop.Service+<>c__DisplayClass7_0", 24);
        }

        var report = Build(modules, new PassResult { Pass = MeasurementPasses.Allocations, Figures = PassFigures.Of(allocations) });

        Assert.Equal(["Shop.Service.GetValueAsync", "Shop.Service.SumAsync"], report.Methods.Select(m => m.MethodKey));
        Assert.All(report.Methods, m => Assert.Equal(AllocationKind.Closure, Assert.Single(m.Allocations).Kind));
        Assert.Equal(["Shop.Service.GetValueAsync", "Shop.Service.GetValueAsync.AwaitAsync", "Shop.Service.SumAsync"], report.MethodsThatRan);
    }

    [Fact]
    public void A_closure_printed_by_its_nested_name_alone_is_charged_to_the_member_its_methods_name()
    {
        var modules = new MethodCatalog();
        var allocations = new EventReader(modules);
        // AllocationSampled prints a nested type by its own name; the closure's method (here a lambda's) says whose it is.
        modules.AddMethod("Shop.Quotes+<>c__DisplayClass5_0", "<GetValueAsync>b__0", "instance int32  ()");
        modules.AddMethod("Shop.Other+<>c__DisplayClass2_0", "<RunAsync>b__0", "instance void  ()");
        modules.AddMethod("Shop.Third+<>c__DisplayClass2_0", "<StopAsync>b__0", "instance void  ()"); // two closures so named: no owner
        for (var i = 0; i < 100; i++)
        {
            allocations.Allocations.OnAllocationSampled("<>c__DisplayClass5_0", 40);
            allocations.Allocations.OnAllocationSampled("<>c__DisplayClass2_0", 40);
        }

        var report = Build(modules, new PassResult { Pass = MeasurementPasses.Allocations, Figures = PassFigures.Of(allocations) });

        var owner = Assert.Single(report.Methods);
        Assert.Equal("Shop.Quotes.GetValueAsync", owner.MethodKey);
        Assert.Equal(AllocationKind.Closure, Assert.Single(owner.Allocations).Kind);
        Assert.Equal("<>c__DisplayClass2_0", Assert.Single(report.UnattributedAllocations).TypeName);
    }

    [Fact]
    public void Rows_name_their_assembly_from_the_module_events_and_put_the_applications_own_first()
    {
        var modules = new MethodCatalog();
        var allocations = new EventReader(modules);
        // Module and method events as the rundown writes them: the framework's from the shared framework directory.
        modules.AddModule("/usr/share/dotnet/shared/Microsoft.AspNetCore.App/10.0.0/Microsoft.AspNetCore.Server.Kestrel.Core.dll", moduleId: 7);
        modules.AddModule("/srv/shop/Shop.dll", moduleId: 9);
        modules.AddModule("/srv/shop/Microsoft.Extensions.Caching.Memory.dll", moduleId: 11);
        modules.AddMethod("Microsoft.AspNetCore.Server.Kestrel.Core.Internal.Http.HttpProtocol+<ProcessRequests>d__238`1", "MoveNext", "instance void  ()", moduleId: 7);
        modules.AddMethod("Shop.Prices+<GetPriceAsync>d__2", "MoveNext", "instance void  ()", moduleId: 9);
        modules.AddMethod("Microsoft.Extensions.Caching.Memory.CacheEntry+<RefreshAsync>d__4", "MoveNext", "instance void  ()", moduleId: 11);
        for (var i = 0; i < 100; i++)
        {
            // The framework's methods allocate more: they still come after the application's.
            allocations.Allocations.OnAllocationSampled("AsyncStateMachineBox`1[System.Threading.Tasks.VoidTaskResult,Microsoft.AspNetCore.Server.Kestrel.Core.Internal.Http.HttpProtocol+<ProcessRequests>d__238`1[System.Object]]", 400);
            allocations.Allocations.OnAllocationSampled("AsyncStateMachineBox`1[System.Threading.Tasks.VoidTaskResult,Microsoft.Extensions.Caching.Memory.CacheEntry+<RefreshAsync>d__4]", 300);
            allocations.Allocations.OnAllocationSampled("AsyncStateMachineBox`1[System.Decimal,Shop.Prices+<GetPriceAsync>d__2]", 112);
            allocations.Allocations.OnAllocationSampled("AsyncStateMachineBox`1[System.Int32,Other.Unknown+<RunAsync>d__1]", 100); // no method events: the namespace decides
            allocations.Allocations.OnAllocationSampled("AsyncStateMachineBox`1[System.Int32,System.Net.Http.HttpConnection+<SendAsync>d__1]", 100);
        }

        var report = Build(modules, new PassResult { Pass = MeasurementPasses.Allocations, Figures = PassFigures.Of(allocations) });

        Assert.Equal(
            [
                ("Shop.Prices.GetPriceAsync", "Shop", MethodOrigin.User),
                ("Other.Unknown.RunAsync", null, MethodOrigin.User),
                ("Microsoft.AspNetCore.Server.Kestrel.Core.Internal.Http.HttpProtocol.ProcessRequests", "Microsoft.AspNetCore.Server.Kestrel.Core", MethodOrigin.Framework),
                ("Microsoft.Extensions.Caching.Memory.CacheEntry.RefreshAsync", "Microsoft.Extensions.Caching.Memory", MethodOrigin.Framework),
                ("System.Net.Http.HttpConnection.SendAsync", null, MethodOrigin.Framework),
            ],
            report.Methods.Select(m => (m.MethodKey, m.Assembly, m.Origin)));
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
    public void Calls_are_the_hop_pass_exact_count_where_it_saw_every_call_and_an_estimate_with_a_wide_bound_from_few_samples()
    {
        var (modules, allocations, hops) = Readers();
        // Four box samples: each stands for ~1,000 calls of a 96-byte box, so the estimate is ~4,300 calls ± ~98 %.
        for (var i = 0; i < 4; i++)
        {
            allocations.Allocations.OnAllocationSampled("AsyncStateMachineBox`1[System.Int32,AsyncCost.Workload.Scenarios+<YieldOnceAsync>d__0]", 96);
        }
        for (var call = 0; call < 4_344; call++)
        {
            hops.Hops.OnOperationBegin(1, call + 1, "Async: <YieldOnceAsync>d__0", 0);
        }
        // Two processes, each a whole run (a launched command runs once per pass): the hop pass counted the run's calls.
        var allocationPass = new PassResult { Pass = MeasurementPasses.Allocations, Figures = PassFigures.Of(allocations), ProcessId = 100 };

        var sampledOnly = Assert.Single(Build(modules, allocationPass).Methods);
        var report = Build(modules, allocationPass, new PassResult { Pass = MeasurementPasses.Hops, Figures = PassFigures.Of(hops), ProcessId = 101 });
        Assert.Equal(RowBasis.Run, report.RowBasis);
        var counted = Assert.Single(report.Methods);

        Assert.Equal(FigureKind.Estimate, sampledOnly.Calls!.Kind);
        Assert.InRange(sampledOnly.Calls.RelativeError, 0.9, 1.1); // 1.96 / √4
        Assert.Equal((FigureKind.Exact, 4_344, 0), (counted.Calls!.Kind, counted.Calls.Value, counted.Calls.ErrorBound));
        Assert.Equal(FigureSource.HopPass, counted.Calls.Source);
        // Bytes per call stay the allocation pass's: boxes of one size, so its ratio has no sampling error at all.
        Assert.Equal(sampledOnly.SampledCalls, counted.SampledCalls);
        Assert.Equal((96, 0), (counted.BytesPerCall!.Value, counted.BytesPerCall.ErrorBound));
        Assert.Equal(FigureKind.Estimate, counted.BytesPerCall.Kind);
        // The row adds up: its bytes are bytes per call times the counted calls.
        Assert.Equal(1, counted.Bytes!.Value / (96 * 4_344), 9);
        Assert.Equal(1, counted.Bytes.Value / (counted.Calls.Value * counted.BytesPerCall.Value), 9);
    }

    [Fact]
    public void Calls_stay_an_estimate_when_some_completed_synchronously_which_the_hop_pass_cannot_count()
    {
        var (modules, allocations, hops) = Readers();
        allocations.Allocations.OnAllocationSampled("AsyncStateMachineBox`1[System.Decimal,AsyncCost.Workload.PriceService+<GetPriceTaskAsync>d__2]", 112);
        allocations.Allocations.OnAllocationSampled("System.Threading.Tasks.Task`1[System.Decimal]", 80);
        hops.Hops.OnOperationBegin(1, 1, "Async: <GetPriceTaskAsync>d__2", 0);

        var report = Build(modules,
            new PassResult { Pass = MeasurementPasses.Allocations, Figures = PassFigures.Of(allocations) },
            new PassResult { Pass = MeasurementPasses.Hops, Figures = PassFigures.Of(hops) });

        var price = Assert.Single(report.Methods, m => m.MethodKey == "AsyncCost.Workload.PriceService.GetPriceTaskAsync");
        Assert.Equal(FigureKind.Estimate, price.Calls!.Kind);
        Assert.Equal(price.SampledCalls, price.Calls);
        Assert.Equal(FigureKind.Exact, price.SuspendingCalls!.Kind);
        // Two sizes per call (box or task): the ratio has an error of its own, but far under either figure's.
        Assert.InRange(price.BytesPerCall!.RelativeError, 1e-9, price.Bytes!.RelativeError);
    }

    [Fact]
    public void Joins_hop_pass_short_names_to_full_names_and_keeps_each_figures_pass()
    {
        var (modules, allocations, hops) = Readers();
        allocations.Allocations.OnAllocationSampled("AsyncStateMachineBox`1[System.Int32,AsyncCost.Workload.Scenarios+<YieldOnceAsync>d__0]", 96);
        hops.Hops.OnOperationBegin(1, 10, "Async: <YieldOnceAsync>d__0", 0);
        hops.Hops.OnContinuationScheduled(1, 11, timestampMs: 0);
        hops.Hops.OnWorkItemDequeued(2, timestampMs: 0);
        hops.Hops.OnContinuationStarted(2, 11, timestampMs: 0);
        hops.Hops.OnOperationBegin(1, 20, "Async: <HandoffAsync>d__1", 0); // only in the hop pass: resolved through metadata

        var report = Build(modules,
            new PassResult { Pass = MeasurementPasses.Allocations, Figures = PassFigures.Of(allocations) },
            new PassResult { Pass = MeasurementPasses.Hops, Figures = PassFigures.Of(hops) });

        var yield = Assert.Single(report.Methods, m => m.MethodKey == "AsyncCost.Workload.Scenarios.YieldOnceAsync");
        Assert.Equal(FigureSource.AllocationPass, yield.Bytes!.Source);
        Assert.Equal(FigureSource.HopPass, yield.Hops!.Source);
        Assert.Equal(1, yield.Hops.Value);
        Assert.Equal(1, yield.HopsPerCall!.Value);
        var handoff = Assert.Single(report.Methods, m => m.MethodKey == "AsyncCost.Workload.Scenarios.HandoffAsync");
        Assert.Null(handoff.Bytes);
        Assert.Equal(0, handoff.Hops!.Value);
        Assert.Equal(1, report.Totals.Hops!.Value);
    }

    [Fact]
    public void Allocations_from_a_trace_with_TPL_events_are_marked_as_such()
    {
        var (modules, _, hops) = Readers();
        hops.Hops.OnOperationBegin(1, 10, "Async: <YieldOnceAsync>d__0", 0);
        hops.Allocations.OnAllocationSampled("AsyncStateMachineBox`1[System.Int32,AsyncCost.Workload.Scenarios+<YieldOnceAsync>d__0]", 96);
        typeof(EventReader).GetProperty(nameof(EventReader.SawTplEvents))!.SetValue(hops, true);

        var report = Build(modules, new PassResult { Pass = MeasurementPasses.Hops, Figures = PassFigures.Of(hops) });

        Assert.Contains(report.Warnings, w => w.Code == "tpl-observer-effect");
        Assert.Equal(FigureSource.HopPass, Assert.Single(report.Methods).Bytes!.Source);
    }

    /// <summary>One hop window's stream: <paramref name="workItems"/> dequeued, the first <paramref name="hopping"/> of them a Task.Yield hop.</summary>
    private static EventReader YieldWindow(MethodCatalog modules, int workItems, int hopping)
    {
        var window = new EventReader(modules);
        for (var item = 1; item <= workItems; item++)
        {
            if (item <= hopping)
            {
                window.Hops.OnOperationBegin(1, 2 * item, "Async: <YieldOnceAsync>d__0", 0);
                window.Hops.OnContinuationScheduled(1, (2 * item) + 1, timestampMs: 0);
            }
            window.Hops.OnWorkItemDequeued(2, timestampMs: 0);
            if (item <= hopping)
            {
                window.Hops.OnContinuationStarted(2, (2 * item) + 1, timestampMs: 0);
            }
        }
        return window;
    }

    /// <summary>The report of a windowed hop pass: its windows, its time between them, and the work items its counters saw.</summary>
    private static AsyncCostReport BuildWindowed(MethodCatalog modules, EventReader[] windows, TimeSpan recorded, TimeSpan unrecorded, params double[] increments)
    {
        var figures = new PassFigures();
        foreach (var window in windows)
        {
            figures.Add(window);
        }
        var counters = new CounterComputer();
        foreach (var increment in increments)
        {
            counters.OnCounter("threadpool-completed-items-count", increment);
        }
        return Build(modules, new PassResult
        {
            Pass = MeasurementPasses.Hops, Figures = figures, Duration = recorded, Unrecorded = unrecorded, WindowedPassCounters = counters,
        });
    }

    [Fact]
    public void A_windowed_hop_pass_scales_its_counts_by_the_thread_pools_work_items()
    {
        var (modules, _, _) = Readers();
        // Two windows, 100 and 300 work items, every one a Task.Yield hop: one hop per work item in both. The counters over
        // the whole pass: the windows' 400 work items and 8 s at 1,000 per second between them.
        var report = BuildWindowed(modules,
            [YieldWindow(modules, workItems: 100, hopping: 100), YieldWindow(modules, workItems: 300, hopping: 300)],
            TimeSpan.FromSeconds(2), TimeSpan.FromSeconds(8), [400, .. Enumerable.Repeat(1_000.0, 8)]);

        var row = Assert.Single(report.Methods, m => m.MethodKey == "AsyncCost.Workload.Scenarios.YieldOnceAsync");
        // The counter's last 0.1 s of the 10 s pass went unreported: half of it (42 work items) is added, half is in the bound.
        const double total = 8_400 + 42;
        Assert.True(row.Hops!.Sampled);
        Assert.Equal(total, row.Hops.Value, 6);
        Assert.Equal(row.Hops.Value, row.SuspendingCalls!.Value, 6);
        Assert.Equal(1, row.HopsPerCall!.Value, 6);
        // The windows agree exactly (one hop per work item), so only the Poisson error of the 400 hops counted remains.
        Assert.Equal((1.96 * Math.Sqrt(400) * total / 400) + 42, row.Hops.ErrorBound, 6);
        Assert.Contains(report.Warnings, w => w.Code == "hop-windows");
    }

    [Fact]
    public void Windows_that_disagree_widen_the_bound()
    {
        var (modules, _, _) = Readers();
        // 100 work items per window; the method hops 10 times in one window and 90 in the other.
        var report = BuildWindowed(modules,
            [YieldWindow(modules, workItems: 100, hopping: 10), YieldWindow(modules, workItems: 100, hopping: 90)],
            TimeSpan.FromSeconds(2), TimeSpan.FromSeconds(1), 2_000);

        var hops = Assert.Single(report.Methods, m => m.MethodKey == "AsyncCost.Workload.Scenarios.YieldOnceAsync").Hops!;
        const double lastInterval = 2_000 * 0.1 / 3, total = 2_000 + (lastInterval / 2);
        Assert.Equal(0.5 * total, hops.Value, 6);
        // Ratio estimator: R = 0.5, residuals (10 − 50)² + (90 − 50)² = 3,200; var(R) = 3,200 / (2 × 1 × 100²) = 0.16.
        Assert.Equal((1.96 * 0.4 * total) + (0.5 * lastInterval / 2), hops.ErrorBound, 6);
    }

    /// <summary>One window of <paramref name="workItems"/> work items in which YieldOnceAsync hops once, then blocks one thread
    /// for 400 ms and completes 450 ms after its first suspension: a time per window that one thread bounds.</summary>
    private static EventReader BlockingWindow(MethodCatalog modules, int workItems)
    {
        var window = new EventReader(modules);
        window.Hops.OnOperationBegin(1, 1, "Async: <YieldOnceAsync>d__0", 0);
        window.Hops.OnContinuationScheduled(1, 2, timestampMs: 0);
        window.Hops.OnWorkItemDequeued(2, timestampMs: 0);
        window.Hops.OnContinuationStarted(2, 2, timestampMs: 0);
        window.Hops.OnWaitBegin(2, 10, 0, behavior: 1, timestampMs: 10);
        window.Hops.OnWaitEnd(2, 10, timestampMs: 410);
        window.Hops.OnOperationEnd(1, timestampMs: 450);
        for (var item = 1; item < workItems; item++)
        {
            window.Hops.OnWorkItemDequeued(3, timestampMs: 0);
        }
        return window;
    }

    [Fact]
    public void A_windowed_pass_whose_windows_ran_ten_times_slower_scales_its_times_by_seconds_never_beyond_the_blocking_thread()
    {
        var (modules, _, _) = Readers();
        // Two 0.5 s windows of 100 work items (200/s), 9 s between them at 2,000/s: tracing made the process 10× slower. One
        // thread blocked 400 ms of each window: 0.8 threads blocked on average. Scaled by work items (×91), the pass would have
        // blocked 72.8 s in its 10 s, 7.3 threads' worth from one thread; per second of window × 10 s, it blocked 8 s.
        var report = BuildWindowed(modules, [BlockingWindow(modules, 100), BlockingWindow(modules, 100)],
            TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(9), [200, .. Enumerable.Repeat(2_000.0, 9)]);

        var row = Assert.Single(report.Methods, m => m.MethodKey == "AsyncCost.Workload.Scenarios.YieldOnceAsync");
        Assert.Equal(8_000, row.BlockedMilliseconds!.Value, 6);
        Assert.True(row.BlockedMilliseconds.Value / 10_000 <= 1, "blocked seconds per second beyond the one thread that blocked");
        // The bound is the compound Poisson one of the two 400 ms waits, scaled alike: 1.96 √(2 × 400²) × 10.
        Assert.Equal(1.96 * Math.Sqrt(2 * 400.0 * 400.0) * 10, row.BlockedMilliseconds.ErrorBound, 6);
        // Its calls are counted by work items, their elapsed time by seconds: one call in flight 90 % of each window stands
        // for 0.9 calls in flight over the pass, and the calls × the pass's mean per call is that same time.
        Assert.Equal(9_000, row.ElapsedMilliseconds!.Value, 6);
        Assert.Equal(row.ElapsedMilliseconds.Value, row.SuspendingCalls!.Value * row.ElapsedPerCallMilliseconds!.Value, 6);
        Assert.True(row.SuspendingCalls.Value > 180, "calls are scaled by work items, as before");

        // The finding's time per second of recording: what one blocking thread can hold at most, and no more.
        var blocked = FindingTimes.Of(new AnalyzerFinding("AC0006", "warning", "AC0006", "/src/App.cs", 1, 1, row.MethodKey, FindingCostKind.Blocking), row, [], report);
        Assert.Equal(TimeUnit.SecondOfRecording, blocked.Per);
        Assert.Equal(800, blocked.Milliseconds!.Value, 6);
    }

    [Fact]
    public void A_continuous_pass_keeps_its_times_exact_and_windows_no_slower_than_the_pass_keep_scaling_by_work_items()
    {
        var (modules, _, _) = Readers();
        var continuous = Build(modules, new PassResult { Pass = MeasurementPasses.Hops, Figures = PassFigures.Of(BlockingWindow(modules, 100)), Duration = TimeSpan.FromSeconds(1) });
        var row = Assert.Single(continuous.Methods, m => m.MethodKey == "AsyncCost.Workload.Scenarios.YieldOnceAsync");
        Assert.Equal((400.0, 0.0, false), (row.BlockedMilliseconds!.Value, row.BlockedMilliseconds.ErrorBound, row.BlockedMilliseconds.Sampled));
        Assert.Equal((450.0, 450.0), (row.ElapsedPerCallMilliseconds!.Value, row.ElapsedMilliseconds!.Value));

        // Windows busier than the pass (1,000 work items/s in them, 100/s between) caught more load, not a faster process:
        // their time per work item stands, scaled like the counts.
        var busy = BuildWindowed(modules, [BlockingWindow(modules, 500), BlockingWindow(modules, 500)],
            TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(9), [1_000, .. Enumerable.Repeat(100.0, 9)]);
        var scaled = Assert.Single(busy.Methods, m => m.MethodKey == "AsyncCost.Workload.Scenarios.YieldOnceAsync");
        var factor = scaled.SuspendingCalls!.Value / 2;
        Assert.Equal(800 * factor, scaled.BlockedMilliseconds!.Value, 6);
        Assert.Equal(450, scaled.ElapsedPerCallMilliseconds!.Value, 6);
    }

    [Theory]
    [InlineData(3.0, false)] // the counters cover all of the 3 s recorded: their work items stand
    [InlineData(1.0, true)] // a process that exited 1 s after its last payload: those counters are low
    public void Counters_that_stop_before_the_recording_ends_are_said_to_be_low_and_a_complete_hop_pass_counts_the_work_items(double coveredSeconds, bool partial)
    {
        var (modules, _, _) = Readers();
        var hops = YieldWindow(modules, workItems: 300, hopping: 300);
        for (var second = 0; second < coveredSeconds; second++)
        {
            hops.Counters.OnCounter("threadpool-completed-items-count", 100, intervalSeconds: 1);
        }

        var report = Build(modules, new PassResult { Pass = MeasurementPasses.Hops, Figures = PassFigures.Of(hops), Duration = TimeSpan.FromSeconds(3) });

        Assert.Equal(partial ? 300 : 100 * coveredSeconds, report.Totals.CompletedWorkItems!.Value);
        Assert.Equal(partial, report.Warnings.Any(w => w.Code == "counters-partial"));
    }
}
