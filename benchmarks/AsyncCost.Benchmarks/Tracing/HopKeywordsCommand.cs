using System.Diagnostics;
using System.Diagnostics.Tracing;
using System.Globalization;
using System.Text.Json;
using AsyncCost.Attribution;
using AsyncCost.Events;
using AsyncCost.Sessions;
using Microsoft.Diagnostics.NETCore.Client;
using Microsoft.Diagnostics.Tracing;

namespace AsyncCost.Benchmarks.Tracing;

/// <summary>
/// `hop-keywords [rounds] [scale] [sets|all] [buffer MB]`: what each candidate hop-pass keyword set writes per hop, and what it costs. Runs the
/// ground-truth workload (tests/AsyncCost.Workload `yield N`, `tcs-handoff N`) untraced and traced with each set,
/// interleaved round by round (untraced, set 1, untraced, set 2, ...) so each traced run has an untraced neighbour on a
/// shared machine. The session reads the stream in this process with the tool's own reader, as the CLI would.
/// Prints a markdown table per scenario: events and bytes per call, lost events, the hops the reader attributes to the
/// scenario's method against the thread pool's own completed work items, and the slowdown against the untraced runs
/// (median of the per-pair ratios), with the load average beside each figure.
/// </summary>
public static class HopKeywordsCommand
{
    public const string Name = "hop-keywords";

    private const long TaskTransfer = 0x1, Tasks = 0x2, Causality = 0x8, SynchronousWork = 0x20, TaskStops = 0x40;
    private const long ThreadPoolKeywords = KnownEvents.FrameworkKeywords;

    /// <summary>The candidate sets: TplEventSource keywords and level, with or without FrameworkEventSource's work-item events.</summary>
    private static readonly (string Name, long TplKeywords, EventLevel TplLevel, bool ThreadPool)[] Sets =
    [
        ("Transfer|Tasks|Causality|Stops V + pool (before)", TaskTransfer | Tasks | Causality | TaskStops, EventLevel.Verbose, true),
        ("Transfer|Tasks|Causality V + pool", TaskTransfer | Tasks | Causality, EventLevel.Verbose, true),
        ("Tasks|Causality V + pool", Tasks | Causality, EventLevel.Verbose, true),
        ("Causality|SyncWork I + pool", Causality | SynchronousWork, EventLevel.Informational, true),
        ("Causality|SyncWork I", Causality | SynchronousWork, EventLevel.Informational, false),
        ("Causality I + pool", Causality, EventLevel.Informational, true),
        ("pool only", 0, EventLevel.Informational, true),
    ];

    private static readonly (string Scenario, int Count, string Method)[] Workloads =
    [
        ("yield", 1_000_000, "<YieldOnceAsync>"),
        ("tcs-handoff", 500_000, "<HandoffAsync>"),
    ];

    public static int Run(string[] args)
    {
        var rounds = args.Length > 0 ? int.Parse(args[0], CultureInfo.InvariantCulture) : 3;
        var scale = args.Length > 1 ? double.Parse(args[1], CultureInfo.InvariantCulture) : 1;
        var only = args.Length > 2 && args[2] != "all" ? args[2].Split(',').Select(s => int.Parse(s, CultureInfo.InvariantCulture)).ToHashSet() : null;
        var bufferMb = args.Length > 3 ? int.Parse(args[3], CultureInfo.InvariantCulture) : PassProviders.BufferSizeMb;
        var workload = Path.Combine(AppContext.BaseDirectory, "AsyncCost.Workload.dll");
        foreach (var (scenario, fullCount, method) in Workloads)
        {
            var count = (int)(fullCount * scale);
            var runs = Sets.Select(_ => new List<Measured>()).ToArray();
            for (var round = 0; round < rounds; round++)
            {
                for (var set = 0; set < Sets.Length; set++)
                {
                    if (only is not null && !only.Contains(set))
                    {
                        continue;
                    }
                    var untraced = RunOnce(workload, scenario, count, method, set: null, bufferMb);
                    var traced = RunOnce(workload, scenario, count, method, set, bufferMb);
                    runs[set].Add(traced with { Slowdown = untraced.OpsPerSecond / traced.OpsPerSecond - 1, UntracedOpsPerSecond = untraced.OpsPerSecond });
                }
            }
            Console.WriteLine();
            Console.WriteLine($"{scenario} {count:N0} (medians of {rounds} A B pairs; {bufferMb} MB session buffer)");
            Console.WriteLine("| Keyword set | Events/call (read + lost) | Bytes/call (read) | Lost events | Method hops / work items | Untraced ops/s | Traced ops/s | Slowdown | Load |");
            Console.WriteLine("|---|--:|--:|--:|--:|--:|--:|--:|--:|");
            for (var set = 0; set < Sets.Length; set++)
            {
                var r = runs[set];
                if (r.Count == 0)
                {
                    continue;
                }
                Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                    $"| {Sets[set].Name.Replace("|", "\\|", StringComparison.Ordinal)} | {Median(r, x => (double)(x.Events + x.Lost) / count):F2} | {Median(r, x => (double)x.Bytes / count):F1} | {Median(r, x => x.Lost):N0} | {Median(r, x => x.MethodHops):N0} / {Median(r, x => x.WorkItems):N0} | {Median(r, x => x.UntracedOpsPerSecond):N0} | {Median(r, x => x.OpsPerSecond):N0} | {Median(r, x => x.Slowdown):P0} | {r.Min(x => x.Load):0.0}–{r.Max(x => x.Load):0.0} |"));
            }
            for (var set = 0; set < Sets.Length; set++)
            {
                if (runs[set].Count > 0)
                {
                    var last = runs[set][^1];
                    Console.WriteLine($"  {Sets[set].Name}: " + string.Join(", ", last.ByEvent.OrderByDescending(e => e.Value).Select(e => string.Create(CultureInfo.InvariantCulture, $"{e.Key} {(double)e.Value / count:F2}"))));
                }
            }
        }
        Console.WriteLine($"{Environment.ProcessorCount} cores; .NET {Environment.Version}.");
        return 0;
    }

    private sealed record Measured(double OpsPerSecond, long Events, long Bytes, long Lost, long MethodHops, long WorkItems, double Load, Dictionary<string, long> ByEvent)
    {
        public double Slowdown { get; init; }
        public double UntracedOpsPerSecond { get; init; }
    }

    private static Measured RunOnce(string workload, string scenario, int count, string method, int? set, int bufferMb)
    {
        var load = LoadAverage();
        var start = new ProcessStartInfo("dotnet") { RedirectStandardInput = true, RedirectStandardOutput = true };
        foreach (var argument in new[] { workload, scenario, count.ToString(CultureInfo.InvariantCulture), "--wait" })
        {
            start.ArgumentList.Add(argument);
        }
        using var process = Process.Start(start)!;
        process.StandardOutput.ReadLine(); // READY <pid>
        EventPipeSession? session = null;
        Task<(EventReader Reader, long Bytes, Dictionary<string, long> ByEvent)>? reading = null;
        if (set is { } index)
        {
            session = new DiagnosticsClient(process.Id).StartEventPipeSession(
                new EventPipeSessionConfiguration(Providers(Sets[index]), bufferMb, Sessions.Providers.RundownKeywords, requestStackwalk: false));
            reading = Task.Factory.StartNew(() => Read(session.EventStream), TaskCreationOptions.LongRunning);
        }
        process.StandardInput.WriteLine();
        var result = "";
        while (process.StandardOutput.ReadLine() is { } line)
        {
            result = line.StartsWith("RESULT ", StringComparison.Ordinal) ? line["RESULT ".Length..] : result;
        }
        process.WaitForExit();
        using var document = JsonDocument.Parse(result);
        var truth = document.RootElement;
        var ops = truth.GetProperty("opsPerSecond").GetDouble();
        var workItems = truth.GetProperty("completedWorkItems").GetInt64();
        if (reading is null)
        {
            return new Measured(ops, 0, 0, 0, 0, workItems, load, []);
        }
        var (reader, bytes, byEvent) = reading.GetAwaiter().GetResult();
        session!.Dispose();
        var methodHops = reader.Hops.Results().Where(m => m.StateMachineName.StartsWith(method, StringComparison.Ordinal)).Sum(m => m.Hops);
        return new Measured(ops, reader.Events, bytes, reader.EventsLost, methodHops, workItems, load, byEvent);
    }

    private static (EventReader Reader, long Bytes, Dictionary<string, long> ByEvent) Read(Stream stream)
    {
        var counting = new CountingStream(stream, copy: null);
        var reader = new EventReader(new MethodCatalog());
        var byEvent = new Dictionary<string, long>(StringComparer.Ordinal);
        using (var source = new EventPipeEventSource(counting))
        {
            source.AllEvents += e =>
            {
                if (e.ProviderName is KnownEvents.TplProvider or KnownEvents.FrameworkProvider)
                {
                    var key = e.EventName;
                    byEvent[key] = byEvent.GetValueOrDefault(key) + 1;
                }
            };
            try
            {
                reader.Process(source);
            }
            catch (Exception e) when (e is EndOfStreamException or IOException)
            {
                // The process exited mid-block: what was read is kept.
            }
        }
        return (reader, counting.BytesRead, byEvent);
    }

    private static EventPipeProvider[] Providers((string Name, long TplKeywords, EventLevel TplLevel, bool ThreadPool) set)
    {
        var providers = new List<EventPipeProvider>
        {
            new(KnownEvents.RuntimeProvider, EventLevel.Verbose, KnownEvents.LoaderKeyword | KnownEvents.JitKeyword),
        };
        if (set.TplKeywords != 0)
        {
            providers.Add(new EventPipeProvider(KnownEvents.TplProvider, set.TplLevel, set.TplKeywords));
        }
        if (set.ThreadPool)
        {
            providers.Add(new EventPipeProvider(KnownEvents.FrameworkProvider, EventLevel.Verbose, ThreadPoolKeywords));
        }
        return [.. providers];
    }

    private static double LoadAverage()
        => double.Parse(File.ReadAllText("/proc/loadavg").Split(' ')[0], CultureInfo.InvariantCulture);

    private static double Median(IEnumerable<Measured> runs, Func<Measured, double> value)
    {
        var sorted = runs.Select(value).Order().ToArray();
        return sorted.Length % 2 == 1 ? sorted[sorted.Length / 2] : (sorted[(sorted.Length / 2) - 1] + sorted[sorted.Length / 2]) / 2;
    }
}
