using System.Diagnostics;
using System.Globalization;
using System.Text.Json;
using AsyncCost.Report;
using AsyncCost.Sessions;

namespace AsyncCost.Benchmarks.Tracing;

/// <summary>
/// `tracing-overhead [rounds] [count]`: the ground-truth workload (tests/AsyncCost.Workload) run untraced and traced by each pass,
/// out of process as the CLI traces it, interleaved round by round so machine noise hits all modes alike. The workload
/// times its own loop (Stopwatch around N operations), so process start-up and session set-up are not counted.
/// Prints a markdown table: median and best operations per second per mode, the slowdowns against the untraced run
/// (median vs median; best vs best, the least disturbed runs on a shared machine), events lost, the method's hops against
/// the thread pool's own completed work items (hop passes), and the load average over the runs of each mode.
/// </summary>
public static class TracingOverheadCommand
{
    public const string Name = "tracing-overhead";

    private static readonly TracedBy[] AllModes = [TracedBy.Nothing, TracedBy.AllocationPass, TracedBy.HopPass, TracedBy.HopPassWindowed, TracedBy.CpuPass];

    /// <summary>The workloads and the modes each runs. The long yield run is for the windowed hop pass and the cpu pass: the
    /// windowed pass's 10 s cycle (1 s window, 9 s untraced) needs a run of many seconds to show its steady cost, and the
    /// continuous hop pass would take minutes on it.</summary>
    private static readonly (string Scenario, int Count, string What, TracedBy[] Modes)[] Workloads =
    [
        // 2 M calls: the continuous hop pass writes ~14 events per call, ~0.5 GB of trace to spool and parse.
        ("yield", 2_000_000, "await Task.Yield() per call: one box + one thread-pool hop", AllModes),
        ("yield", 100_000_000, "the same, long enough for several hop windows", [TracedBy.Nothing, TracedBy.HopPassWindowed, TracedBy.CpuPass]),
        ("task-sync", 5_000_000, "await of a synchronously completed Task<decimal>: one 80 B task per call", AllModes),
    ];

    private static readonly JsonSerializerOptions Json = new(JsonSerializerDefaults.Web);

    public static int Run(string[] args)
    {
        var rounds = args.Length > 0 ? int.Parse(args[0], CultureInfo.InvariantCulture) : 5;
        var workload = Path.Combine(AppContext.BaseDirectory, "AsyncCost.Workload.dll");
        Console.WriteLine("| Workload | Mode | Median ops/s | Min | Max | Slowdown (medians) | Slowdown (best runs) | Events/s | Lost events | Hops / work items | Load |");
        Console.WriteLine("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
        var only = args.Length > 1 ? args[1] : null;
        foreach (var (scenario, count, what, modes) in Workloads.Where(w => only is null || w.Count.ToString(CultureInfo.InvariantCulture) == only))
        {
            var samples = modes.ToDictionary(mode => mode, _ => new List<Sample>());
            for (var round = 0; round < rounds; round++)
            {
                foreach (var mode in samples.Keys)
                {
                    samples[mode].Add(RunOnce(workload, scenario, count, mode));
                }
            }
            var baseline = Median(samples[TracedBy.Nothing].Select(s => s.OpsPerSecond));
            var best = samples[TracedBy.Nothing].Max(s => s.OpsPerSecond);
            foreach (var (mode, runs) in samples)
            {
                var median = Median(runs.Select(r => r.OpsPerSecond));
                var hops = mode is TracedBy.HopPass or TracedBy.HopPassWindowed
                    ? string.Join(" ", runs.Select(r => r.WorkItems > 0 ? string.Create(CultureInfo.InvariantCulture, $"{r.MethodHops / r.WorkItems:P1}") : "-"))
                    : "";
                Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                    $"| {scenario} {count:N0} ({what}) | {mode} | {median:N0} | {runs.Min(r => r.OpsPerSecond):N0} | {runs.Max(r => r.OpsPerSecond):N0} | {(baseline / median - 1):P1} | {(best / runs.Max(r => r.OpsPerSecond) - 1):P1} | {Median(runs.Select(r => r.EventsPerSecond)):N0} | {runs.Max(r => r.Lost):N0} | {hops} | {runs.Min(r => r.Load):0.0}–{runs.Max(r => r.Load):0.0} |"));
            }
        }
        Console.WriteLine($"{rounds} interleaved rounds per mode; {Environment.ProcessorCount} cores; .NET {Environment.Version}.");
        return 0;
    }

    /// <summary>One run: the workload's own throughput, the session's event rate and losses, and the workload's method's hops
    /// (scaled when windowed) against the work items the thread pool completed in the run.</summary>
    private sealed record Sample(double OpsPerSecond, double EventsPerSecond, long Lost, double MethodHops, double WorkItems, double Load);

    private static Sample RunOnce(string workload, string scenario, int count, TracedBy mode)
    {
        var load = double.Parse(File.ReadAllText("/proc/loadavg").Split(' ')[0], CultureInfo.InvariantCulture);
        var lines = new List<string>();
        string[] arguments = [workload, scenario, count.ToString(CultureInfo.InvariantCulture)];
        double eventsPerSecond = 0, methodHops = 0;
        long lost = 0;
        if (mode == TracedBy.Nothing)
        {
            var start = new ProcessStartInfo("dotnet", arguments) { RedirectStandardOutput = true };
            using var process = Process.Start(start)!;
            lines.AddRange(process.StandardOutput.ReadToEnd().Split('\n'));
            process.WaitForExit();
        }
        else
        {
            var command = new LaunchCommand { FileName = "dotnet", Arguments = arguments, StandardOutput = line => { lock (lines) { lines.Add(line); } } };
            var options = new SessionOptions
            {
                Passes = mode switch
                {
                    TracedBy.AllocationPass => MeasurementPasses.Allocations,
                    TracedBy.CpuPass => MeasurementPasses.Cpu,
                    _ => MeasurementPasses.Hops,
                },
                HopDutyCycle = mode == TracedBy.HopPassWindowed ? 0.1 : 1,
            };
            var report = AsyncCostSession.LaunchAsync(command, options).GetAwaiter().GetResult();
            var pass = report.Passes.Single();
            eventsPerSecond = pass.Events / pass.Duration.TotalSeconds;
            lost = pass.EventsLost;
            methodHops = report.Methods.Where(m => m.MethodKey.StartsWith("AsyncCost.Workload.", StringComparison.Ordinal)).Sum(m => m.Hops?.Value ?? 0);
        }
        var result = lines.Last(l => l.StartsWith("RESULT ", StringComparison.Ordinal));
        using var document = JsonDocument.Parse(result["RESULT ".Length..]);
        var truth = document.RootElement;
        return new Sample(truth.GetProperty("opsPerSecond").GetDouble(), eventsPerSecond, lost, methodHops, truth.GetProperty("completedWorkItems").GetDouble(), load);
    }

    internal static double Median(IEnumerable<double> values)
    {
        var sorted = values.Order().ToArray();
        return sorted.Length % 2 == 1 ? sorted[sorted.Length / 2] : (sorted[(sorted.Length / 2) - 1] + sorted[sorted.Length / 2]) / 2;
    }
}
