using AsyncCost.Computers;
using AsyncCost.Report;

namespace AsyncCost.Tests.Computers;

/// <summary>Requests from Kestrel's RequestStart/RequestStop events: matched by connection and request id, per endpoint
/// (id-like path segments collapsed), with their durations' percentiles; a pass that knows no operations counts them.</summary>
public class RequestComputerTests
{
    [Theory]
    [InlineData("GET", "/checkout/7", "GET /checkout/{id}")]
    [InlineData("POST", "/orders/123/lines/4", "POST /orders/{id}/lines/{id}")]
    [InlineData("GET", "/carts/3f2504e0-4f89-11d3-9a0c-0305e82c3301", "GET /carts/{id}")]
    [InlineData("GET", "/blobs/00a3f9c2b14e5d6f", "GET /blobs/{id}")]
    [InlineData("GET", "/checkout/summary", "GET /checkout/summary")]
    [InlineData("GET", "/deadbeefdeadbeef", "GET /deadbeefdeadbeef")] // hex letters alone: a name, not an id
    [InlineData("GET", "/checkout/7?items=5", "GET /checkout/{id}")]
    [InlineData("GET", "", "GET /")]
    [InlineData(null, "/metrics", "? /metrics")]
    public void An_endpoint_is_the_method_and_the_path_with_its_id_like_segments_collapsed(string? method, string path, string endpoint) =>
        Assert.Equal(endpoint, RequestComputer.Endpoint(method, path));

    [Fact]
    public void A_request_is_timed_from_its_start_to_its_stop_matched_by_connection_and_request_id_and_an_unmatched_stop_counts_untimed()
    {
        var requests = new RequestComputer();
        requests.OnRequestStart("c1", "c1:00000001", 1_000);
        requests.OnRequestStart("c2", "c2:00000001", 1_002);
        requests.OnRequestStart("c1", "c1:00000002", 1_004); // another request on the first connection
        requests.OnRequestStop("c2", "c2:00000001", "GET", "/checkout/2", 1_012);
        requests.OnRequestStop("c1", "c1:00000001", "GET", "/checkout/1", 1_030);
        requests.OnRequestStop("c9", "c9:00000001", "GET", "/metrics", 1_031); // began before the stream: counted, not timed

        Assert.Equal(3, requests.Started);
        Assert.Equal(3, requests.Completed);
        Assert.Equal(1, requests.Pending);
        var checkout = Assert.Single(requests.Endpoints, e => e.Endpoint == "GET /checkout/{id}");
        Assert.Equal(2, checkout.Completed);
        Assert.Equal(2, checkout.Durations.Count);
        Assert.Equal(10 + 30, checkout.Durations.SumMs, 9);
        var metrics = Assert.Single(requests.Endpoints, e => e.Endpoint == "GET /metrics");
        Assert.Equal(1, metrics.Completed);
        Assert.Equal(0, metrics.Durations.Count);
        Assert.Equal("GET /checkout/{id}", requests.Endpoints[0].Endpoint); // most requests first
    }

    [Fact]
    public void Streams_add_their_requests_per_endpoint_and_a_request_pending_at_a_streams_end_is_not_carried_over()
    {
        var first = new RequestComputer();
        first.OnRequestStart("c1", "r1", 0);
        first.OnRequestStop("c1", "r1", "GET", "/checkout/1", 5);
        first.OnRequestStart("c1", "r2", 6); // pending when the slice ends
        var second = new RequestComputer();
        second.OnRequestStop("c1", "r2", "GET", "/checkout/2", 9);
        second.OnRequestStart("c1", "r3", 10);
        second.OnRequestStop("c1", "r3", "GET", "/checkout/3", 14);

        var pass = new RequestComputer();
        pass.Add(first);
        pass.Add(second);

        Assert.Equal(3, pass.Completed);
        var checkout = Assert.Single(pass.Endpoints);
        Assert.Equal(3, checkout.Completed);
        Assert.Equal(2, checkout.Durations.Count);
        Assert.Equal(5 + 4, checkout.Durations.SumMs, 9);
        Assert.Equal(1, pass.Untracked);
    }

    [Fact]
    public void Endpoints_beyond_the_most_told_apart_count_under_one_row()
    {
        var requests = new RequestComputer();
        for (var i = 0; i < RequestComputer.MaxEndpoints + 5; i++)
        {
            requests.OnRequestStop("c", "r" + i, "GET", "/page" + (char)('a' + (i % 26)) + "/x" + (char)('a' + (i / 26)), i);
        }

        Assert.Equal(RequestComputer.MaxEndpoints + 1, requests.Endpoints.Count);
        Assert.Equal(5, Assert.Single(requests.Endpoints, e => e.Endpoint == RequestComputer.OtherEndpoints).Completed);
        Assert.Equal(RequestComputer.MaxEndpoints + 5, requests.Endpoints.Sum(e => e.Completed));
    }

    [Fact]
    public void Percentiles_are_read_within_one_percent_and_their_intervals_hold_them()
    {
        var histogram = new LatencyHistogram();
        for (var ms = 1; ms <= 1_000; ms++)
        {
            histogram.Add(ms);
        }

        foreach (var (fraction, expected) in new[] { (0.5, 500.0), (0.9, 900.0), (0.99, 990.0) })
        {
            var (value, lower, upper) = histogram.Quantile(fraction)!.Value;
            Assert.InRange(value, expected * 0.99, expected * 1.01);
            Assert.True(lower <= value && value <= upper, $"p{fraction * 100}: {lower} ≤ {value} ≤ {upper}");
            // The binomial interval at n = 1,000: ranks n·p ∓ 1.96 √(n·p·(1−p)), e.g. 469..532 around the median.
            var spread = 1.96 * Math.Sqrt(1_000 * fraction * (1 - fraction));
            Assert.InRange(lower, (Math.Floor((1_000 * fraction) - spread) * 0.99) - 1, Math.Floor((1_000 * fraction) - spread) * 1.01);
            Assert.InRange(upper, Math.Min(1_000, Math.Ceiling((1_000 * fraction) + spread) + 1) * 0.99, Math.Min(1_000, Math.Ceiling((1_000 * fraction) + spread) + 1) * 1.01);
        }
        Assert.Null(new LatencyHistogram().Quantile(0.5));
    }

    [Fact]
    public void With_few_durations_the_top_of_a_p99_interval_is_the_longest_seen()
    {
        var histogram = new LatencyHistogram();
        foreach (var ms in new[] { 2.0, 3.0, 50.0 })
        {
            histogram.Add(ms);
        }

        var (value, _, upper) = histogram.Quantile(0.99)!.Value;
        Assert.InRange(value, 49.5, 50.5);
        Assert.Equal(value, upper);
    }

    [Fact]
    public void A_pass_that_knows_no_operations_counts_its_requests_and_one_that_knows_them_keeps_its_own()
    {
        var figures = new PassFigures();
        figures.Requests.OnRequestStart("c", "r1", 0);
        figures.Requests.OnRequestStop("c", "r1", "GET", "/checkout/1", 8);
        figures.Requests.OnRequestStop("c", "r0", "GET", "/checkout/0", 9);

        var attached = new PassResult { Pass = MeasurementPasses.Hops, Figures = figures, Duration = TimeSpan.FromSeconds(2) }.ToSummary();
        Assert.Equal(2, attached.Operations);
        Assert.Equal(OperationKind.Request, attached.OperationKind);
        var endpoint = Assert.Single(attached.Requests!.Endpoints);
        Assert.Equal(("GET /checkout/{id}", 2L, 1.0), (endpoint.Endpoint, endpoint.Requests, endpoint.RequestsPerSecond!.Value));
        Assert.Equal(1, endpoint.Milliseconds!.Samples);
        Assert.Equal(1, attached.Requests.Timed);

        var printed = new PassResult { Pass = MeasurementPasses.Hops, Figures = figures, Operations = 400 }.ToSummary();
        Assert.Equal(400, printed.Operations);
        Assert.Equal(OperationKind.Operation, printed.OperationKind);
        Assert.NotNull(printed.Requests);

        var none = new PassResult { Pass = MeasurementPasses.Hops, Figures = new PassFigures() }.ToSummary();
        Assert.Null(none.Operations);
        Assert.Null(none.Requests);
    }
}
