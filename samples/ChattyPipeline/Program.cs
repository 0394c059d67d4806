using System.Globalization;
using AsyncCost.Samples;
using ChattyPipeline;

// Prices a stream of orders through OrderPipeline. Shared unchanged by ChattyPipeline and ChattyPipeline.Fixed;
// only OrderPipeline.cs differs between them.
var defaults = new SampleDefaults(Operations: 400, RoundTrip: TimeSpan.FromMilliseconds(1));
return await SampleMain.RunAsync("ChattyPipeline", "orders", defaults, args, async options =>
{
    (long orders, decimal total) = await OrderPipeline.RunAsync(
        new PriceCatalog(options.RoundTrip), new DiscountService(options.RoundTrip), options.Budget);
    return new SampleResult(orders, string.Create(CultureInfo.InvariantCulture, $"{orders} orders, total {total}"));
});
