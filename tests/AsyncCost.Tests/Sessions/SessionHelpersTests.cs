using AsyncCost.Os;
using AsyncCost.Report;
using AsyncCost.Sessions;

namespace AsyncCost.Tests.Sessions;

public class SessionHelpersTests
{
    [Theory]
    [InlineData(1, 0, "/out/app.nettrace")]
    [InlineData(2, 0, "/out/app.allocations.nettrace")]
    [InlineData(2, 1, "/out/app.allocations.2.nettrace")]
    public void Names_one_trace_file_per_pass_and_slice(int passCount, int slice, string expected)
    {
        Assert.Equal(expected, TraceFileNames.For("/out/app.nettrace", MeasurementPasses.Allocations, passCount, slice));
    }

    [Fact]
    public void Reads_the_runtime_version_from_the_mapped_libcoreclr()
    {
        Assert.Equal("10.0.12", TargetProcess.RuntimeVersion(["/usr/lib/x86_64-linux-gnu/libc.so.6", "/usr/share/dotnet/shared/Microsoft.NETCore.App/10.0.12/libcoreclr.so"]));
        Assert.Null(TargetProcess.RuntimeVersion(["/app/libcoreclr.so"]));
    }

    [Fact]
    public void A_socket_counts_only_when_its_key_is_the_live_processs_start_time()
    {
        using var sleeper = System.Diagnostics.Process.Start("sleep", "60");
        var directory = Directory.CreateTempSubdirectory("asynccost-sockets-").FullName;
        try
        {
            var started = ProcFs.StartTimeTicks(sleeper.Id);
            Assert.NotNull(started);
            var leftBehind = Path.Combine(directory, $"dotnet-diagnostic-{sleeper.Id}-{started + 1}-socket");
            File.WriteAllText(leftBehind, "");

            Assert.DoesNotContain(sleeper.Id, DiagnosticEndpoints.Published(directory));

            File.Move(leftBehind, Path.Combine(directory, $"dotnet-diagnostic-{sleeper.Id}-{started}-socket"));
            Assert.Contains(sleeper.Id, DiagnosticEndpoints.Published(directory));
        }
        finally
        {
            sleeper.Kill();
            Directory.Delete(directory, recursive: true);
        }
    }

    [Fact]
    public void Reads_a_processs_parent_and_start_time_from_proc_stat()
    {
        using var child = System.Diagnostics.Process.Start("sleep", "60");
        try
        {
            Assert.Equal(Environment.ProcessId, ProcFs.ParentOf(child.Id));
            // A child starts after its parent, and clock ticks since boot only grow.
            Assert.True(ProcFs.StartTimeTicks(child.Id) >= ProcFs.StartTimeTicks(Environment.ProcessId));
            Assert.Null(ProcFs.StartTimeTicks(int.MaxValue));
        }
        finally
        {
            child.Kill();
        }
    }

    [Fact]
    public void Parses_proc_status_switch_counters()
    {
        const string status = "Name:\tdotnet\nState:\tS (sleeping)\nvoluntary_ctxt_switches:\t1234\nnonvoluntary_ctxt_switches:\t56\n";

        Assert.Equal((1234, 56), ThreadSwitchMonitor.ParseStatus(status));
    }

    [Theory]
    [InlineData(true, "dotnet", "main")]
    [InlineData(false, ".NET TP Worker", "threadpool")]
    [InlineData(false, ".NET BGC", "gc")]
    [InlineData(false, ".NET Server GC", "gc")]
    [InlineData(false, ".NET Finalizer", "runtime")]
    [InlineData(false, "pingpong-partne", "other")]
    public void Classifies_threads_by_name(bool isMain, string name, string expected)
    {
        Assert.Equal(expected, ThreadSwitchMonitor.ClassOf(isMain, name));
    }

    [Fact]
    public void Counts_a_blocking_threads_voluntary_switches_and_keeps_them_after_it_exits()
    {
        var monitor = ThreadSwitchMonitor.Start(Environment.ProcessId);
        Assert.NotNull(monitor);
        using var slept = new ManualResetEventSlim();
        using var release = new ManualResetEventSlim();
        var thread = new Thread(() =>
        {
            for (var i = 0; i < 50; i++)
            {
                Thread.Sleep(1);
            }
            // Stay alive until the monitor has polled once after the sleeps: a thread that exits between polls
            // keeps only the counts last seen, which is the behaviour under test, not a race to lose.
            slept.Set();
            release.Wait();
        }) { Name = "switch-probe" };
        thread.Start();
        while (!slept.IsSet)
        {
            monitor.Poll();
            Thread.Sleep(5);
        }
        monitor.Poll();
        release.Set();
        thread.Join();
        monitor.Poll();

        var probe = Assert.Single(monitor.Results(), t => t.Name == "switch-probe");
        Assert.True(probe.Voluntary >= 45, $"{probe.Voluntary} voluntary switches");
        Assert.True(probe.Exited);
    }
}
