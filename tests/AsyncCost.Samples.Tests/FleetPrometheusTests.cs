using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Text.Json;
using Xunit.Abstractions;

namespace AsyncCost.Samples.Tests;

/// <summary>
/// The fleet view end to end: two WebShop instances saturated by a bounded loopback load, one real Prometheus (Debian's
/// package; .ci/run installs it) scraping both every second, and PromQL through its HTTP API. The known costly method
/// (Stock.ReserveAsync, one box per cart line) must come out on top, with bytes per request within ±15 % of what one call
/// allocates measured in-process, summed over both instances; and hops and blocking waits per request within ±10 % of what
/// the checkout's code does (samples/WebShop/Checkout.cs). Saturated, each instance runs several times slower while its
/// hop window is open than between windows: a count scaled by time would come out that many times low.
/// </summary>
[Collection(BuiltSamplesDefinition.Name)]
public sealed class FleetPrometheusTests(BuiltSamples samples, ITestOutputHelper output) : IDisposable
{
    private const string CostlyMethod = "WebShop.Stock.ReserveAsync";
    private const string CouponMethod = "WebShop.Discounts.LoadCouponAsync";
    private const string CheckoutMethod = "WebShop.Checkout.CheckoutAsync";
    private const int LinesPerRequest = 100;
    // What one checkout does, by its code (samples/WebShop): Checkout.CheckoutAsync reserves each cart line with one
    // Stock.ReserveAsync call (one Task.Yield: one hop), streams Discounts.CouponsPerCustomer coupons through
    // Discounts.LoadCouponAsync (one Task.Yield each), and blocks once on GetDiscountAsync(customer).Result.
    private const int CouponsPerCustomer = 3;
    private const int BlockingWaitsPerRequest = 1;
    // Four requests in flight per core: both instances are saturated (each request is CPU work between its yields). Not many
    // more: a request must be short next to a hop window, since a checkout whose box was created before the window opened
    // cannot be named in it (its blocking wait goes unattributed).
    private static readonly int Clients = 4 * Environment.ProcessorCount;
    private static readonly TimeSpan LoadTime = TimeSpan.FromSeconds(20);
    // Bounded, and enough that the load outlasts several periods: 200,000 took 20 s at load 13 here (two saturated
    // instances), and a load cut short leaves the bytes of its last part (after its last allocation window) to be split by
    // the idle window that follows (−20 % in one CI run with 6 s of load).
    private const int MaxRequests = 500_000;

    private readonly string _workDirectory = Directory.CreateTempSubdirectory("asynccost-fleet-").FullName;
    private readonly List<Process> _processes = [];
    private readonly HttpClient _http = new() { Timeout = TimeSpan.FromSeconds(10) };

    [Fact]
    public async Task Prometheus_ranks_the_costly_method_first_with_its_true_bytes_hops_and_blocking_waits_per_request_over_both_saturated_instances()
    {
        Assert.True(samples.Build.ExitCode == 0, $"samples build failed: {samples.Build}");
        var prometheus = FindPrometheus();
        var webShop = Repository.SampleAssembly("WebShop");
        var truthPerCall = double.Parse(
            (await DotnetCommand.RunAsync([webShop, "--allocation-truth", "300000"], TimeSpan.FromMinutes(1))).StandardOutput.Trim(),
            CultureInfo.InvariantCulture);

        Uri[] shops = [StartWebShop(webShop), StartWebShop(webShop)];
        var prometheusUrl = StartPrometheus(prometheus, shops);
        foreach (var shop in shops)
        {
            await WaitUntilAnswers(new Uri(shop, "checkout/1"));
        }
        await WaitUntilAnswers(new Uri(prometheusUrl, "-/ready"));

        // Warm up (JIT, price cache), then let every instance be scraped at rest: the baseline, once the warm-up's last
        // span has been attributed (else its bytes would count as the load's).
        await LoadAsync(shops, TimeSpan.FromSeconds(2), MaxRequests);
        var before = await SettledBytesByInstanceAsync(prometheusUrl, shops.Length);
        var countsBefore = await HopCountsAsync(prometheusUrl);

        var loadStarted = DateTime.UtcNow;
        var requests = await LoadAsync(shops, LoadTime, MaxRequests);
        var loadEnded = DateTimeOffset.UtcNow;
        var rate = requests / (loadEnded.UtcDateTime - loadStarted).TotalSeconds;
        // The last events are read and scraped: the windows after the load close the spans the load ended in.
        var after = await SettledBytesByInstanceAsync(prometheusUrl, shops.Length);
        var countsAfter = await HopCountsAsync(prometheusUrl);

        var ranking = await QueryAsync(prometheusUrl,
            "sort_desc(sum by (method) (rate(asynccost_method_allocated_bytes_total[30s])))", loadEnded);
        Assert.True(ranking.Count > 1, "Prometheus has the methods' series");
        Assert.Equal(CostlyMethod, ranking[0].Labels["method"]);

        Assert.Equal(shops.Length, after.Count);
        var increases = after.ToDictionary(a => a.Key, a => a.Value - before.GetValueOrDefault(a.Key));
        foreach (var (instance, increase) in increases)
        {
            Assert.True(increase > 0, $"{instance} served load but its bytes did not grow");
        }
        var total = (await QueryAsync(prometheusUrl, $"sum(asynccost_method_allocated_bytes_total{{method=\"{CostlyMethod}\"}})", DateTimeOffset.UtcNow)).Single().Value;
        Assert.Equal(after.Values.Sum(), total, precision: 0);

        var bytesPerRequest = increases.Values.Sum() / requests;
        var truth = truthPerCall * LinesPerRequest;
        output.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"{requests} requests; {CostlyMethod}: {bytesPerRequest:F0} B/request through Prometheus, truth {truth:F0} ({truthPerCall:F1} B/call x {LinesPerRequest}); by instance: {string.Join(", ", increases.Select(i => $"{i.Key} {i.Value:F0} B"))}"));
        Assert.InRange(bytesPerRequest, truth * 0.85, truth * 1.15);

        // Hops and blocking waits per request: both counted in the same hop windows, each window's count per thread-pool
        // work item scaled by the work items the pool completed, which does not depend on how fast the service ran.
        (string Figure, double Truth)[] truths =
        [
            ($"asynccost_method_hops_total{{method=\"{CostlyMethod}\"}}", LinesPerRequest),
            ($"asynccost_method_hops_total{{method=\"{CouponMethod}\"}}", CouponsPerCustomer),
            ($"asynccost_method_blocking_waits_total{{method=\"{CheckoutMethod}\"}}", BlockingWaitsPerRequest),
        ];
        var perRequest = truths.Select(t => (t.Figure, t.Truth, Measured: (countsAfter[t.Figure] - countsBefore.GetValueOrDefault(t.Figure)) / requests)).ToList();
        output.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"{requests} requests at {rate:F0}/s from {Clients} clients (load {File.ReadAllText("/proc/loadavg").Split(' ')[0]}): {string.Join("; ", perRequest.Select(p => $"{p.Figure} {p.Measured:F3}/request, truth {p.Truth}"))}"));
        foreach (var (figure, truthPerRequest, measured) in perRequest)
        {
            Assert.True(Math.Abs(measured - truthPerRequest) <= truthPerRequest * 0.10,
                string.Create(CultureInfo.InvariantCulture, $"{figure}: {measured:F3} per request, the code does {truthPerRequest}"));
        }
    }

    public void Dispose()
    {
        foreach (var process in _processes)
        {
            try
            {
                process.Kill(entireProcessTree: true);
                process.WaitForExit(5_000);
            }
            catch (InvalidOperationException)
            {
                // already exited
            }
            process.Dispose();
        }
        _http.Dispose();
        Directory.Delete(_workDirectory, recursive: true);
    }

    private static string FindPrometheus()
    {
        var path = (Environment.GetEnvironmentVariable("PATH") ?? "").Split(Path.PathSeparator)
            .Select(directory => Path.Combine(directory, "prometheus"))
            .FirstOrDefault(File.Exists);
        Assert.True(path is not null, "prometheus is not installed (Debian: apt-get install prometheus; ./build.sh test installs it).");
        return path;
    }

    private static int FreeLoopbackPort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }

    private Uri StartWebShop(string assembly)
    {
        var url = new Uri($"http://127.0.0.1:{FreeLoopbackPort()}/");
        var start = new ProcessStartInfo(Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") ?? "dotnet")
        {
            ArgumentList = { assembly, "--urls", url.ToString().TrimEnd('/') },
            Environment =
            {
                ["Logging__LogLevel__Default"] = "Warning",
                // The default duty cycle's period shortened from a minute to 4 s, so a 20 s load spans several periods; the
                // default hop window (0.25 s), allocations 2.25 s (the load after its last window, charged to an idle one, is
                // at most the 1.45 s of quiet that follow).
                ["AsyncCost__Options__Period"] = "00:00:04",
                ["AsyncCost__Options__AllocationWindow"] = "00:00:02.25",
            },
        };
        Start(start);
        return url;
    }

    private Uri StartPrometheus(string prometheus, Uri[] shops)
    {
        var config = Path.Combine(_workDirectory, "prometheus.yml");
        File.WriteAllText(config, $"""
            global:
              scrape_interval: 1s
              evaluation_interval: 1s
            scrape_configs:
              - job_name: webshop
                static_configs:
                  - targets: [{string.Join(", ", shops.Select(s => $"'{s.Authority}'"))}]
            """);
        var url = new Uri($"http://127.0.0.1:{FreeLoopbackPort()}/");
        Start(new ProcessStartInfo(prometheus)
        {
            ArgumentList =
            {
                "--config.file=" + config,
                "--storage.tsdb.path=" + Path.Combine(_workDirectory, "data"),
                "--web.listen-address=" + url.Authority,
            },
        });
        return url;
    }

    /// <summary>Starts a child whose output is drained (a full pipe would stall it) and killed at the end.</summary>
    private void Start(ProcessStartInfo start)
    {
        start.RedirectStandardOutput = true;
        start.RedirectStandardError = true;
        var process = Process.Start(start) ?? throw new InvalidOperationException($"could not start {start.FileName}");
        _processes.Add(process);
        process.OutputDataReceived += (_, _) => { };
        process.ErrorDataReceived += (_, _) => { };
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
    }

    private async Task WaitUntilAnswers(Uri url)
    {
        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(30);
        while (true)
        {
            try
            {
                using var response = await _http.GetAsync(url);
                if (response.IsSuccessStatusCode)
                {
                    return;
                }
            }
            catch (HttpRequestException) when (DateTime.UtcNow < deadline)
            {
            }
            Assert.True(DateTime.UtcNow < deadline, $"{url} did not answer within 30 s");
            await Task.Delay(200);
        }
    }

    /// <summary>Checkouts from <see cref="Clients"/> concurrent clients, alternating instances, until the time or the count runs out;
    /// returns how many were served.</summary>
    private async Task<long> LoadAsync(Uri[] shops, TimeSpan time, int maxRequests)
    {
        long started = 0, served = 0;
        var deadline = DateTime.UtcNow + time;
        var clients = Enumerable.Range(0, Clients).Select(async _ =>
        {
            long n;
            while (DateTime.UtcNow < deadline && (n = Interlocked.Increment(ref started)) <= maxRequests)
            {
                using var response = await _http.GetAsync(new Uri(shops[n % shops.Length], $"checkout/{n}?items={LinesPerRequest}"));
                response.EnsureSuccessStatusCode();
                Interlocked.Increment(ref served);
            }
        });
        await Task.WhenAll(clients);
        return served;
    }

    /// <summary>The hop and blocking-wait counters of both instances, summed, by series.</summary>
    private async Task<Dictionary<string, double>> HopCountsAsync(Uri prometheus) =>
        (await QueryAsync(prometheus, $"sum by (__name__, method) ({{__name__=~\"asynccost_method_(hops|blocking_waits)_total\", method=~\"{CostlyMethod}|{CouponMethod}|{CheckoutMethod}\"}})", DateTimeOffset.UtcNow))
            .ToDictionary(r => $"{r.Labels["__name__"]}{{method=\"{r.Labels["method"]}\"}}", r => r.Value);

    /// <summary>
    /// The bytes by instance once every instance was scraped and they stood still for longer than a period (three reads
    /// 2.5 s apart; a minute at most): with no load, only late samples can still add to them. A scrape that outlasts its
    /// 1 s interval on a loaded machine fails, and Prometheus marks that instance's series stale until the next one
    /// succeeds; and on a busy machine the runtime delivers allocation samples seconds late, each attributed at the next
    /// window's close, as is the span in which a load ended.
    /// </summary>
    private async Task<Dictionary<string, double>> SettledBytesByInstanceAsync(Uri prometheus, int instances)
    {
        var bytes = await BytesByInstanceAsync(prometheus);
        for (int waited = 0, still = 0; waited < 24 && still < 2; waited++)
        {
            await Task.Delay(TimeSpan.FromSeconds(2.5));
            var next = await BytesByInstanceAsync(prometheus);
            still = next.Count == instances && bytes.Count == instances && next.All(n => bytes.GetValueOrDefault(n.Key) == n.Value) ? still + 1 : 0;
            bytes = next;
        }
        return bytes;
    }

    private async Task<Dictionary<string, double>> BytesByInstanceAsync(Uri prometheus) =>
        (await QueryAsync(prometheus, $"sum by (instance) (asynccost_method_allocated_bytes_total{{method=\"{CostlyMethod}\"}})", DateTimeOffset.UtcNow))
            .ToDictionary(r => r.Labels["instance"], r => r.Value);

    private async Task<List<(Dictionary<string, string> Labels, double Value)>> QueryAsync(Uri prometheus, string query, DateTimeOffset at)
    {
        var url = new Uri(prometheus, $"api/v1/query?query={Uri.EscapeDataString(query)}&time={at.ToUnixTimeMilliseconds() / 1000.0:F3}");
        using var document = JsonDocument.Parse(await _http.GetStringAsync(url));
        Assert.Equal("success", document.RootElement.GetProperty("status").GetString());
        return [.. document.RootElement.GetProperty("data").GetProperty("result").EnumerateArray().Select(r => (
            r.GetProperty("metric").EnumerateObject().ToDictionary(p => p.Name, p => p.Value.GetString() ?? ""),
            double.Parse(r.GetProperty("value")[1].GetString()!, CultureInfo.InvariantCulture)))];
    }
}
