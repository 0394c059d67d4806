using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Text.Json;
using Xunit.Abstractions;

namespace AsyncCost.Samples.Tests;

/// <summary>
/// The fleet view end to end: two WebShop instances under a bounded loopback load, one real Prometheus (Debian's package;
/// .ci/run installs it) scraping both every second, and PromQL through its HTTP API. The known costly method
/// (Stock.ReserveAsync, one box per cart line) must come out on top, with bytes per request within ±15 % of what one call
/// allocates measured in-process, summed over both instances.
/// </summary>
[Collection(BuiltSamplesDefinition.Name)]
public sealed class FleetPrometheusTests(BuiltSamples samples, ITestOutputHelper output) : IDisposable
{
    private const string CostlyMethod = "WebShop.Stock.ReserveAsync";
    private const int LinesPerRequest = 100;
    private static readonly TimeSpan LoadTime = TimeSpan.FromSeconds(15);
    // Bounded, and enough that the load outlasts several periods: 60,000 took about 6 s here, and the bytes of the load's
    // last ~0.9 s (after its last allocation window) were split by the idle window that followed, −20 % in one CI run.
    private const int MaxRequests = 200_000;

    private readonly string _workDirectory = Directory.CreateTempSubdirectory("asynccost-fleet-").FullName;
    private readonly List<Process> _processes = [];
    private readonly HttpClient _http = new() { Timeout = TimeSpan.FromSeconds(10) };

    [Fact]
    public async Task Prometheus_ranks_the_costly_method_first_with_its_true_bytes_per_request_over_both_instances()
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

        // Warm up (JIT, price cache), then let every instance be scraped at rest: the baseline.
        await LoadAsync(shops, TimeSpan.FromSeconds(2), MaxRequests);
        await Task.Delay(TimeSpan.FromSeconds(4));
        var before = await BytesByInstanceAsync(prometheusUrl);

        var requests = await LoadAsync(shops, LoadTime, MaxRequests);
        var loadEnded = DateTimeOffset.UtcNow;
        await Task.Delay(TimeSpan.FromSeconds(4)); // the last events are read and scraped
        var after = await BytesByInstanceAsync(prometheusUrl);

        var ranking = await QueryAsync(prometheusUrl,
            "sort_desc(sum by (method) (rate(asynccost_method_allocated_bytes_total[30s])))", loadEnded);
        Assert.True(ranking.Count > 1, "Prometheus has the methods' series");
        Assert.Equal(CostlyMethod, ranking[0].Labels["method"]);

        Assert.Equal(2, after.Count);
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
                // The default duty cycle shortened from a minute to 2 s, so a 15 s load spans several periods. Hops 100 ms (the
                // shortest window; their time is charged at the rate outside them, and the service is slower while TPL is on, so
                // longer windows or a shorter period push the bytes up), allocations 1.5 s (the load after
                // its last window, charged to an idle one, is at most the 350 ms of quiet that follow).
                ["AsyncCost__Options__Period"] = "00:00:02",
                ["AsyncCost__Options__HopWindow"] = "00:00:00.1",
                ["AsyncCost__Options__AllocationWindow"] = "00:00:01.5",
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

    /// <summary>Checkouts from a few concurrent clients, alternating instances, until the time or the count runs out;
    /// returns how many were served.</summary>
    private async Task<long> LoadAsync(Uri[] shops, TimeSpan time, int maxRequests)
    {
        long started = 0, served = 0;
        var deadline = DateTime.UtcNow + time;
        var clients = Enumerable.Range(0, 8).Select(async _ =>
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
