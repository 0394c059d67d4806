using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using OpenTelemetry.Metrics;

namespace AsyncCost.OpenTelemetry;

/// <summary>Adds AsyncCost's per-method metrics to an OpenTelemetry meter provider.</summary>
public static class MeterProviderBuilderExtensions
{
    /// <summary>
    /// Measures async cost per method inside this process and publishes it on the Meter "AsyncCost":
    /// <c>asynccost.method.allocated_bytes</c> (tags method, kind), <c>asynccost.method.calls</c>, <c>asynccost.method.suspensions</c>,
    /// <c>asynccost.method.hops</c> and <c>asynccost.method.blocking_waits</c> (tag method), all monotonic counters.
    /// </summary>
    /// <param name="builder">The meter provider builder.</param>
    /// <param name="configure">Adjusts <see cref="AsyncCostInstrumentationOptions"/>.</param>
    /// <returns>The builder, for chaining.</returns>
    /// <exception cref="ArgumentException">The options cannot run (checked here, at startup).</exception>
    public static MeterProviderBuilder AddAsyncCostInstrumentation(this MeterProviderBuilder builder, Action<AsyncCostInstrumentationOptions>? configure = null)
    {
        ArgumentNullException.ThrowIfNull(builder);
        var options = new AsyncCostInstrumentationOptions();
        configure?.Invoke(options);
        options.Validate();
        builder.AddMeter(AsyncCostMetrics.MeterName);
        return builder.AddInstrumentation(services =>
        {
            var logger = services.GetService<ILoggerFactory>()?.CreateLogger(AsyncCostMetrics.MeterName);
            return new AsyncCostMetrics(options, message => InstrumentationLog.Warn(logger, message));
        });
    }
}
