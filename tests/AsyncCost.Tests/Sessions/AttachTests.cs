using AsyncCost.Report;
using AsyncCost.Sessions;
using AsyncCost.Tests.GroundTruth;
using AsyncCost.Tests.Support;

namespace AsyncCost.Tests.Sessions;

/// <summary>Attaching by process id to a running workload: clean stop on cancel, cut short on exit, thread ids joined.</summary>
[Collection(nameof(ChildProcesses))]
public class AttachTests
{
    private const string YieldMethod = "AsyncCost.Workload.Scenarios.YieldOnceAsync";

    /// <summary>Attaches, lets the workload run once the session is recording, and returns the session's task.</summary>
    private static async Task<(Task<AsyncCostReport> Session, System.Diagnostics.Process Workload)> AttachWhileRunningAsync(
        int calls, MeasurementPasses passes, CancellationToken cancellationToken, params string[] flags)
    {
        var workload = WorkloadProcess.Start("yield", calls, null, ["--wait", .. flags]);
        Assert.StartsWith("READY", await workload.StandardOutput.ReadLineAsync(cancellationToken), StringComparison.Ordinal);
        var recording = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        // Continuous (an attached process's hop pass is windowed by default): these tests count every hop.
        var options = new SessionOptions { Passes = passes, HopDutyCycle = 1, Progress = new SynchronousProgress<SessionProgress>(_ => recording.TrySetResult()) };
        var session = AsyncCostSession.AttachAsync(workload.Id, options, cancellationToken);
        await Task.WhenAny(recording.Task, session);
        await workload.StandardInput.WriteLineAsync(); // start
        await workload.StandardInput.FlushAsync(cancellationToken);
        return (session, workload);
    }

    [Fact]
    public async Task Cancelling_stops_cleanly_with_every_hop_recorded()
    {
        const int calls = 200_000;
        using var stop = new CancellationTokenSource();
        var (session, workload) = await AttachWhileRunningAsync(calls, MeasurementPasses.Hops, stop.Token, "--linger");
        using (workload)
        {
            var result = await workload.StandardOutput.ReadLineAsync(stop.Token);
            Assert.StartsWith("RESULT", result, StringComparison.Ordinal);
            await stop.CancelAsync();
            var report = await session;
            workload.StandardInput.Close();
            await workload.WaitForExitAsync();

            Assert.Equal(StopReason.Canceled, report.StopReason);
            Assert.False(report.CutShort);
            Assert.Equal(SourceKind.Attach, report.Source.Kind);
            var row = Assert.Single(report.Methods, m => m.MethodKey == YieldMethod);
            Assert.InRange(row.Hops!.Value, calls * 0.98, calls * 1.02);
            // EventPipe's thread ids are Linux TIDs: the /proc threads join them (no mismatch warning), and pool threads switched.
            Assert.DoesNotContain(report.Warnings, w => w.Code == "thread-ids-unmatched");
            Assert.Contains(report.Threads, t => t.ThreadClass == "threadpool");
        }
    }

    [Fact]
    public async Task A_process_that_exits_mid_session_keeps_what_was_gathered_and_is_marked_cut_short()
    {
        const int calls = 100_000;
        var (session, workload) = await AttachWhileRunningAsync(calls, MeasurementPasses.Hops, CancellationToken.None);
        using (workload)
        {
            var report = await session.WaitAsync(TimeSpan.FromMinutes(2));

            Assert.True(report.CutShort);
            Assert.Equal(StopReason.ProcessExited, report.StopReason);
            Assert.Contains(report.Warnings, w => w.Code == "cut-short");
            Assert.True(Assert.Single(report.Passes).CutShort);
            var row = Assert.Single(report.Methods, m => m.MethodKey == YieldMethod);
            Assert.True(row.Hops!.Value > 0);
        }
    }

    [Fact]
    public async Task A_duration_splits_between_passes_and_each_reports_its_own_figures()
    {
        var workload = WorkloadProcess.Start("yield", 20_000, null, "--loop");
        using (workload)
        {
            // The first RESULT line: the runtime, and so its diagnostics socket, is up. Then stdout is drained for the whole
            // run: the loop prints a line per round, and a full pipe would block the workload mid-session (and its exit).
            Assert.StartsWith("RESULT", await workload.StandardOutput.ReadLineAsync(), StringComparison.Ordinal);
            var drained = workload.StandardOutput.ReadToEndAsync();
            try
            {
                // Continuous hops (an attached process's default is windowed, whose edges move hops/call by a few %).
                var report = await AsyncCostSession.AttachAsync(workload.Id, new SessionOptions { Duration = TimeSpan.FromSeconds(4), HopDutyCycle = 1 })
                    .WaitAsync(TimeSpan.FromMinutes(2));

                Assert.Equal(StopReason.DurationElapsed, report.StopReason);
                Assert.Equal([MeasurementPasses.Allocations, MeasurementPasses.Hops], report.Passes.Select(p => p.Pass));
                var row = Assert.Single(report.Methods, m => m.MethodKey == YieldMethod);
                Assert.Equal(FigureSource.AllocationPass, row.Bytes!.Source);
                Assert.Equal(FigureSource.HopPass, row.Hops!.Source);
                // Attached mid-loop: the pass's edges cut calls from their hops (the providers are not switched at one instant,
                // and the later the second is on, the more), the tolerance of every attached or windowed hop pass.
                Assert.NotNull(row.HopsPerCall);
                Assert.InRange(row.HopsPerCall.Value, 0.95, 1.05);
            }
            finally
            {
                workload.StandardInput.Close();
                await workload.WaitForExitAsync();
                await drained;
            }
        }
    }

    /// <summary>IProgress that reports on the calling thread (Progress&lt;T&gt; would post to the thread pool).</summary>
    private sealed class SynchronousProgress<T>(Action<T> report) : IProgress<T>
    {
        public void Report(T value) => report(value);
    }
}
