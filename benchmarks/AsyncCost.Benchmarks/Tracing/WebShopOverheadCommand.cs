using System.CommandLine;
using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Text.RegularExpressions;
using AsyncCost.InProcess;

namespace AsyncCost.Benchmarks.Tracing;

/// <summary>
/// `webshop-overhead [rounds] [seconds] [connections] [--side-by-side [--fresh-pairs]] [--attached] [--fixed] [--paced ms] [--variants a,b]`: what the in-process instrumentation
/// (AsyncCost.OpenTelemetry) costs a real service. samples/WebShop runs on loopback Kestrel four ways (AsyncCost:Instrumentation
/// off, default, allocations-always-on, hops-always-on), each with OpenTelemetry and its Prometheus exporter and a fixed pool of
/// worker threads, so only the instrumentation differs. The same bounded HTTP load (wrk when installed, else an HttpClient
/// loop; the same for all in a run) hits each. With taskset and two or more cores, the services and the load generator run on
/// separate cores (the load generator on the last), so they do not take each other's time. A run lasts whole duty-cycle
/// periods, so the default's windows in each period weigh what it weighs in production, and a short unmeasured lead-in
/// before each run wakes the server (its thread pool retires idle threads while the others are measured).
/// <para>In turn (the default), the variants are loaded one after another, interleaved per round, and each is compared with the
/// round's uninstrumented run: what the machine does between runs (±10 % on a shared VM) falls into the comparison.
/// <c>--side-by-side</c> loads each variant at the same time as an uninstrumented twin on the same core, one load generator
/// each, so both see the same machine; the uninstrumented twin beside a second uninstrumented service (A/A) shows what the
/// method itself cannot resolve. A process's CPU per request stays off its twin's for its life (an A/A pair read +0.6…+1.3 % in
/// every round of one run and −0.4…+0.2 % in another), so with <c>--fresh-pairs</c> every round starts each pair anew, the
/// variant first in odd rounds and its twin first in even ones: the offset then varies round to round and the median over
/// rounds no longer carries one pair's.</para>
/// <para>samples/WebShop blocks on <c>.Result</c> by design, and with its 32 workers on one core a quarter to 40 % of its CPU goes
/// to spinning in sched_yield (benchmarks/webshop-tiers.sh), which any change of timing moves; <c>--fixed</c> runs samples/WebShop.Fixed (the analyzer's
/// fixes, nothing blocks) instead, a service whose CPU is its work.</para>
/// <para>The load saturates the services' core unless <c>--paced ms</c>: then each connection pauses after every response, the
/// core has time to spare (its share is requests/s × CPU per request), and the comparison is that of a fleet's service,
/// which mostly runs below its capacity and finishes its tier-up.</para>
/// Prints requests/s and the service's CPU time per request per run with the load average beside it, then per variant the
/// medians and the median, min and max of its paired throughput losses and CPU-per-request increases against the
/// uninstrumented run it is paired with (side by side, the throughput loss is the one its CPU per request implies).
/// <c>--attached</c> measures the CLI's sessions instead: the variants are the service uninstrumented with `collect -p`'s
/// session (the library's AttachAsync at its defaults: allocation pass, then the windowed hop pass) attached for the whole
/// measured run, bounded by it (<c>attached</c>, as `--duration`) or alternating slices until stopped (<c>attached-unbounded</c>).
/// Build the sample first: dotnet build samples/WebShop -c Release.
/// </summary>
public static partial class WebShopOverheadCommand
{
    public const string Name = "webshop-overhead";

    private const string Baseline = "off";

    private static readonly string[] Variants = [Baseline, "default", "allocations-always-on", "hops-always-on"];

    /// <summary>In-process variants picked with <c>--variants</c>: the default instrumentation with other duty-cycle options
    /// (AsyncCost:Options, as a user would set them), so the parts of the default's cost are measured apart: each stream
    /// alone at its default window, the listener alive with both streams all but off (what runs all the time), and each
    /// stream's window once at start-up only (what a window leaves behind once it has closed).</summary>
    private static readonly Dictionary<string, Dictionary<string, string>> OptionVariants = new()
    {
        ["hops-window-only"] = new() { ["AllocationWindow"] = "00:00:00" },
        ["allocations-window-only"] = new() { ["HopWindow"] = "00:00:00" },
        ["streams-nearly-off"] = new() { ["HopWindow"] = "00:00:00", ["AllocationWindow"] = "00:00:00.1" },
        // The default's windows half as often.
        ["period-120"] = new() { ["Period"] = "00:02:00" },
        // The windows the default had until the partial-load runs of 2026-11-28 (then measured as "default", against
        // "windows-short", the default since).
        ["windows-1s-3s"] = new() { ["HopWindow"] = "00:00:01", ["AllocationWindow"] = "00:00:03" },
        // One window each at start-up (a period longer than any benchmark), none in the measured runs: what outlasts a window.
        ["hop-window-once"] = new() { ["AllocationWindow"] = "00:00:00", ["Period"] = OncePeriod },
        ["listener-only"] = new() { ["HopWindow"] = "00:00:00", ["AllocationWindow"] = "00:00:00.1", ["Period"] = OncePeriod },
    };

    /// <summary>The period of the variants whose windows open once, at start-up.</summary>
    private const string OncePeriod = "01:00:00";

    /// <summary>With --attached: the service uninstrumented, with `collect -p`'s session (AsyncCostSession.AttachAsync at its
    /// defaults) attached for the whole measured run: bounded by the run (--duration), or unbounded (slices until stopped).
    /// <c>--variants a,b</c> picks others: the parts of the default (each pass alone for the whole run) and the hop pass at
    /// other duty cycles, so each part's cost is measured on its own.</summary>
    private static readonly string[] AttachedVariants = [Baseline, "attached", "attached-unbounded"];

    /// <summary>Every attached variant: what AsyncCostSession.AttachAsync is given for the measured run (null Duration: the
    /// slices alternate until the run ends).</summary>
    private static readonly Dictionary<string, Func<TimeSpan, AsyncCost.Sessions.SessionOptions>> AttachedSessions = new()
    {
        ["attached"] = duration => new() { Duration = duration },
        ["attached-unbounded"] = _ => new(),
        ["allocations"] = duration => new() { Duration = duration, Passes = AsyncCost.Report.MeasurementPasses.Allocations },
        ["hops"] = duration => new() { Duration = duration, Passes = AsyncCost.Report.MeasurementPasses.Hops },
        ["hops-duty-0.05"] = duration => new() { Duration = duration, Passes = AsyncCost.Report.MeasurementPasses.Hops, HopDutyCycle = 0.05 },
        ["hops-duty-0.05-window-0.25"] = duration => new() { Duration = duration, Passes = AsyncCost.Report.MeasurementPasses.Hops, HopDutyCycle = 0.05, HopWindow = TimeSpan.FromSeconds(0.25) },
        ["attached-duty-0.05"] = duration => new() { Duration = duration, HopDutyCycle = 0.05 },
        ["attached-duty-0.05-window-0.25"] = duration => new() { Duration = duration, HopDutyCycle = 0.05, HopWindow = TimeSpan.FromSeconds(0.25) },
    };

    /// <summary>The sample's checkout with its default cart: the costly patterns the instrumentation measures.</summary>
    private const string RequestPath = "/checkout/1";

    /// <summary>Load before the rounds, per server: JIT, tiering and the thread pool settle.</summary>
    private static readonly TimeSpan WarmUp = TimeSpan.FromSeconds(12);

    /// <summary>Unmeasured load right before each measured run.</summary>
    private static readonly TimeSpan LeadIn = TimeSpan.FromSeconds(3);

    /// <summary>A measured run lasts a whole number of these: the default duty-cycle period.</summary>
    private static readonly TimeSpan Period = DutyCycle.Default.Period;

    /// <summary>One service's measured run: its throughput, its CPU time per request and the load average when it began.</summary>
    private sealed record Measured(double RequestsPerSecond, double CpuMicrosecondsPerRequest, string LoadAverage)
    {
        public string Cells => string.Create(CultureInfo.InvariantCulture, $"{RequestsPerSecond:N0} | {CpuMicrosecondsPerRequest:F1}");
    }

    public static int Run(string[] args)
    {
        var rounds = new Argument<int>("rounds") { Description = "Rounds; each measures every variant once.", DefaultValueFactory = _ => 5 };
        var seconds = new Argument<int>("seconds") { Description = "Seconds per measured run: whole duty-cycle periods.", DefaultValueFactory = _ => (int)Period.TotalSeconds };
        var connections = new Argument<int>("connections") { Description = "Keep-alive connections per service.", DefaultValueFactory = _ => 16 };
        var sideBySide = new Option<bool>("--side-by-side") { Description = "Load each variant at the same time as an uninstrumented twin on the same core." };
        var freshPairs = new Option<bool>("--fresh-pairs") { Description = "Start every side-by-side pair anew each round." };
        var attached = new Option<bool>("--attached") { Description = "Measure the CLI's sessions attached from outside instead of the in-process instrumentation." };
        var fixedShop = new Option<bool>("--fixed") { Description = "Run samples/WebShop.Fixed (nothing blocks) instead of samples/WebShop." };
        var variants = new Option<string[]>("--variants") { Description = "Variants to measure beside the uninstrumented one (comma-separated).", CustomParser = r => [.. r.Tokens.SelectMany(t => t.Value.Split(','))] };
        var paced = new Option<int?>("--paced") { Description = "A partial load: each connection waits this many milliseconds after every response (wrk only)." };
        var command = new Command(Name, "What the in-process instrumentation, or an attached session, costs samples/WebShop.")
        {
            rounds, seconds, connections, sideBySide, freshPairs, attached, fixedShop, variants, paced,
        };
        command.SetAction(parse => Measure(new Settings(
            parse.GetValue(rounds), parse.GetValue(seconds), parse.GetValue(connections), parse.GetValue(sideBySide),
            parse.GetValue(freshPairs), parse.GetValue(attached), parse.GetValue(fixedShop), parse.GetValue(variants), parse.GetValue(paced))));
        return new RootCommand { command }.Parse([Name, .. args]).Invoke();
    }

    /// <summary>One invocation's choices: see <see cref="Run"/>'s options.</summary>
    private sealed record Settings(int Rounds, int Seconds, int Connections, bool SideBySide, bool FreshPairs, bool Attached, bool FixedShop, string[]? Chosen, int? PacedMilliseconds);

    private static int Measure(Settings settings)
    {
        var (rounds, seconds, connections, sideBySide, freshPairs, attached, fixedShop, chosen, pacedMilliseconds) = settings;
        string[] variants = chosen is null ? (attached ? AttachedVariants : Variants) : [Baseline, .. chosen.Where(v => v != Baseline)];
        string[] known = attached ? [.. AttachedSessions.Keys] : [.. Variants, .. OptionVariants.Keys];
        if (chosen?.FirstOrDefault(v => v != Baseline && !known.Contains(v)) is { } unknown)
        {
            Console.Error.WriteLine($"unknown variant '{unknown}'; known: {string.Join(", ", known)}");
            return 2;
        }
        if (rounds < 1 || seconds < 1 || connections < 1 || pacedMilliseconds < 1)
        {
            Console.Error.WriteLine("rounds, seconds, connections and --paced must be at least 1.");
            return 2;
        }
        if (freshPairs && !sideBySide)
        {
            Console.Error.WriteLine("--fresh-pairs starts each side-by-side pair anew every round: give --side-by-side too.");
            return 2;
        }
        if (pacedMilliseconds is not null && !File.Exists("/usr/bin/wrk"))
        {
            Console.Error.WriteLine("--paced needs wrk (apt-get install wrk): the HttpClient fallback does not pace its requests.");
            return 2;
        }
        if (!attached && variants.Select(VariantPeriod).FirstOrDefault(p => p > TimeSpan.Zero && seconds % (int)p.TotalSeconds != 0) is { Ticks: > 0 } period)
        {
            Console.Error.WriteLine($"{seconds} s per run is not a whole number of duty-cycle periods ({period.TotalSeconds:0} s): "
                + "the runs would hold the windows more or less often than the service does.");
            return 2;
        }
        var sample = fixedShop ? "WebShop.Fixed" : "WebShop";
        var shop = WebShopDll(sample);
        if (!File.Exists(shop))
        {
            Console.Error.WriteLine($"{shop} is missing: build it first (dotnet build samples/{sample} -c Release).");
            return 2;
        }
        var cores = CorePlacement.Choose();
        ILoadGenerator load = File.Exists("/usr/bin/wrk") ? new Wrk(connections, pacedMilliseconds, cores) : new HttpClientLoop(connections);
        var duration = TimeSpan.FromSeconds(seconds);
        Console.WriteLine($"samples/{sample} on loopback, GET {RequestPath}; load: {load.Describe} per service; {seconds} s per run after a {LeadIn.TotalSeconds:0} s lead-in, "
            + $"{rounds} rounds, " + (sideBySide ? "each variant loaded side by side with an uninstrumented twin" + (freshPairs ? ", every pair started anew each round" : "") : "variants in turn, interleaved")
            + $"; {CorePlacement.MachineCores} cores, {cores.Describe}; .NET {Environment.Version}.");

        // Side by side, every variant (the baseline too: A/A) has an uninstrumented twin of its own; fresh pairs start in the rounds.
        var servers = freshPairs ? [] : variants.Select(variant => Server.Start(shop, variant, cores)).ToList();
        var twins = sideBySide && !freshPairs ? variants.Select(_ => Server.Start(shop, Baseline, cores)).ToList() : null;
        List<Server> everyServer = [.. servers, .. twins ?? []];
        try
        {
            foreach (var server in everyServer)
            {
                load.Run(server.Url(RequestPath), WarmUp);
            }
            var pairs = variants.ToDictionary(v => v, _ => new List<(Measured Run, Measured Off)>());
            Console.WriteLine();
            Console.WriteLine(!sideBySide
                ? "| Round | " + string.Join(" | ", variants.Select(v => $"{v} req/s | µs CPU/req | load")) + " |"
                : "| Round | " + string.Join(" | ", variants.Select(v => $"{v} req/s | µs CPU/req | its twin req/s | µs CPU/req | load")) + " |");
            Console.WriteLine("|--:|" + string.Concat(variants.Select(_ => !sideBySide ? "--:|--:|--:|" : "--:|--:|--:|--:|--:|")));
            for (var round = 1; round <= rounds; round++)
            {
                var cells = new List<string>();
                if (freshPairs)
                {
                    foreach (var variant in variants)
                    {
                        var both = MeasureFreshPair(shop, variant, cores, load, duration, twinFirst: round % 2 == 0);
                        pairs[variant].Add((both[0], both[1]));
                        cells.Add($"{both[0].Cells} | {both[1].Cells} | {both[0].LoadAverage}");
                    }
                }
                else if (!sideBySide)
                {
                    var runs = servers.Select(server => MeasureTogether([server], load, duration)[0]).ToList();
                    for (var i = 0; i < servers.Count; i++)
                    {
                        pairs[servers[i].Variant].Add((runs[i], runs[0]));
                        cells.Add($"{runs[i].Cells} | {runs[i].LoadAverage}");
                    }
                }
                else
                {
                    for (var i = 0; i < servers.Count; i++)
                    {
                        var both = MeasureTogether([servers[i], twins![i]], load, duration);
                        pairs[servers[i].Variant].Add((both[0], both[1]));
                        cells.Add($"{both[0].Cells} | {both[1].Cells} | {both[0].LoadAverage}");
                    }
                }
                Console.WriteLine($"| {round} | {string.Join(" | ", cells)} |");
            }

            Console.WriteLine();
            // Side by side, the two services of a pair serve the same requests/s whatever each costs: every request waits
            // in the one core's run queue, and both load generators keep the same number of requests in flight. What
            // differs is the CPU time each spends per request, so the loss is the one that cost implies on a saturated
            // core (1 − twin's CPU/req ÷ variant's); in turn, it is the measured throughput's. Paced, the load asks for the
            // same requests/s of both, and that ratio is the capacity the variant would lose once its core saturated.
            Console.WriteLine(!sideBySide
                ? "| Instrumentation | Median req/s | Min | Max | Paired throughput loss vs off: median (min – max) | Median µs CPU/req | Paired CPU/req increase vs off: median (min – max) |"
                : $"| Instrumentation | Median req/s | Min | Max | {(pacedMilliseconds is null ? "Throughput loss on a saturated core" : "Capacity loss (the paced load does not saturate)")}, implied by CPU/req: median (min – max) | Median µs CPU/req | Paired CPU/req increase vs its twin: median (min – max) |");
            Console.WriteLine("|---|--:|--:|--:|--:|--:|--:|");
            foreach (var (variant, runs) in pairs)
            {
                var throughput = runs.Select(r => r.Run.RequestsPerSecond).ToList();
                var compared = sideBySide || variant != Baseline;
                var loss = !compared ? "-"
                    : Spread(runs.Select(r => !sideBySide
                        ? 1 - (r.Run.RequestsPerSecond / r.Off.RequestsPerSecond)
                        : 1 - (r.Off.CpuMicrosecondsPerRequest / r.Run.CpuMicrosecondsPerRequest)));
                var cpuIncrease = compared ? Spread(runs.Select(r => (r.Run.CpuMicrosecondsPerRequest / r.Off.CpuMicrosecondsPerRequest) - 1)) : "-";
                var label = sideBySide && variant == Baseline ? $"{Baseline} (A/A: beside a second uninstrumented service)" : variant;
                Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                    $"| {label} | {TracingOverheadCommand.Median(throughput):N0} | {throughput.Min():N0} | {throughput.Max():N0} | {loss} | {TracingOverheadCommand.Median(runs.Select(r => r.Run.CpuMicrosecondsPerRequest)):F1} | {cpuIncrease} |"));
            }
            return 0;
        }
        finally
        {
            foreach (var server in everyServer)
            {
                server.Dispose();
            }
        }
    }

    /// <summary>A new variant and twin, warmed up together, measured side by side, then stopped: [variant, twin].</summary>
    private static Measured[] MeasureFreshPair(string shop, string variant, CorePlacement cores, ILoadGenerator load, TimeSpan duration, bool twinFirst)
    {
        Server? server = null, twin = null;
        try
        {
            if (twinFirst)
            {
                twin = Server.Start(shop, Baseline, cores);
                server = Server.Start(shop, variant, cores);
            }
            else
            {
                server = Server.Start(shop, variant, cores);
                twin = Server.Start(shop, Baseline, cores);
            }
            RunAtOnce([server, twin], load, WarmUp);
            return MeasureTogether([server, twin], load, duration);
        }
        finally
        {
            server?.Dispose();
            twin?.Dispose();
        }
    }

    /// <summary>A lead-in, then one measured run of every given service at once, each under its own load generator; an
    /// "attached" service has a session attached from the tool's library for the measured run.</summary>
    private static Measured[] MeasureTogether(IReadOnlyList<Server> servers, ILoadGenerator load, TimeSpan duration)
    {
        RunAtOnce(servers, load, LeadIn);
        var loadAverage = LoadAverage();
        var cpuBefore = servers.Select(s => s.CpuTime()).ToList();
        using var stopUnbounded = new CancellationTokenSource(duration);
        var toolCpuBefore = Process.GetCurrentProcess().TotalProcessorTime;
        var sessions = servers.Where(s => AttachedSessions.ContainsKey(s.Variant)).Select(server => Task.Run(() =>
        {
            var options = AttachedSessions[server.Variant](duration);
            return AsyncCost.Sessions.AsyncCostSession.AttachAsync(server.ProcessId, options, options.Duration is null ? stopUnbounded.Token : CancellationToken.None);
        })).ToList();
        var requestsPerSecond = RunAtOnce(servers, load, duration);
        foreach (var session in sessions)
        {
            // What the report itself says its hop windows cost, beside the measured figure.
            var report = session.GetAwaiter().GetResult();
            var cost = report.Warnings.FirstOrDefault(w => w.Code == "hop-windows")?.Message;
            Console.Error.WriteLine($"  attached ({report.StopReason}, {report.Duration.TotalSeconds:F1} s recorded): {cost ?? "no hop-windows warning"}");
        }
        if (sessions.Count > 0)
        {
            // The tool's own CPU (this process: the sessions' reading and parsing; the load generators are other processes).
            var toolCpu = Process.GetCurrentProcess().TotalProcessorTime - toolCpuBefore;
            Console.Error.WriteLine(string.Create(CultureInfo.InvariantCulture, $"  tool CPU: {toolCpu.TotalMilliseconds / duration.TotalSeconds:F0} ms per second of the run"));
        }
        return [.. servers.Select((server, i) => new Measured(
            requestsPerSecond[i],
            (server.CpuTime() - cpuBefore[i]).TotalMicroseconds / (requestsPerSecond[i] * duration.TotalSeconds),
            loadAverage))];
    }

    private static double[] RunAtOnce(IReadOnlyList<Server> servers, ILoadGenerator load, TimeSpan duration) =>
        Task.WhenAll(servers.Select(server => Task.Run(() => load.Run(server.Url(RequestPath), duration)))).GetAwaiter().GetResult();

    /// <summary>"median (min – max)" of paired ratios, as percentages.</summary>
    private static string Spread(IEnumerable<double> values)
    {
        var list = values.ToList();
        return string.Create(CultureInfo.InvariantCulture, $"{TracingOverheadCommand.Median(list):P1} ({list.Min():P1} – {list.Max():P1})");
    }

    /// <summary>A variant's duty-cycle period, which its runs must hold whole; zero for one whose windows open once, at start-up.</summary>
    private static TimeSpan VariantPeriod(string variant) => OptionVariants.GetValueOrDefault(variant)?.GetValueOrDefault("Period") switch
    {
        OncePeriod => TimeSpan.Zero,
        { } period => TimeSpan.Parse(period, CultureInfo.InvariantCulture),
        null => Period,
    };

    /// <summary>The 1-minute load average, as uptime prints it (what else ran while the round ran).</summary>
    private static string LoadAverage() => File.ReadAllText("/proc/loadavg").Split(' ')[0];

    private static string WebShopDll(string sample)
    {
        for (var directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, "AsyncCost.sln")))
            {
                return Path.Combine(directory.FullName, "samples", sample, "bin", "Release", "net10.0", sample + ".dll");
            }
        }
        throw new InvalidOperationException("AsyncCost.sln not found above " + AppContext.BaseDirectory);
    }

    /// <summary>One WebShop process on a free loopback port, with one instrumentation setting.</summary>
    private sealed class Server : IDisposable
    {
        private readonly Process _process;
        private readonly int _port;

        private Server(Process process, int port, string variant) => (_process, _port, Variant) = (process, port, variant);

        public string Variant { get; }

        public int ProcessId => _process.Id;

        public Uri Url(string path) => new($"http://127.0.0.1:{_port.ToString(CultureInfo.InvariantCulture)}{path}");

        public static Server Start(string dll, string variant, CorePlacement cores)
        {
            var port = FreePort();
            var start = CorePlacement.StartInfo(cores.Service, ["dotnet", dll, "--urls", $"http://127.0.0.1:{port.ToString(CultureInfo.InvariantCulture)}"]);
            start.RedirectStandardOutput = true;
            start.RedirectStandardError = true;
            // An attached variant runs uninstrumented: the session attached from outside is what is measured.
            start.Environment["AsyncCost__Instrumentation"] = AttachedSessions.ContainsKey(variant) ? Baseline
                : OptionVariants.ContainsKey(variant) ? "default"
                : variant;
            foreach (var (option, value) in OptionVariants.GetValueOrDefault(variant) ?? [])
            {
                start.Environment[$"AsyncCost__Options__{option}"] = value;
            }
            // Kestrel's per-request Information logs would cost more than what is measured.
            start.Environment["Logging__LogLevel__Default"] = "Warning";
            // The sample blocks on .Result by design: its throughput follows the pool's thread injection and retirement more
            // than anything measured here (±30 % run to run). A fixed pool of 32 workers (hex; 16 connections) takes that out.
            start.Environment["DOTNET_ThreadPool_ForceMinWorkerThreads"] = "0x20";
            start.Environment["DOTNET_ThreadPool_ForceMaxWorkerThreads"] = "0x20";
            var process = Process.Start(start)!;
            process.OutputDataReceived += (_, _) => { };
            process.ErrorDataReceived += (_, e) => { if (e.Data is not null) { Console.Error.WriteLine($"[{variant}] {e.Data}"); } };
            process.BeginOutputReadLine();
            process.BeginErrorReadLine();
            var server = new Server(process, port, variant);
            server.WaitUntilAnswering();
            return server;
        }

        /// <summary>CPU time the service has used so far (user and system): per request, what a fleet pays in capacity,
        /// unmoved by time the core spent on anything else.</summary>
        public TimeSpan CpuTime()
        {
            _process.Refresh();
            return _process.TotalProcessorTime;
        }

        public void Dispose()
        {
            if (!_process.HasExited)
            {
                _process.Kill(entireProcessTree: true);
                _process.WaitForExit();
            }
            _process.Dispose();
        }

        private void WaitUntilAnswering()
        {
            using var http = new HttpClient { Timeout = TimeSpan.FromSeconds(2) };
            var clock = Stopwatch.StartNew();
            while (true)
            {
                try
                {
                    using var response = http.GetAsync(Url(RequestPath)).GetAwaiter().GetResult();
                    if (response.IsSuccessStatusCode)
                    {
                        return;
                    }
                }
                catch (HttpRequestException) when (!_process.HasExited && clock.Elapsed < TimeSpan.FromSeconds(60))
                {
                    Thread.Sleep(200);
                    continue;
                }
                throw new InvalidOperationException($"WebShop ({Variant}) did not answer on port {_port} (exited: {_process.HasExited}).");
            }
        }

        private static int FreePort()
        {
            using var listener = new TcpListener(IPAddress.Loopback, 0);
            listener.Start();
            return ((IPEndPoint)listener.LocalEndpoint).Port;
        }
    }

    /// <summary>A bounded HTTP load against one URL: requests per second over the run.</summary>
    private interface ILoadGenerator
    {
        string Describe { get; }

        double Run(Uri url, TimeSpan duration);
    }

    /// <summary>wrk with one thread and a fixed number of keep-alive connections; paced, each connection waits a fixed time
    /// after every response (wrk's Lua <c>delay()</c>), so the service serves what the connections ask and not what its
    /// core can: a partial load, as a fleet's services mostly run.</summary>
    private sealed partial class Wrk(int connections, int? pacedMilliseconds, CorePlacement cores) : ILoadGenerator
    {
        public string Describe => $"wrk -t1 -c{connections}" + (pacedMilliseconds is { } pause ? $", each connection pausing {pause} ms after every response" : "");

        public double Run(Uri url, TimeSpan duration)
        {
            var script = pacedMilliseconds is { } pause ? Path.Combine(Path.GetTempPath(), $"webshop-overhead-{Environment.ProcessId}-{Guid.NewGuid():N}.lua") : null;
            try
            {
                if (script is not null)
                {
                    File.WriteAllText(script, $"function delay() return {pacedMilliseconds!.Value.ToString(CultureInfo.InvariantCulture)} end\n");
                }
                string[] pacing = script is null ? [] : ["-s", script];
                var start = CorePlacement.StartInfo(cores.LoadGenerator, ["wrk", "-t1", $"-c{connections}", $"-d{(int)Math.Ceiling(duration.TotalSeconds)}s", .. pacing, url.ToString()]);
                start.RedirectStandardOutput = true;
                using var wrk = Process.Start(start)!;
                var output = wrk.StandardOutput.ReadToEnd();
                wrk.WaitForExit();
                if (RequestsPerSecond().Match(output) is not { Success: true } match || NonSuccess().IsMatch(output))
                {
                    throw new InvalidOperationException($"wrk failed or saw errors:\n{output}");
                }
                return double.Parse(match.Groups[1].Value, CultureInfo.InvariantCulture);
            }
            finally
            {
                if (script is not null)
                {
                    File.Delete(script);
                }
            }
        }

        [GeneratedRegex(@"Requests/sec:\s+([\d.]+)")]
        private static partial Regex RequestsPerSecond();

        [GeneratedRegex(@"Non-2xx or 3xx responses|Socket errors")]
        private static partial Regex NonSuccess();
    }

    /// <summary>The fallback without wrk: as many HttpClient loops as connections, each one request at a time.</summary>
    private sealed class HttpClientLoop(int connections) : ILoadGenerator
    {
        public string Describe => $"HttpClient, {connections} concurrent loops (wrk not installed)";

        public double Run(Uri url, TimeSpan duration)
        {
            using var http = new HttpClient(new SocketsHttpHandler { MaxConnectionsPerServer = connections });
            var clock = Stopwatch.StartNew();
            var loops = Enumerable.Range(0, connections).Select(_ => Task.Run(async () =>
            {
                long done = 0;
                while (clock.Elapsed < duration)
                {
                    using var response = await http.GetAsync(url).ConfigureAwait(false);
                    response.EnsureSuccessStatusCode();
                    done++;
                }
                return done;
            })).ToArray();
            var requests = Task.WhenAll(loops).GetAwaiter().GetResult().Sum();
            return requests / clock.Elapsed.TotalSeconds;
        }
    }

    /// <summary>Which cores the services and the load generator run on (taskset -c); null where they share all cores.</summary>
    private sealed record CorePlacement(string? Service, string? LoadGenerator)
    {
        public string Describe => Service is null ? "services and load generator share them (no taskset, or one core)" : $"services on cpu {Service}, load generator on cpu {LoadGenerator}";

        public static CorePlacement Choose()
        {
            var count = MachineCores;
            return count < 2 || !File.Exists("/usr/bin/taskset")
                ? new CorePlacement(null, null)
                : new CorePlacement(count == 2 ? "0" : $"0-{count - 2}", (count - 1).ToString(CultureInfo.InvariantCulture));
        }

        /// <summary>The machine's cores, not this process's: the benchmark may itself run under taskset (on the load
        /// generator's core, so the tool's own parsing does not take the services' core), and its children choose their own.</summary>
        public static int MachineCores
        {
            get
            {
                // "/sys/devices/system/cpu/online" reads like "0-1" or "0-3,6".
                var online = File.Exists("/sys/devices/system/cpu/online") ? File.ReadAllText("/sys/devices/system/cpu/online").Trim() : "";
                var count = online.Split(',', StringSplitOptions.RemoveEmptyEntries).Sum(range => range.Split('-') is [var first, var last]
                    ? int.Parse(last, CultureInfo.InvariantCulture) - int.Parse(first, CultureInfo.InvariantCulture) + 1
                    : 1);
                return count > 0 ? count : Environment.ProcessorCount;
            }
        }

        /// <summary>A command line, under taskset when pinned to the given cpus.</summary>
        public static ProcessStartInfo StartInfo(string? cpus, string[] commandLine) =>
            cpus is null ? new ProcessStartInfo(commandLine[0], commandLine[1..]) : new ProcessStartInfo("taskset", ["-c", cpus, .. commandLine]);
    }
}
