using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using System.Text.Json.Nodes;

namespace AsyncCost.Samples.Tests;

/// <summary>
/// Per request on a service: samples/WebShop (real Kestrel on a loopback port) under a bounded load of checkouts and of a
/// path it does not serve, attached with `collect -p`. Each pass counts the requests Kestrel's events saw complete as its
/// operations, per endpoint (the id segment collapsed), so the report, its figures and compare are per request. Counts only:
/// what a checkout does is its code's (samples/WebShop/Checkout.cs), how fast it ran is the machine's.
/// </summary>
[Collection(BuiltSamplesDefinition.Name)]
public sealed class WebShopPerRequestTests(BuiltSamples samples) : IDisposable
{
    // Each checkout reserves its cart's lines one Stock.ReserveAsync call (one Task.Yield: it suspends) after another.
    private const int LinesPerCheckout = 10;
    private const int Clients = 4;
    private const int MaxRequests = 200_000;
    private const string Checkout = "GET /checkout/{id}";
    private const string Missing = "GET /missing/{id}";
    private static readonly TimeSpan RunTimeout = TimeSpan.FromMinutes(3);

    private readonly DirectoryInfo _directory = Directory.CreateTempSubdirectory("asynccost-web-requests-");
    private readonly HttpClient _http = new() { Timeout = TimeSpan.FromSeconds(10) };
    private Process? _service;

    [Fact]
    public async Task Attached_to_the_web_sample_each_pass_counts_the_requests_it_saw_complete_as_its_operations_per_endpoint()
    {
        Assert.True(samples.Build.ExitCode == 0, $"samples build failed: {samples.Build}");
        var url = await StartWebShopAsync();
        using var stop = new CancellationTokenSource();
        var load = LoadAsync(url, stop.Token);
        var output = Path.Combine(_directory.FullName, "webshop");
        // The hop pass traced continuously (--hop-duty 1): its calls are counted, not scaled from windows.
        var collect = await RunToolAsync("collect", "-p", _service!.Id.ToString(System.Globalization.CultureInfo.InvariantCulture), "--duration", "6s",
            "--passes", "allocations,hops", "--hop-duty", "1", "--format", "json", "-o", output);
        await stop.CancelAsync();
        var (served, missing) = await load;
        Assert.True(collect.ExitCode == 0, collect.ToString());
        Assert.True(served > 0 && missing > 0, $"the load served {served} checkouts and {missing} missing pages");

        var report = JsonNode.Parse(await File.ReadAllTextAsync(output + ".json"))!;
        var passes = report["passes"]!.AsArray();
        Assert.Equal(["allocations", "hops"], passes.Select(p => (string)p!["pass"]!));
        long seen = 0;
        foreach (var pass in passes)
        {
            var requests = pass!["requests"]!;
            var completed = (long)requests["completed"]!;
            var endpoints = requests["endpoints"]!.AsArray();
            // The pass's operations are its requests, every one of them under an endpoint.
            Assert.Equal(("request", completed), ((string)pass["operationKind"]!, (long)pass["operations"]!));
            Assert.True(completed > 0, pass.ToJsonString());
            Assert.Equal(completed, endpoints.Sum(e => (long)e!["requests"]!));
            Assert.Equal([Checkout, Missing], endpoints.Select(e => (string)e!["endpoint"]!).Order(StringComparer.Ordinal));
            Assert.InRange((long)requests["timed"]!, 1, completed);
            foreach (var endpoint in endpoints)
            {
                var distribution = endpoint!["milliseconds"]!;
                Assert.InRange((long)distribution["samples"]!, 1, (long)endpoint["requests"]!);
                double p50 = (double)distribution["p50"]!["milliseconds"]!, p90 = (double)distribution["p90"]!["milliseconds"]!, p99 = (double)distribution["p99"]!["milliseconds"]!;
                Assert.True(p50 <= p90 && p90 <= p99, distribution.ToJsonString());
                Assert.True((double)distribution["p50"]!["lowerMilliseconds"]! <= p50 && p50 <= (double)distribution["p50"]!["upperMilliseconds"]!, distribution.ToJsonString());
                Assert.NotNull(distribution["mean"]);
            }
            seen += completed;
        }
        // Every request a pass counted was one the load sent (at most one per client was still in flight when it stopped).
        Assert.True(seen <= served + missing + Clients, $"{seen} requests seen, {served + missing} answered");

        // Per request, in the hop pass's own requests: the checkouts' ReserveAsync calls, one per line. A call or request in
        // flight at the pass's edges is counted on one side only (at most a line per client each).
        var hopPass = passes[1]!;
        var checkouts = (long)hopPass["requests"]!["endpoints"]!.AsArray().Single(e => (string)e!["endpoint"]! == Checkout)!["requests"]!;
        var reserve = report["methods"]!.AsArray().Single(m => (string)m!["methodKey"]! == "WebShop.Stock.ReserveAsync")!;
        var calls = (double)reserve["suspendingCalls"]!["value"]!;
        Assert.InRange(calls / checkouts, LinesPerCheckout * 0.9, LinesPerCheckout * 1.1);

        // The report says so, with the endpoint table; compare of the run with itself is per request.
        var text = await RunToolAsync(["report", .. passes.SelectMany(p => p!["traceFiles"]!.AsArray().Select(f => (string)f!)), "--wide"]);
        Assert.True(text.ExitCode == 0, text.ToString());
        Assert.Contains("Per request: each pass's operations are the requests it saw complete", text.StandardOutput, StringComparison.Ordinal);
        Assert.Contains("Requests per endpoint (allocations pass)", text.StandardOutput, StringComparison.Ordinal);
        Assert.Contains(Checkout, text.StandardOutput, StringComparison.Ordinal);
        var compare = await RunToolAsync("compare", output + ".json", output + ".json");
        Assert.True(compare.ExitCode == 0, compare.ToString());
        Assert.Contains("Before and after, per request", compare.StandardOutput, StringComparison.Ordinal);
        Assert.Contains("Throughput (req/s)", compare.StandardOutput, StringComparison.Ordinal);
    }

    /// <summary>Checkouts, one request in ten to a page the service does not have (404), from <see cref="Clients"/> clients
    /// until stopped or <see cref="MaxRequests"/> were sent; returns the checkouts served and the 404s answered.</summary>
    private async Task<(long Served, long Missing)> LoadAsync(Uri url, CancellationToken stop)
    {
        long sent = 0, served = 0, missing = 0;
        var clients = Enumerable.Range(0, Clients).Select(async _ =>
        {
            long n;
            while (!stop.IsCancellationRequested && (n = Interlocked.Increment(ref sent)) <= MaxRequests)
            {
                var notServed = n % 10 == 0;
                using var response = await _http.GetAsync(new Uri(url, notServed ? $"missing/{n}" : $"checkout/{n}?items={LinesPerCheckout}"), CancellationToken.None);
                if (notServed)
                {
                    Assert.Equal(HttpStatusCode.NotFound, response.StatusCode);
                    Interlocked.Increment(ref missing);
                }
                else
                {
                    response.EnsureSuccessStatusCode();
                    Interlocked.Increment(ref served);
                }
            }
        });
        await Task.WhenAll(clients);
        return (served, missing);
    }

    private async Task<Uri> StartWebShopAsync()
    {
        int port;
        using (var listener = new TcpListener(IPAddress.Loopback, 0))
        {
            listener.Start();
            port = ((IPEndPoint)listener.LocalEndpoint).Port;
        }
        var url = new Uri($"http://127.0.0.1:{port}/");
        var start = new ProcessStartInfo(Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") ?? "dotnet")
        {
            ArgumentList = { Repository.SampleAssembly("WebShop"), "--urls", url.ToString().TrimEnd('/') },
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            Environment =
            {
                ["Logging__LogLevel__Default"] = "Warning",
                // No in-process instrumentation: its own TPL listener would be another session in the process.
                ["AsyncCost__Instrumentation"] = "off",
            },
        };
        _service = Process.Start(start) ?? throw new InvalidOperationException($"could not start {start.FileName}");
        _service.OutputDataReceived += (_, _) => { };
        _service.ErrorDataReceived += (_, _) => { };
        _service.BeginOutputReadLine();
        _service.BeginErrorReadLine();
        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(30);
        while (true)
        {
            try
            {
                using var response = await _http.GetAsync(new Uri(url, "checkout/1"));
                if (response.IsSuccessStatusCode)
                {
                    return url;
                }
            }
            catch (HttpRequestException) when (DateTime.UtcNow < deadline && !_service.HasExited)
            {
            }
            Assert.True(DateTime.UtcNow < deadline && !_service.HasExited, $"WebShop did not answer on {url} within 30 s");
            await Task.Delay(200);
        }
    }

    private static Task<CommandResult> RunToolAsync(params string[] arguments) => DotnetCommand.RunAsync([Repository.ToolDll, .. arguments], RunTimeout);

    public void Dispose()
    {
        if (_service is { HasExited: false })
        {
            _service.Kill(entireProcessTree: true);
            _service.WaitForExit();
        }
        _service?.Dispose();
        _http.Dispose();
        _directory.Delete(recursive: true);
    }
}
