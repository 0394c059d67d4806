using System.Globalization;
using AsyncCost.OpenTelemetry;
using OpenTelemetry.Metrics;
using WebShop;

// `WebShop --allocation-truth N` prints what one Stock.ReserveAsync call allocates, measured by the GC around N calls with
// nothing else running: the figure the fleet test holds Prometheus's per-request bytes to.
if (args is ["--allocation-truth", var calls])
{
    var bytes = await AllocationTruth.ReserveBytesPerCallAsync(int.Parse(calls, CultureInfo.InvariantCulture));
    Console.WriteLine(bytes.ToString("F1", CultureInfo.InvariantCulture));
    return 0;
}

var builder = WebApplication.CreateBuilder(args);
builder.Services.AddSingleton<Catalog>().AddSingleton<Stock>().AddSingleton<Discounts>().AddSingleton<Shipping>()
    .AddSingleton<Checkout>();

// The three lines of the README's "Fleet" section: per-method async cost as OpenTelemetry metrics, scraped on /metrics.
// AsyncCost:Instrumentation (env AsyncCost__Instrumentation) is for the overhead benchmark (benchmarks/AsyncCost.Benchmarks
// webshop-overhead): "off" leaves the instrumentation out, "hops-off" keeps only the allocation stream, "hops-always-on" keeps
// the hop stream on; unset is the default.
var instrumentation = builder.Configuration["AsyncCost:Instrumentation"];
builder.Services.AddOpenTelemetry().WithMetrics(metrics => (instrumentation switch
{
    null or "default" => metrics.AddAsyncCostInstrumentation(),
    "off" => metrics,
    "hops-off" => metrics.AddAsyncCostInstrumentation(options => options.HopWindow = TimeSpan.Zero),
    "hops-always-on" => metrics.AddAsyncCostInstrumentation(options => options.HopWindow = options.HopPeriod),
    _ => throw new ArgumentException($"AsyncCost:Instrumentation is '{instrumentation}': use default, off, hops-off or hops-always-on."),
}).AddPrometheusExporter());
var app = builder.Build();
app.MapPrometheusScrapingEndpoint();

app.MapGet("/checkout/{customer:int}", (int customer, int? items, Checkout checkout) => checkout.CheckoutAsync(customer, items ?? Cart.DefaultLines));
await app.RunAsync();
return 0;
