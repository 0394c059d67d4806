using System.Runtime.CompilerServices;
using AsyncCost.Benchmarks.Infrastructure;
using AsyncCost.Report;
using AsyncCost.Sessions;
using BenchmarkDotNet.Attributes;

namespace AsyncCost.Benchmarks.Tracing;

/// <summary>How the benchmark process is traced while it runs.</summary>
public enum TracedBy
{
    /// <summary>Not traced: the baseline.</summary>
    Nothing,

    /// <summary>The library's allocation pass (AllocationSampled, counters; TPL off).</summary>
    AllocationPass,

    /// <summary>The library's hop pass (TplEventSource + FrameworkEventSource: events on every suspension and work item).</summary>
    HopPass,

    /// <summary>The hop pass in windows: 1 s recorded in every 10 s, counters only between them (SessionOptions.HopDutyCycle 0.1).</summary>
    HopPassWindowed,

    /// <summary>The cpu pass: the sample profiler with stacks (about one sample per thread per millisecond), method events.</summary>
    CpuPass,
}

/// <summary>
/// What measuring costs: the same await-heavy work untraced and traced by each pass of the runtime library, side by side in
/// one run (compare the rows' means; allocated bytes show the TPL observer effect). The session attaches to this very
/// process through the public API and reads its events on this process's own threads, so the figure includes the
/// consumer's CPU on the shared cores: an upper bound for a tool running beside the app.
/// </summary>
[MemoryDiagnoser]
[FullRunJob]
[BenchmarkCategory(Category)]
public class TracingOverheadBenchmarks
{
    public const string Category = "tracing-overhead";

    private const int Awaits = 10_000;

    private readonly ManualResetEventSlim _recording = new();
    private CancellationTokenSource? _stop;
    private Task<AsyncCostReport>? _session;
    private decimal _price = 421.17m;

    [Params(TracedBy.Nothing, TracedBy.AllocationPass, TracedBy.HopPass)]
    public TracedBy Tracing { get; set; }

    [GlobalSetup]
    public void StartSession()
    {
        if (Tracing == TracedBy.Nothing)
        {
            return;
        }
        _stop = new CancellationTokenSource();
        var options = new SessionOptions
        {
            Passes = Tracing == TracedBy.AllocationPass ? MeasurementPasses.Allocations : MeasurementPasses.Hops,
            Progress = new Signal(_recording),
        };
        _session = AsyncCostSession.AttachAsync(Environment.ProcessId, options, _stop.Token);
        if (!_recording.Wait(TimeSpan.FromSeconds(30)) && _session.IsFaulted)
        {
            _session.GetAwaiter().GetResult(); // surface why the session did not start
        }
    }

    [GlobalCleanup]
    public void StopSession()
    {
        if (_stop is null || _session is null)
        {
            return;
        }
        _stop.Cancel();
        var report = _session.GetAwaiter().GetResult();
        var pass = report.Passes.Single();
        Console.WriteLine($"// {Tracing}: {pass.Events:N0} events, {pass.Bytes / 1e6:F1} MB of EventPipe stream in {pass.Duration.TotalSeconds:F1} s");
        _stop.Dispose();
    }

    /// <summary>Every await suspends (Task.Yield): one box and one thread-pool hop per await.</summary>
    [Benchmark(OperationsPerInvoke = Awaits)]
    public async Task<long> SuspendingAwaits()
    {
        long sum = 0;
        for (var i = 0; i < Awaits; i++)
        {
            sum += await YieldOnceAsync(i);
        }
        return sum;
    }

    /// <summary>Every await completes synchronously with an uncached Task&lt;decimal&gt;: allocation-heavy, no hops.</summary>
    [Benchmark(OperationsPerInvoke = Awaits)]
    public async Task<decimal> CompletedAwaits()
    {
        decimal sum = 0;
        for (var i = 0; i < Awaits; i++)
        {
            sum += await PriceAsync();
        }
        return sum;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static async Task<long> YieldOnceAsync(int value)
    {
        await Task.Yield();
        return value + 1;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private async Task<decimal> PriceAsync()
    {
        if (_price > 0)
        {
            return _price;
        }
        await Task.Yield();
        return 0;
    }

    /// <summary>Sets the event on the first progress report: the session is recording.</summary>
    private sealed class Signal(ManualResetEventSlim recording) : IProgress<SessionProgress>
    {
        public void Report(SessionProgress value) => recording.Set();
    }
}
