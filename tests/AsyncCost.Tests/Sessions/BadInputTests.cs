using System.Diagnostics;
using AsyncCost.Report;
using AsyncCost.Sessions;
using AsyncCost.Tests.GroundTruth;
using AsyncCost.Tests.Support;

namespace AsyncCost.Tests.Sessions;

/// <summary>Every bad input gives its own typed error (or a report that says what is missing), never a hang.</summary>
[Collection(nameof(ChildProcesses))]
public class BadInputTests
{
    private static readonly SessionOptions Quick = new() { Passes = MeasurementPasses.Allocations, Duration = TimeSpan.FromSeconds(1) };

    [Fact]
    public async Task A_process_id_that_does_not_exist()
    {
        var error = await Assert.ThrowsAsync<ProcessNotFoundException>(() => AsyncCostSession.AttachAsync(int.MaxValue - 7, Quick));

        Assert.Equal(AsyncCostErrorKind.ProcessNotFound, error.Kind);
        Assert.Contains((int.MaxValue - 7).ToString(System.Globalization.CultureInfo.InvariantCulture), error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_process_that_is_not_dotnet()
    {
        using var sleeper = Process.Start("sleep", "60");
        try
        {
            var error = await Assert.ThrowsAsync<NotDotNetProcessException>(() => AsyncCostSession.AttachAsync(sleeper.Id, Quick));
            Assert.Equal(AsyncCostErrorKind.NotDotNetProcess, error.Kind);
        }
        finally
        {
            sleeper.Kill();
        }
    }

    [Fact]
    public async Task A_dotnet_process_with_diagnostics_disabled()
    {
        using var workload = WorkloadProcess.Start("task-sync", 10, new Dictionary<string, string> { ["DOTNET_EnableDiagnostics"] = "0" }, "--wait");
        try
        {
            Assert.StartsWith("READY", await workload.StandardOutput.ReadLineAsync(), StringComparison.Ordinal);
            var error = await Assert.ThrowsAsync<DiagnosticsDisabledException>(() => AsyncCostSession.AttachAsync(workload.Id, Quick));
            Assert.Equal(AsyncCostErrorKind.DiagnosticsDisabled, error.Kind);
        }
        finally
        {
            workload.Kill();
        }
    }

    [Fact]
    public async Task A_command_that_does_not_exist()
    {
        var command = new LaunchCommand { FileName = "asynccost-no-such-command-" + Guid.NewGuid().ToString("N") };

        var error = await Assert.ThrowsAsync<CommandNotFoundException>(() => AsyncCostSession.LaunchAsync(command, Quick));
        Assert.Equal(AsyncCostErrorKind.CommandNotFound, error.Kind);
    }

    [Fact]
    public async Task A_launched_command_that_is_not_dotnet()
    {
        var command = new LaunchCommand { FileName = "true" };

        var error = await Assert.ThrowsAsync<NotDotNetProcessException>(() => AsyncCostSession.LaunchAsync(command, Quick));
        Assert.Contains("before a .NET runtime started", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task An_output_path_that_cannot_be_written_stops_before_running_the_command()
    {
        var lines = new List<string>();
        var options = new SessionOptions { Passes = MeasurementPasses.Allocations, OutputTracePath = "/nonexistent-dir-" + Guid.NewGuid().ToString("N") + "/trace.nettrace" };

        var error = await Assert.ThrowsAsync<OutputNotWritableException>(() => AsyncCostSession.LaunchAsync(WorkloadProcess.Command("task-sync", 10, lines), options));
        Assert.Equal(AsyncCostErrorKind.OutputNotWritable, error.Kind);
        Assert.DoesNotContain(lines, l => l.StartsWith("RESULT", StringComparison.Ordinal)); // the suspended child never ran
    }

    [Fact]
    public async Task A_trace_file_that_does_not_exist()
    {
        var error = await Assert.ThrowsAsync<TraceFileNotFoundException>(() => AsyncCostSession.ReadTraceAsync("/nonexistent-" + Guid.NewGuid().ToString("N") + ".nettrace"));
        Assert.Equal(AsyncCostErrorKind.TraceFileNotFound, error.Kind);
    }

    [Fact]
    public async Task A_stack_profile_from_a_missing_trace_or_a_directory()
    {
        var missing = await Assert.ThrowsAsync<TraceFileNotFoundException>(() => AsyncCostSession.ReadStackProfileAsync(["/nonexistent-" + Guid.NewGuid().ToString("N") + ".cpu.nettrace"]));
        Assert.Equal(AsyncCostErrorKind.TraceFileNotFound, missing.Kind);
        var directory = await Assert.ThrowsAsync<TraceFileNotFoundException>(() => AsyncCostSession.ReadStackProfileAsync([Path.GetTempPath()]));
        Assert.Contains("directory", directory.Message, StringComparison.OrdinalIgnoreCase);
    }

    [Fact]
    public async Task A_file_that_is_not_a_trace_gives_no_stack_profile()
    {
        var path = Path.GetTempFileName();
        try
        {
            await File.WriteAllTextAsync(path, "this is not a nettrace file, just text long enough to read a header from");

            var error = await Assert.ThrowsAsync<TraceFileInvalidException>(() => AsyncCostSession.ReadStackProfileAsync([path]));
            Assert.Equal(AsyncCostErrorKind.TraceFileInvalid, error.Kind);
        }
        finally
        {
            File.Delete(path);
        }
    }

    [Fact]
    public async Task A_file_that_is_not_a_trace()
    {
        var path = Path.GetTempFileName();
        try
        {
            await File.WriteAllTextAsync(path, "this is not a nettrace file, just text long enough to read a header from");

            var error = await Assert.ThrowsAsync<TraceFileInvalidException>(() => AsyncCostSession.ReadTraceAsync(path));
            Assert.Equal(AsyncCostErrorKind.TraceFileInvalid, error.Kind);
            Assert.Null(error.PartialReport);
        }
        finally
        {
            File.Delete(path);
        }
    }

    [Fact]
    public async Task An_empty_trace_is_called_empty()
    {
        var path = Path.Combine(Path.GetTempPath(), $"asynccost-{Guid.NewGuid():N}.nettrace");
        await File.WriteAllBytesAsync(path, []);
        try
        {
            var error = await Assert.ThrowsAsync<TraceFileInvalidException>(() => AsyncCostSession.ReadTraceAsync(path));
            Assert.Contains($"{path} is empty (0 bytes)", error.Message, StringComparison.Ordinal);
            Assert.DoesNotContain("Read past end of stream", error.Message, StringComparison.Ordinal);
        }
        finally
        {
            File.Delete(path);
        }
    }

    [Fact]
    public void A_denied_proc_read_never_tells_root_to_run_as_root()
    {
        var error = new AccessDeniedException(42, "/proc/42/environ", "alice");

        Assert.Contains("Permission denied reading /proc/42/environ (process 42 runs as alice)", error.Message, StringComparison.Ordinal);
        if (Environment.IsPrivilegedProcess)
        {
            Assert.DoesNotContain("run as its user or as root", error.Message, StringComparison.Ordinal);
            Assert.Contains("already runs as root", error.Message, StringComparison.Ordinal);
        }
        else
        {
            Assert.Contains("run as its user or as root", error.Message, StringComparison.Ordinal);
        }
    }

    [Fact]
    public async Task A_truncated_trace_keeps_what_was_readable_and_says_it_was_cut_short()
    {
        var full = Path.Combine(Path.GetTempPath(), $"asynccost-{Guid.NewGuid():N}.nettrace");
        var truncated = full + ".truncated.nettrace";
        try
        {
            var lines = new List<string>();
            await AsyncCostSession.LaunchAsync(WorkloadProcess.Command("yield", 50_000, lines), new SessionOptions { Passes = MeasurementPasses.Hops, OutputTracePath = full });
            var bytes = await File.ReadAllBytesAsync(full);
            await File.WriteAllBytesAsync(truncated, bytes[..(bytes.Length / 2)]);

            var error = await Assert.ThrowsAsync<TraceFileInvalidException>(() => AsyncCostSession.ReadTraceAsync(truncated));
            Assert.NotNull(error.PartialReport);
            Assert.True(error.PartialReport.CutShort);
            Assert.Equal(StopReason.TraceTruncated, error.PartialReport.StopReason);
            var partial = Assert.Single(error.PartialReport.Methods, m => m.MethodKey == "AsyncCost.Workload.Scenarios.YieldOnceAsync");
            Assert.InRange(partial.Hops!.Value, 1, 49_999);
        }
        finally
        {
            File.Delete(full);
            File.Delete(truncated);
        }
    }

    [Fact]
    public void A_runtime_too_old_for_EventPipe()
    {
        var error = Assert.Throws<RuntimeTooOldException>(() => SessionRunner.NeedsAllocationTick("3.1.32", new SessionOptions(), []));
        Assert.Equal(AsyncCostErrorKind.RuntimeTooOld, error.Kind);
    }

    [Fact]
    public void A_runtime_too_old_for_AllocationSampled_falls_back_and_says_so()
    {
        var warnings = new List<ReportWarning>();

        Assert.True(SessionRunner.NeedsAllocationTick("8.0.11", new SessionOptions(), warnings));
        Assert.Equal("runtime-too-old-for-allocation-sampling", Assert.Single(warnings).Code);
        Assert.False(SessionRunner.NeedsAllocationTick("10.0.12", new SessionOptions(), warnings));
    }

    [Fact]
    public async Task The_GCAllocationTick_fallback_still_attributes_bytes()
    {
        const int calls = 2_000_000;
        var lines = new List<string>();
        var report = await AsyncCostSession.LaunchAsync(WorkloadProcess.Command("task-sync", calls, lines),
            new SessionOptions { Passes = MeasurementPasses.Allocations, ForceAllocationTick = true });

        Assert.Equal("GCAllocationTick", Assert.Single(report.Passes).AllocationEvent);
        Assert.Contains(report.Warnings, w => w.Code == "allocation-fallback");
        var row = Assert.Single(report.Methods, m => m.MethodKey == "AsyncCost.Workload.PriceService.GetPriceTaskAsync");
        var truth = WorkloadProcess.Result(lines);
        // One event per ~100 KB at a fixed stride: with a single allocating type the stride loses nothing but the tail.
        Assert.InRange(row.Bytes!.Value / calls, truth.BytesPerOp * 0.9, truth.BytesPerOp * 1.1);
    }

    [Fact]
    public async Task Cancelling_before_recording_starts_throws_OperationCanceledException()
    {
        using var cancelled = new CancellationTokenSource();
        await cancelled.CancelAsync();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => AsyncCostSession.AttachAsync(Environment.ProcessId, Quick, cancelled.Token));
    }
}
