using System.Globalization;
using AsyncCost.Samples;
using ChattyPipeline;

// Prices a stream of orders through OrderPipeline. Shared unchanged by ChattyPipeline and ChattyPipeline.Fixed;
// only OrderPipeline.cs differs between them.
return await SampleMain.RunAsync("ChattyPipeline", "orders", defaultOperations: 400, args, async budget =>
{
    (long orders, decimal total) = await OrderPipeline.RunAsync(
        new PriceCatalog(RemoteServices.RoundTrip), new DiscountService(RemoteServices.RoundTrip), budget);
    return new SampleResult(orders, string.Create(CultureInfo.InvariantCulture, $"{orders} orders, total {total}"));
});
