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

// The three lines of docs/fleet.md: per-method async cost as OpenTelemetry metrics, scraped on /metrics.
// AsyncCost:Instrumentation (env AsyncCost__Instrumentation) is for the overhead benchmark (benchmarks/AsyncCost.Benchmarks
// webshop-overhead): "off" leaves the instrumentation out, "allocations-always-on" samples allocations whenever the hop stream
// is off, "hops-always-on" keeps the hop stream on; unset is the default, with the options in AsyncCost:Options if any (the fleet
// test shortens the duty-cycle period there, e.g. AsyncCost__Options__Period=00:00:01).
var instrumentation = builder.Configuration["AsyncCost:Instrumentation"];
builder.Services.AddOpenTelemetry().WithMetrics(metrics => (instrumentation switch
{
    null or "default" => metrics.AddAsyncCostInstrumentation(options => builder.Configuration.GetSection("AsyncCost:Options").Bind(options)),
    "off" => metrics,
    "allocations-always-on" => metrics.AddAsyncCostInstrumentation(options => options.AllocationWindow = options.Period),
    "hops-always-on" => metrics.AddAsyncCostInstrumentation(options => options.HopWindow = options.Period),
    _ => throw new ArgumentException($"AsyncCost:Instrumentation is '{instrumentation}': use default, off, allocations-always-on or hops-always-on."),
}).AddPrometheusExporter());
var app = builder.Build();
app.MapPrometheusScrapingEndpoint();

app.MapGet("/checkout/{customer:int}", (int customer, int? items, Checkout checkout) => checkout.CheckoutAsync(customer, items ?? Cart.DefaultLines));
await app.RunAsync();
return 0;
