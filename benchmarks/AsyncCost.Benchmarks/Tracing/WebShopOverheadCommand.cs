using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Text.RegularExpressions;
using AsyncCost.InProcess;

namespace AsyncCost.Benchmarks.Tracing;

/// <summary>
/// `webshop-overhead [rounds] [seconds] [connections]`: what the in-process instrumentation (AsyncCost.OpenTelemetry) costs a
/// real service. samples/WebShop runs on loopback Kestrel four ways (AsyncCost:Instrumentation off, default,
/// allocations-always-on, hops-always-on), each with OpenTelemetry and its Prometheus exporter and a fixed pool of
/// worker threads, so only the instrumentation differs. The same bounded HTTP load (wrk when installed, else an HttpClient
/// loop; the same for all in a run) hits each in turn, interleaved per round so machine noise falls on all alike. With taskset and two or more cores, the services and the load generator
/// run on separate cores (the load generator on the last), so they do not take each other's time. A run lasts whole duty-cycle
/// periods, so the default's windows in each period weigh what it weighs in production, and a short unmeasured lead-in
/// before each run wakes the server (its thread pool retires idle threads while the others are measured). Prints
/// requests/s per round with the load average beside it, then per variant the median requests/s and the median of the
/// rounds' throughput losses against the uninstrumented run of the same round.
/// Build the sample first: dotnet build samples/WebShop -c Release.
/// </summary>
public static partial class WebShopOverheadCommand
{
    public const string Name = "webshop-overhead";

    private static readonly string[] Variants = ["off", "default", "allocations-always-on", "hops-always-on"];

    /// <summary>The sample's checkout with its default cart: the costly patterns the instrumentation measures.</summary>
    private const string RequestPath = "/checkout/1";

    /// <summary>Load before the rounds, per server: JIT, tiering and the thread pool settle.</summary>
    private static readonly TimeSpan WarmUp = TimeSpan.FromSeconds(12);

    /// <summary>Unmeasured load right before each measured run.</summary>
    private static readonly TimeSpan LeadIn = TimeSpan.FromSeconds(3);

    /// <summary>A measured run lasts a whole number of these: the default duty-cycle period.</summary>
    private static readonly TimeSpan Period = DutyCycle.Default.Period;

    public static int Run(string[] args)
    {
        var rounds = args.Length > 0 ? int.Parse(args[0], CultureInfo.InvariantCulture) : 5;
        var seconds = args.Length > 1 ? int.Parse(args[1], CultureInfo.InvariantCulture) : (int)Period.TotalSeconds;
        var connections = args.Length > 2 ? int.Parse(args[2], CultureInfo.InvariantCulture) : 16;
        if (rounds < 1 || seconds < 1 || connections < 1)
        {
            Console.Error.WriteLine($"usage: {Name} [rounds (5)] [seconds per run ({Period.TotalSeconds:0})] [connections (16)]");
            return 2;
        }
        if (seconds % (int)Period.TotalSeconds != 0)
        {
            Console.Error.WriteLine($"{seconds} s per run is not a whole number of duty-cycle periods ({Period.TotalSeconds:0} s): "
                + "the default's runs would hold its windows more or less often than the service does.");
            return 2;
        }
        var shop = WebShopDll();
        if (!File.Exists(shop))
        {
            Console.Error.WriteLine($"{shop} is missing: build it first (dotnet build samples/WebShop -c Release).");
            return 2;
        }
        var cores = CorePlacement.Choose();
        ILoadGenerator load = File.Exists("/usr/bin/wrk") ? new Wrk(connections, cores) : new HttpClientLoop(connections);
        Console.WriteLine($"samples/WebShop on loopback, GET {RequestPath}; load: {load.Describe}; {seconds} s per run after a {LeadIn.TotalSeconds:0} s lead-in, "
            + $"{rounds} rounds (variants interleaved); {Environment.ProcessorCount} cores, {cores.Describe}; .NET {Environment.Version}.");

        var servers = Variants.Select(variant => Server.Start(shop, variant, cores)).ToList();
        try
        {
            foreach (var server in servers)
            {
                load.Run(server.Url(RequestPath), WarmUp);
            }
            var perVariant = Variants.ToDictionary(v => v, _ => new List<double>());
            Console.WriteLine();
            Console.WriteLine("| Round | " + string.Join(" | ", Variants.Select(v => $"{v} req/s | load")) + " |");
            Console.WriteLine("|--:|" + string.Concat(Variants.Select(_ => "--:|--:|")));
            for (var round = 1; round <= rounds; round++)
            {
                var cells = new List<string>();
                foreach (var server in servers)
                {
                    load.Run(server.Url(RequestPath), LeadIn);
                    var loadAverage = LoadAverage();
                    var requestsPerSecond = load.Run(server.Url(RequestPath), TimeSpan.FromSeconds(seconds));
                    perVariant[server.Variant].Add(requestsPerSecond);
                    cells.Add(string.Create(CultureInfo.InvariantCulture, $"{requestsPerSecond:N0} | {loadAverage}"));
                }
                Console.WriteLine($"| {round} | {string.Join(" | ", cells)} |");
            }

            Console.WriteLine();
            Console.WriteLine("| Instrumentation | Median req/s | Min | Max | Median loss vs off (paired by round) |");
            Console.WriteLine("|---|--:|--:|--:|--:|");
            var baseline = perVariant["off"];
            foreach (var (variant, runs) in perVariant)
            {
                var loss = variant == "off" ? "-" : string.Create(CultureInfo.InvariantCulture, $"{TracingOverheadCommand.Median(runs.Select((r, i) => 1 - (r / baseline[i]))):P1}");
                Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"| {variant} | {TracingOverheadCommand.Median(runs):N0} | {runs.Min():N0} | {runs.Max():N0} | {loss} |"));
            }
            return 0;
        }
        finally
        {
            foreach (var server in servers)
            {
                server.Dispose();
            }
        }
    }

    /// <summary>The 1-minute load average, as uptime prints it (what else ran while the round ran).</summary>
    private static string LoadAverage() => File.ReadAllText("/proc/loadavg").Split(' ')[0];

    private static string WebShopDll()
    {
        for (var directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, "AsyncCost.sln")))
            {
                return Path.Combine(directory.FullName, "samples", "WebShop", "bin", "Release", "net10.0", "WebShop.dll");
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

        public Uri Url(string path) => new($"http://127.0.0.1:{_port.ToString(CultureInfo.InvariantCulture)}{path}");

        public static Server Start(string dll, string variant, CorePlacement cores)
        {
            var port = FreePort();
            var start = CorePlacement.StartInfo(cores.Service, ["dotnet", dll, "--urls", $"http://127.0.0.1:{port.ToString(CultureInfo.InvariantCulture)}"]);
            start.RedirectStandardOutput = true;
            start.RedirectStandardError = true;
            start.Environment["AsyncCost__Instrumentation"] = variant;
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

    /// <summary>wrk with one thread and a fixed number of keep-alive connections.</summary>
    private sealed partial class Wrk(int connections, CorePlacement cores) : ILoadGenerator
    {
        public string Describe => $"wrk -t1 -c{connections}";

        public double Run(Uri url, TimeSpan duration)
        {
            var start = CorePlacement.StartInfo(cores.LoadGenerator, ["wrk", "-t1", $"-c{connections}", $"-d{(int)Math.Ceiling(duration.TotalSeconds)}s", url.ToString()]);
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
            var count = Environment.ProcessorCount;
            return count < 2 || !File.Exists("/usr/bin/taskset")
                ? new CorePlacement(null, null)
                : new CorePlacement(count == 2 ? "0" : $"0-{count - 2}", (count - 1).ToString(CultureInfo.InvariantCulture));
        }

        /// <summary>A command line, under taskset when pinned to the given cpus.</summary>
        public static ProcessStartInfo StartInfo(string? cpus, string[] commandLine) =>
            cpus is null ? new ProcessStartInfo(commandLine[0], commandLine[1..]) : new ProcessStartInfo("taskset", ["-c", cpus, .. commandLine]);
    }
}
