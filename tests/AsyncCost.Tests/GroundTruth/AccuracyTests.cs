using AsyncCost.Report;
using AsyncCost.Sessions;
using AsyncCost.Tests.Support;

namespace AsyncCost.Tests.GroundTruth;

/// <summary>
/// Traces the workload as the CLI would (launched suspended, one child per pass) and checks every row against what the
/// same code measured about itself in-process (AsyncCostScope: GC.GetTotalAllocatedBytes(precise), completed work items, getrusage).
/// </summary>
[Collection(nameof(ChildProcesses))]
public class AccuracyTests
{
    private const string TaskMethod = "AsyncCost.Workload.PriceService.GetPriceTaskAsync";
    private const string ValueTaskMethod = "AsyncCost.Workload.PriceService.GetPriceValueTaskAsync";
    private const string YieldMethod = "AsyncCost.Workload.Scenarios.YieldOnceAsync";
    private const string HandoffMethod = "AsyncCost.Workload.Scenarios.HandoffAsync";
    private const string BlockingMethod = "AsyncCost.Workload.Scenarios.BlockingAsync";
    private const string IteratorMethod = "AsyncCost.Workload.Scenarios.CountAsync";
    private const string DriverMethod = "AsyncCost.Workload.Scenarios.DriveYieldsAsync";
    private const string DelayMethod = "AsyncCost.Workload.Scenarios.DelayOnceAsync";
    private const string ComputeThenYieldMethod = "AsyncCost.Workload.Scenarios.ComputeThenYieldAsync";
    private const string ComputeMethod = "AsyncCost.Workload.Scenarios.ComputeAsync";

    /// <summary>What each ComputeAsync call computes (the workload's Scenarios.ComputeMilliseconds).</summary>
    private const double ComputeMs = 5;

    /// <summary>The delay each DelayOnceAsync call awaits (the workload's Scenarios.DelayMilliseconds).</summary>
    private const double DelayMs = 20;

    /// <summary>How early a Task.Delay may end by the monotonic clock: the timer queue counts coarse milliseconds (up to 4 ms
    /// a tick on Linux).</summary>
    private const double TimerSlackMs = 5;

    /// <summary>Conversion slack between the event timestamps and the workload's own Stopwatch (the same monotonic clock).</summary>
    private const double ClockSlackMs = 0.1;

    /// <summary>A windowed hop pass on a launched command: windows of 0.5 s in every 2 s, counters only between them.</summary>
    private static readonly SessionOptions WindowedHops = new() { Passes = MeasurementPasses.Hops, HopDutyCycle = 0.25, HopWindow = TimeSpan.FromSeconds(0.5) };

    private static Task<(AsyncCostReport Report, WorkloadResult Truth)> LaunchAsync(string scenario, int count, MeasurementPasses passes)
        => LaunchAsync(scenario, count, new SessionOptions { Passes = passes });

    private static Task<(AsyncCostReport Report, WorkloadResult Truth)> LaunchAsync(string scenario, int count, SessionOptions options)
        => LaunchAsync(WorkloadProcess.DllPath, scenario, count, options);

    private static async Task<(AsyncCostReport Report, WorkloadResult Truth)> LaunchAsync(string workloadDll, string scenario, int count, SessionOptions options)
    {
        var lines = new List<string>();
        var report = await AsyncCostSession.LaunchAsync(WorkloadProcess.Command(workloadDll, scenario, count, lines), options);
        Assert.True(report.Source.ExitCode == 0, $"exit code {report.Source.ExitCode}: {string.Join(Environment.NewLine, lines)}");
        return (report, WorkloadProcess.Result(lines));
    }

    private static MethodCost Row(AsyncCostReport report, string key)
        => Assert.Single(report.Methods, m => m.MethodKey == key && m.DisplayName == key);

    private static void AssertWithin(double expected, double actual, double relative)
        => Assert.True(Math.Abs(actual - expected) <= relative * expected, $"expected {expected:F3} ± {relative:P0}, measured {actual:F3}");

    /// <summary>
    /// Every type on the row but <paramref name="perCall"/> is a one-off: an allocation sample is charged to the innermost
    /// application frame on its stack, so what the runtime allocated once while the method's frame ran (a type its first call
    /// loaded) is the method's too; a few samples at most, each standing for ~100 KB, and none of them a call.
    /// </summary>
    private static void AssertOnlyOneOffsBeside(MethodCost row, params AllocationKind[] perCall)
        => Assert.All(row.Allocations.Where(a => !perCall.Contains(a.Kind)), a => Assert.True(a.Bytes.Samples <= 3, $"{a.TypeName}: {a.Bytes.Samples} samples"));

    [Fact]
    public async Task Synchronously_completed_Task_of_decimal_costs_its_task_per_call()
    {
        // 14 M calls x 80 B = 1.1 GB allocated: about 10,900 samples at one per 100 KB.
        const int calls = 14_000_000;
        var (report, truth) = await LaunchAsync("task-sync", calls, MeasurementPasses.Allocations);

        var row = Row(report, TaskMethod);
        Assert.True(row.Bytes!.Samples >= 10_000, $"{row.Bytes.Samples} samples");
        Assert.Equal(FigureSource.AllocationPass, row.Bytes.Source);
        AssertWithin(truth.BytesPerOp, row.Bytes.Value / calls, 0.10);
        AssertWithin(calls, row.Calls!.Value, 0.10);
        Assert.Single(row.Allocations, a => a.Kind == AllocationKind.Task);
        AssertOnlyOneOffsBeside(row, AllocationKind.Task);
        Assert.Equal("AllocationSampled", Assert.Single(report.Passes).AllocationEvent);
    }

    [Fact]
    public async Task A_synchronously_completed_Task_of_int_a_type_naming_no_method_is_charged_by_its_stack_one_call_each()
    {
        // 14 M calls x 72 B = 1 GB allocated: about 9,800 samples. Task<int> is what Stream.ReadAsync returns too: only the
        // samples' stacks tell whose it is.
        const int calls = 14_000_000;
        var (report, truth) = await LaunchAsync("int-task-sync", calls, MeasurementPasses.Allocations);

        var row = Row(report, "AsyncCost.Workload.Scenarios.AddThousandAsync");
        Assert.Equal("System.Threading.Tasks.Task`1[System.Int32]", Assert.Single(row.Allocations, a => a.Kind == AllocationKind.Task).TypeName);
        AssertWithin(truth.BytesPerOp, row.BytesPerCall!.Value, 0.10);
        AssertWithin(calls, row.Calls!.Value, 0.10);
        Assert.DoesNotContain(report.UnattributedAllocations, a => a.TypeName.StartsWith("System.Threading.Tasks.Task", StringComparison.Ordinal));
        Assert.DoesNotContain(report.Warnings, w => w.Code is "task-unattributed" or "allocation-stacks-missing");
    }

    [Fact]
    public async Task A_plain_methods_iterators_are_charged_to_it_never_listed_as_async_methods()
    {
        // Per call: its yield-return iterator (a class named like a state machine, <Evens>d__N), a System.Linq iterator and
        // an array; 2 M calls allocate about 200 MB.
        var (report, _) = await LaunchAsync("sync-iterator", 2_000_000, MeasurementPasses.Allocations);

        Assert.DoesNotContain(report.Methods, m => m.MethodKey.Contains("Evens", StringComparison.Ordinal));
        var plain = Assert.Single(report.PlainMethodAllocations, m => m.Method == "AsyncCost.Workload.Scenarios.SumOfEvens");
        Assert.Contains(plain.Allocations, a => a.TypeName.Contains("SelectIterator", StringComparison.Ordinal));
        Assert.Contains(report.PlainMethodAllocations, m => m.Method == "AsyncCost.Workload.Scenarios.Evens" && m.Allocations.Any(a => a.TypeName.Contains("<Evens>d__", StringComparison.Ordinal)));
    }

    [Fact]
    public async Task Synchronously_completed_ValueTask_twin_allocates_nothing_and_never_hops()
    {
        var (report, truth) = await LaunchAsync("valuetask-sync", 2_000_000, MeasurementPasses.All);

        Assert.True(truth.BytesPerOp < 0.01, $"the twin itself allocates {truth.BytesPerOp} B/op");
        // No call allocates: at most a one-off (a type its first call loaded) sampled in its frames, no call counted.
        if (report.Methods.FirstOrDefault(m => m.MethodKey == ValueTaskMethod && m.Bytes is { Value: > 0 }) is { } twin)
        {
            Assert.Null(twin.SampledCalls);
            AssertOnlyOneOffsBeside(twin);
        }
        Assert.DoesNotContain(report.Methods, m => m.MethodKey == ValueTaskMethod && m.Hops is { Value: > 0 });
        Assert.Equal(2, report.Passes.Count);
    }

    [Fact]
    public async Task Task_Yield_costs_one_box_per_call()
    {
        // 11.5 M calls x 96 B: about 10,800 samples (10,000 is 7 standard deviations below).
        const int calls = 11_500_000;
        var (report, truth) = await LaunchAsync("yield", calls, MeasurementPasses.Allocations);

        var row = Row(report, YieldMethod);
        Assert.True(row.Bytes!.Samples >= 10_000, $"{row.Bytes.Samples} samples");
        AssertWithin(truth.BytesPerOp, row.Bytes.Value / calls, 0.10);
        Assert.Single(row.Allocations, a => a.Kind == AllocationKind.StateMachineBox);
        AssertOnlyOneOffsBeside(row, AllocationKind.StateMachineBox);
        AssertWithin(calls, row.Calls!.Value, 0.10);
    }

    [Fact]
    public async Task A_Debug_builds_class_state_machine_is_charged_to_its_method_beside_its_box()
    {
        // Unoptimized, the state machine is a class the allocation events name alone (<YieldOnceAsync>d__0): 40 B beside the
        // 80 B box per call, about 1,400 samples over 1.2 M calls.
        const int calls = 1_200_000;
        var (report, truth) = await LaunchAsync(WorkloadProcess.DebugBuildDllPath, "yield", calls, new SessionOptions { Passes = MeasurementPasses.Allocations });

        var row = Row(report, YieldMethod);
        Assert.True(row.Bytes!.Samples >= 1_000, $"{row.Bytes.Samples} samples");
        Assert.Single(row.Allocations, a => a.Kind == AllocationKind.StateMachineBox);
        Assert.Single(row.Allocations, a => a.Kind == AllocationKind.StateMachine);
        AssertOnlyOneOffsBeside(row, AllocationKind.StateMachineBox, AllocationKind.StateMachine);
        AssertWithin(truth.BytesPerOp, row.BytesPerCall!.Value, 0.10);
        AssertWithin(calls, row.Calls!.Value, 0.10);
        Assert.DoesNotContain(report.UnattributedAllocations, a => a.TypeName.Contains("YieldOnceAsync", StringComparison.Ordinal));
    }

    [Fact]
    public async Task An_async_iterators_row_has_one_call_per_item_and_its_bytes_per_item()
    {
        // CountAsync yields 4 items per enumeration, each after a Task.Yield: per enumeration one enumerator (its class state
        // machine, named alone) and one box, 46 B per item. The allocation pass needs millions of items for 1,000 samples;
        // the hop pass, which writes ~9 events per item, records fewer so that none is lost. `report` joins the two traces.
        const int items = 3_000_000, hopItems = 100_000;
        var directory = Directory.CreateTempSubdirectory("asynccost-iterator-").FullName;
        try
        {
            var allocationTrace = Path.Combine(directory, "run.allocations.nettrace");
            var hopTrace = Path.Combine(directory, "run.hops.nettrace");
            var (_, truth) = await LaunchAsync("iterator", items, new SessionOptions { Passes = MeasurementPasses.Allocations, OutputTracePath = allocationTrace });
            var (hopRun, _) = await LaunchAsync("iterator", hopItems, new SessionOptions { Passes = MeasurementPasses.Hops, OutputTracePath = hopTrace });
            Assert.Equal(0, hopRun.Passes.Single().EventsLost);

            var report = await AsyncCostSession.ReadTraceAsync([allocationTrace, hopTrace]);

            var row = Row(report, IteratorMethod);
            Assert.DoesNotContain(report.UnattributedAllocations, a => a.TypeName.Contains("CountAsync", StringComparison.Ordinal));
            Assert.Single(row.Allocations, a => a.Kind == AllocationKind.StateMachineBox);
            Assert.Single(row.Allocations, a => a.Kind == AllocationKind.StateMachine);
            AssertOnlyOneOffsBeside(row, AllocationKind.StateMachineBox, AllocationKind.StateMachine);
            Assert.True(row.Bytes!.Samples >= 1_000, $"{row.Bytes.Samples} samples");
            // Sampled: within 10 %, or within twice the figure's own 95 % bound where that is wider (one full test run read +10 %).
            AssertWithin(items, row.SampledCalls!.Value, SampledTolerance(row.SampledCalls)); // the allocation run's own items (Calls is the hop run's exact count)
            AssertWithin(truth.BytesPerOp, row.BytesPerCall!.Value, SampledTolerance(row.BytesPerCall));
            AssertWithin(hopItems, row.SuspendingCalls!.Value, 0.02);
            AssertWithin(1, row.HopsPerCall!.Value, 0.02);
        }
        finally
        {
            Directory.Delete(directory, recursive: true);
        }
    }

    private static double SampledTolerance(Figure figure) => Math.Max(0.10, 2 * figure.ErrorBound / figure.Value);

    [Fact]
    public async Task Task_Yield_hops_once_per_call()
    {
        const int calls = 300_000;
        var (report, truth) = await LaunchAsync("yield", calls, MeasurementPasses.Hops);

        var row = Row(report, YieldMethod);
        Assert.Equal(FigureSource.HopPass, row.Hops!.Source);
        AssertHops(report, calls, row.Hops.Value);
        AssertHops(report, truth.WorkItemsPerOp * calls, row.Hops.Value);
        var lost = report.Passes.Single().EventsLost;
        Assert.InRange(row.SuspendingCalls!.Value, calls - lost, calls);
        Assert.NotNull(row.HopsPerCall);
        AssertWithin(1, row.HopsPerCall.Value, 0.02);
    }

    /// <summary>
    /// A hop pass's count against the truth: within 2 % while the runtime dropped no event. A launched hop pass writes some
    /// 14 events per hop (over a million a second here); on a loaded machine the reader can fall behind its buffer, and a
    /// dropped event can cost at most the one hop it belonged to. Then the report must say its figures are low, and the
    /// count may be short by the events lost, never over.
    /// </summary>
    private static void AssertHops(AsyncCostReport report, double expected, double measured)
    {
        var pass = report.Passes.Single();
        var context = $"{measured:N0} hops, expected {expected:N0}; {pass.Events:N0} events, {pass.EventsLost:N0} lost; warnings: {string.Join(" | ", report.Warnings.Select(w => w.Message))}";
        Assert.True(measured <= expected * 1.02, context);
        Assert.True(measured >= (expected * 0.98) - pass.EventsLost, context);
        Assert.True(pass.EventsLost == 0 || report.Warnings.Any(w => w.Code == "events-lost"), context);
    }

    [Fact]
    public async Task TaskCompletionSource_handoff_hops_once_per_call()
    {
        const int calls = 200_000;
        var (report, truth) = await LaunchAsync("tcs-handoff", calls, MeasurementPasses.Hops);

        // Two work items per call in-process: the completer and the continuation; only the continuation is the method's hop.
        AssertWithin(2, truth.WorkItemsPerOp, 0.02);
        var row = Row(report, HandoffMethod);
        AssertHops(report, calls, row.Hops!.Value);
    }

    [Fact]
    public async Task A_loop_driver_that_never_yields_itself_shows_no_hops_of_its_own()
    {
        // Each DriveYieldsAsync call awaits YieldOnceAsync 10 times: it suspends on every await and is resumed inline when the
        // callee completes on its pool thread. Untraced, all but ~0.2 % of the work items are the callee's hops; traced, the
        // hop pass's events widen the race between an await's IsCompleted and its registration, so a few % of the driver's
        // continuations are registered after the callee completed and run from the pool: the report counts them apart.
        const int calls = 10_000;
        var (_, untraced) = await LaunchAsync("drive-yields", calls, MeasurementPasses.Allocations);
        var (report, truth) = await LaunchAsync("drive-yields", calls, MeasurementPasses.Hops);

        AssertWithin(10 * calls, Row(report, YieldMethod).Hops!.Value, 0.02);
        var driver = Row(report, DriverMethod);
        AssertWithin(calls, driver.SuspendingCalls!.Value, 0.02);
        // At most what the untraced run's work items leave over beyond the callee's hops (its own races), and 1 % slack.
        var untracedDriverHops = Math.Max(untraced.CompletedWorkItems - (10.0 * calls), 0) / calls;
        Assert.True(driver.HopsPerCall!.Value <= untracedDriverHops + 0.01,
            $"driver: {driver.HopsPerCall.Value:F3} hops per call traced, {untracedDriverHops:F3} untraced; traced work items beyond its callee's hops: {truth.CompletedWorkItems - (10 * calls):N0}");
        Assert.True(truth.CompletedWorkItems <= (10 * calls) + 100 || report.Warnings.Any(w => w.Code == "late-continuations"),
            $"{truth.CompletedWorkItems:N0} work items, no late-continuations warning");
    }

    [Fact]
    public async Task A_loop_driver_over_an_async_iterator_shows_only_its_own_hops_and_the_iterator_one_call_per_item()
    {
        // await foreach over CountAsync (Task.Yield before each item), the loop body awaiting YieldOnceAsync: two hops per item,
        // one the iterator's, one YieldOnceAsync's. The driver suspends on every await and is resumed inline each time.
        const int items = 40_000;
        var (report, truth) = await LaunchAsync("iterator-awaiting", items, MeasurementPasses.Hops);

        AssertWithin(2, truth.WorkItemsPerOp, 0.02);
        Assert.Equal(0, report.Passes.Single().EventsLost);
        var iterator = Row(report, IteratorMethod);
        AssertWithin(items, iterator.SuspendingCalls!.Value, 0.02);
        AssertWithin(items, iterator.Hops!.Value, 0.02);
        AssertWithin(1, iterator.HopsPerCall!.Value, 0.02);
        AssertWithin(items, Row(report, YieldMethod).Hops!.Value, 0.02);
        // The driver's own hops are the work items its callees' hops leave over (a continuation that lost the race to be
        // registered before its task completed runs from the pool).
        var driver = Assert.Single(report.Methods, m => m.MethodKey.EndsWith(".RunIteratorAwaiting", StringComparison.Ordinal));
        var leftOver = Math.Max(truth.CompletedWorkItems - (2.0 * items), 0);
        Assert.True(driver.Hops!.Value <= leftOver + (0.005 * items), $"driver: {driver.Hops.Value:N0} hops; work items beyond its callees' hops: {leftOver:N0}");
    }

    [Fact]
    public async Task A_blocking_wait_is_charged_to_the_async_method_that_blocks()
    {
        const int calls = 1_000;
        var (report, truth) = await LaunchAsync("block-in-async", calls, MeasurementPasses.Hops);

        var row = Row(report, BlockingMethod);
        AssertWithin(calls, row.BlockingWaits!.Value, 0.02);
        AssertWithin(truth.BlockedSeconds * 1_000, row.BlockedMilliseconds!.Value, 0.10);
        // The awaiting driver blocks nothing.
        Assert.All(report.Methods.Where(m => m.MethodKey != BlockingMethod), m => Assert.Equal(0, m.BlockingWaits!.Value));
    }

    [Fact]
    public async Task Elapsed_time_per_call_is_at_least_the_awaited_delay_and_at_most_what_the_caller_waited()
    {
        // Each call awaits a 20 ms timer; its caller times it with a Stopwatch from before the call to after the await, which
        // brackets the hop pass's first suspension and completion, so no call's elapsed time exceeds its caller's wait, loaded
        // machine or not. Nothing of the run is cut: a continuous pass times every call.
        const int calls = 100;
        var (report, truth) = await LaunchAsync("delay", calls, MeasurementPasses.Hops);

        var row = Row(report, DelayMethod);
        var perCall = row.ElapsedPerCallMilliseconds!;
        Assert.Equal(calls, perCall.Samples);
        var callerMs = truth.CallSeconds * 1_000 / calls;
        Assert.InRange(perCall.Value, DelayMs - TimerSlackMs, callerMs + ClockSlackMs);
        Assert.True(perCall.ErrorBound > 0 && perCall.Value - perCall.ErrorBound <= callerMs + ClockSlackMs, $"{perCall.Value:F2} ± {perCall.ErrorBound:F2} ms, callers waited {callerMs:F2} ms");
        // Every call timed: the total is the timed calls' own sum, exact.
        Assert.Equal(calls, row.SuspendingCalls!.Value);
        Assert.Equal(FigureKind.Exact, row.ElapsedMilliseconds!.Kind);
        Assert.Equal(calls * perCall.Value, row.ElapsedMilliseconds.Value, 6);
        Assert.True(row.ElapsedMilliseconds.Value <= (truth.CallSeconds * 1_000) + (calls * ClockSlackMs));
    }

    [Fact]
    public async Task Elapsed_time_per_call_holds_the_computing_before_the_first_await_and_a_method_that_never_suspends_has_a_row()
    {
        // Each call computes 5 ms by the clock in a callee that never suspends, then suspends on Task.Yield: most of what its
        // caller waits (timed by a Stopwatch from before the call to after the await) comes before its first suspension.
        const int calls = 300;
        var (report, truth) = await LaunchAsync("compute-then-yield", calls, MeasurementPasses.Hops);

        var row = Row(report, ComputeThenYieldMethod);
        var perCall = row.ElapsedPerCallMilliseconds!;
        Assert.Equal(calls, perCall.Samples);
        var callerMs = truth.CallSeconds * 1_000 / calls;
        AssertWithin(callerMs, perCall.Value, 0.10);
        Assert.True(perCall.Value >= ComputeMs * (calls - 1) / calls, $"{perCall.Value:F3} ms per call: the {ComputeMs} ms computed before the first suspension are not in it");
        var neverSuspends = Row(report, ComputeMethod);
        Assert.Equal(0, neverSuspends.SuspendingCalls!.Value);
        Assert.Null(neverSuspends.ElapsedPerCallMilliseconds);
        Assert.Null(neverSuspends.ElapsedMilliseconds);
    }

    [Fact]
    public async Task A_windowed_hop_pass_times_the_calls_inside_its_windows_and_scales_their_total_like_the_calls()
    {
        // Windows of 0.5 s in every 2 s over ~6 s of 20 ms calls: about a quarter of the calls are timed, and each window's
        // edges leave a call pending, untimed.
        const int calls = 300;
        var (report, truth) = await LaunchAsync("delay", calls, WindowedHops);

        var row = Row(report, DelayMethod);
        var perCall = row.ElapsedPerCallMilliseconds!;
        Assert.InRange(perCall.Samples, 1, calls - 1);
        Assert.InRange(perCall.Value, DelayMs - TimerSlackMs, (truth.LongestCallSeconds * 1_000) + ClockSlackMs);
        Assert.True(row.SuspendingCalls!.Sampled);
        Assert.True(row.ElapsedMilliseconds!.Sampled);
        Assert.Equal(row.SuspendingCalls.Value * perCall.Value, row.ElapsedMilliseconds.Value, 6);
    }

    [Fact]
    public async Task The_cpu_pass_measures_a_method_that_completes_synchronously_without_allocating()
    {
        // GetPriceValueTaskAsync completes synchronously with a ValueTask: no box, no task, no hop, so the allocation and hop
        // passes have nothing of it. The loop is one thread busy for the workload's whole measured time: the time the
        // samples give its async methods (the driver and the callee) is that time, within the sampling's noise.
        const int calls = 10_000_000;
        var (report, truth) = await LaunchAsync("valuetask-sync", calls, MeasurementPasses.Cpu);

        var callee = Row(report, ValueTaskMethod);
        Assert.Null(callee.Bytes);
        Assert.Equal(FigureSource.CpuPass, callee.CpuMilliseconds!.Source);
        Assert.True(callee.CpuMilliseconds.Sampled);
        Assert.True(callee.CpuMilliseconds.Samples >= 100, $"{callee.CpuMilliseconds.Samples} samples");
        var driver = Assert.Single(report.Methods, m => m.MethodKey.EndsWith(".RunValueTaskSync", StringComparison.Ordinal));
        var sampled = callee.CpuMilliseconds.Value + driver.CpuMilliseconds!.Value;
        AssertWithin(truth.ElapsedSeconds * 1_000, sampled, 0.25);
        Assert.True(callee.WaitMilliseconds!.Samples == 0, $"{callee.WaitMilliseconds.Samples} samples blocked in a method that never waits");
    }

    [Fact]
    public async Task The_cpu_pass_charges_a_blocking_wait_to_the_method_that_blocks()
    {
        // Each call blocks its pool thread on Task.Delay(1).Wait(): the samples in that wait are BlockingAsync's blocked time.
        const int calls = 1_500;
        var (report, truth) = await LaunchAsync("block-in-async", calls, MeasurementPasses.Cpu);

        var row = Row(report, BlockingMethod);
        AssertWithin(truth.BlockedSeconds * 1_000, row.WaitMilliseconds!.Value, 0.25);
        Assert.True(row.WaitMilliseconds.Value > 5 * row.CpuMilliseconds!.Value, $"blocked {row.WaitMilliseconds.Value:N0} ms, running {row.CpuMilliseconds.Value:N0} ms");
    }

    [Fact]
    public async Task A_windowed_hop_pass_scales_Task_Yield_hops_to_the_thread_pools_work_items()
    {
        // Several seconds at 2-5 M calls/s untraced: windows of 0.5 s in every 2 s, counters only between them.
        const int calls = 20_000_000;
        var (report, truth) = await LaunchAsync("yield", calls, WindowedHops);

        var row = Row(report, YieldMethod);
        var pass = report.Passes.Single();
        Assert.True(row.Hops!.Sampled, $"a windowed pass's counts are estimates: {pass.Duration} recorded, {pass.Unrecorded} between windows; {string.Join("; ", report.Warnings.Select(w => w.Message))}");
        Assert.Contains(report.Warnings, w => w.Code == "hop-windows");
        AssertWithin(truth.CompletedWorkItems, row.Hops.Value, 0.05);
        Assert.True(Math.Abs(row.Hops.Value - truth.CompletedWorkItems) <= row.Hops.ErrorBound + (0.02 * truth.CompletedWorkItems),
            $"{row.Hops.Value:N0} ± {row.Hops.ErrorBound:N0} vs {truth.CompletedWorkItems:N0} work items");
        // How many events a window loses depends on how fast the reader keeps up on this machine at this moment
        // (benchmarks/results/HopKeywords.md: none at 1 s windows on a quiet run); the counts above are scaled by the
        // pool's own work items either way. What must hold is that a loss is said, never hidden.
        Assert.True(pass.EventsLost == 0 || report.Warnings.Any(w => w.Code == "events-lost"), $"{pass.EventsLost:N0} events lost without a warning");
        // A window's edges cut calls from their hops (the providers are not switched at one instant): a few % at most.
        AssertWithin(1, row.HopsPerCall!.Value, 0.05);
    }

    [Fact]
    public async Task Thread_ping_pong_switches_about_twice_per_round_trip_and_the_async_twin_does_not()
    {
        const int roundTrips = 100_000;
        var (threads, threadTruth) = await LaunchAsync("thread-pingpong", roundTrips, MeasurementPasses.Allocations);
        var (async, asyncTruth) = await LaunchAsync("async-pingpong", roundTrips, MeasurementPasses.Allocations);

        var perRoundTrip = (double)threads.Totals.VoluntaryContextSwitches!.Value / roundTrips;
        Assert.InRange(perRoundTrip, 1.5, 4.0);
        // The in-process count (getrusage, the same code) agrees with /proc.
        AssertWithin(threadTruth.VoluntaryContextSwitches!.Value, threads.Totals.VoluntaryContextSwitches.Value, 0.25);
        Assert.Contains(threads.Threads, t => t.Name == "pingpong-partne" && t.Voluntary > roundTrips / 2);

        var asyncPerRoundTrip = (double)(async.Totals.VoluntaryContextSwitches ?? 0) / roundTrips;
        Assert.True(asyncPerRoundTrip < 0.05, $"async twin: {asyncPerRoundTrip:F3} switches per round trip");
        Assert.True(asyncTruth.VoluntaryContextSwitches < roundTrips / 20);
    }

    [Fact]
    public async Task A_saved_trace_reads_back_to_the_same_rows()
    {
        var path = Path.Combine(Path.GetTempPath(), $"asynccost-{Guid.NewGuid():N}.nettrace");
        try
        {
            var lines = new List<string>();
            var live = await AsyncCostSession.LaunchAsync(WorkloadProcess.Command("task-sync", 2_000_000, lines),
                new SessionOptions { Passes = MeasurementPasses.Allocations, OutputTracePath = path });
            var saved = await AsyncCostSession.ReadTraceAsync(path);

            Assert.Equal(SourceKind.TraceFile, saved.Source.Kind);
            Assert.Equal(StopReason.EndOfTrace, saved.StopReason);
            Assert.Equal(Row(live, TaskMethod).Bytes!.Value, Row(saved, TaskMethod).Bytes!.Value, 6);
            Assert.Equal(MeasurementPasses.Allocations, Assert.Single(saved.Passes).Pass);
        }
        finally
        {
            File.Delete(path);
        }
    }
}

/// <summary>Tests that run child processes run one at a time: they share two cores and measure counts that contention would blur.</summary>
[CollectionDefinition(nameof(ChildProcesses), DisableParallelization = true)]
public sealed class ChildProcesses;
