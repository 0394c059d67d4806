using OpenTelemetry;
using OpenTelemetry.Metrics;

namespace AsyncCost.OpenTelemetry.Tests;

[Collection(InProcessListening.Name)]
public sealed class InstrumentationTests
{
    [Theory]
    [InlineData(0, 1, 10, "MaxMethods must be between 1 and 1000 (it is 0)")]
    [InlineData(20, 11, 10, "must not be longer than the period")]
    [InlineData(20, -1, 10, "the hop window must not be negative")]
    [InlineData(20, 1, 0, "the period must be positive")]
    public void Options_that_cannot_run_fail_at_startup_with_what_to_change(int maxMethods, int windowSeconds, int periodSeconds, string message)
    {
        var error = Assert.Throws<ArgumentException>(() => Sdk.CreateMeterProviderBuilder().AddAsyncCostInstrumentation(o =>
        {
            o.MaxMethods = maxMethods;
            o.HopWindow = TimeSpan.FromSeconds(windowSeconds);
            o.Period = TimeSpan.FromSeconds(periodSeconds);
        }));
        Assert.StartsWith("Invalid AsyncCost instrumentation options:", error.Message, StringComparison.Ordinal);
        Assert.Contains(message, error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(50, 10_000, "the hop window must be 0 (off) or at least 100 ms (it is 00:00:00.0500000)")]
    [InlineData(9_980, 10_000, "must leave more than 50 ms outside the hop window, or equal it (hops always on)")]
    public void Hop_windows_too_short_to_measure_fail_at_startup_with_the_limit(int windowMs, int periodMs, string message)
    {
        var error = Assert.Throws<ArgumentException>(() => Sdk.CreateMeterProviderBuilder().AddAsyncCostInstrumentation(o =>
        {
            o.HopWindow = TimeSpan.FromMilliseconds(windowMs);
            o.Period = TimeSpan.FromMilliseconds(periodMs);
        }));
        Assert.Contains(message, error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(-1, "the allocation window must not be negative")]
    [InlineData(50, "the allocation window must be 0 (off) or at least 100 ms (it is 00:00:00.0500000)")]
    public void Allocation_windows_that_cannot_run_fail_at_startup(int windowMs, string message)
    {
        var error = Assert.Throws<ArgumentException>(() => Sdk.CreateMeterProviderBuilder().AddAsyncCostInstrumentation(o =>
            o.AllocationWindow = TimeSpan.FromMilliseconds(windowMs)));
        Assert.Contains(message, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Both_streams_off_is_refused_as_measuring_nothing()
    {
        var error = Assert.Throws<ArgumentException>(() => Sdk.CreateMeterProviderBuilder().AddAsyncCostInstrumentation(o =>
            o.HopWindow = o.AllocationWindow = TimeSpan.Zero));
        Assert.Contains("both windows are 0", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_meter_publishes_bytes_calls_and_hops_per_method_through_the_sdk()
    {
        var exported = new List<MetricSnapshot>();
        using (var provider = Sdk.CreateMeterProviderBuilder()
            .AddAsyncCostInstrumentation(o => o.HopWindow = o.Period = TimeSpan.FromMilliseconds(300))
            .AddInMemoryExporter(exported)
            .Build())
        {
            await Workload.UntilTplEventsOnAsync();
            await Workload.RunAsync(5_000);
            await Workload.SettleAsync(TimeSpan.FromMilliseconds(700));
            provider.ForceFlush();
        }

        var hops = Points(exported, "asynccost.method.hops");
        var (tags, value) = Assert.Single(hops, p => p.Tags["method"] as string == Workload.YieldOnceKey);
        Assert.InRange(value, 2_500, 5_000); // most resumptions, fewer on a busy machine (see the listener's tests)
        Assert.Contains(Points(exported, "asynccost.method.suspensions"), p => p.Tags["method"] as string == Workload.YieldOnceKey && p.Value >= 4_900);
        // Each Task.Yield call waits for its continuation to run: some time, however little.
        Assert.Contains(Points(exported, "asynccost.method.elapsed"), p => p.Tags["method"] as string == Workload.YieldOnceKey && p.Value > 0);
        // Hop stream always on: allocations all carry the observer effect, so no allocated_bytes point is published.
        Assert.Equal(["asynccost.method.blocking_waits", "asynccost.method.calls", "asynccost.method.elapsed", "asynccost.method.hops", "asynccost.method.suspensions"],
            exported.Select(m => m.Name).Distinct().Order(StringComparer.Ordinal));
        Assert.Equal("AsyncCost", exported[0].MeterName);
        Assert.Single(tags);
    }

    [Fact]
    public async Task Allocated_bytes_carry_the_method_and_the_kind_of_allocation()
    {
        var exported = new List<MetricSnapshot>();
        using (var provider = Sdk.CreateMeterProviderBuilder()
            .AddAsyncCostInstrumentation(o =>
            {
                o.HopWindow = TimeSpan.Zero;
                o.AllocationWindow = o.Period = TimeSpan.FromMilliseconds(300); // a window closes every 300 ms
            })
            .AddInMemoryExporter(exported)
            .Build())
        {
            await Workload.RunAsync(300_000);
            await Workload.SettleAsync(TimeSpan.FromSeconds(1.5)); // samples that arrive after their window closed are added at the next close
            provider.ForceFlush();
        }

        var (tags, value) = Assert.Single(Points(exported, "asynccost.method.allocated_bytes"), p => p.Tags["method"] as string == Workload.YieldOnceKey);
        Assert.Equal("box", tags["kind"]);
        Assert.True(value > 0);
        Assert.Equal("By", exported.First(m => m.Name == "asynccost.method.allocated_bytes").Unit);
    }

    private static List<(Dictionary<string, object?> Tags, double Value)> Points(List<MetricSnapshot> exported, string name)
    {
        var points = new List<(Dictionary<string, object?>, double)>();
        // The exporter keeps each collection's metrics: the last one has the final totals.
        foreach (var metric in exported.Where(m => m.Name == name).TakeLast(1))
        {
            foreach (var point in metric.MetricPoints)
            {
                var tags = new Dictionary<string, object?>();
                foreach (var tag in point.Tags)
                {
                    tags[tag.Key] = tag.Value;
                }
                points.Add((tags, point.GetSumDouble()));
            }
        }
        return points;
    }
}
