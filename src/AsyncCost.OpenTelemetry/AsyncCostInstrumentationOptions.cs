using AsyncCost.InProcess;

namespace AsyncCost.OpenTelemetry;

/// <summary>Settings of <see cref="MeterProviderBuilderExtensions.AddAsyncCostInstrumentation"/>: how many series, and what the hop stream may cost.</summary>
public sealed class AsyncCostInstrumentationOptions
{
    /// <summary>The most methods allowed in <see cref="MaxMethods"/>.</summary>
    public const int MaxMethodsLimit = 1_000;

    /// <summary>
    /// How many methods keep their own series (tag <c>method</c>): the costliest of each collection interval, by allocated
    /// bytes then hops, topped up with the methods that had a series before. Every other method adds to
    /// <c>method="(other)"</c>, so the series count stays bounded however many async methods the service has. Default 20.
    /// </summary>
    public int MaxMethods { get; set; } = 20;

    /// <summary>
    /// How long the hop stream (TPL events: suspensions, hops, blocking waits) is on in each <see cref="HopPeriod"/>. TPL
    /// events cost on every await, so the default is 1 s of every 60 s and counts are scaled by period / window.
    /// Zero turns the hop stream off; equal to <see cref="HopPeriod"/> keeps it always on (then no allocation figures, since
    /// every allocation would include what TPL tracing itself adds).
    /// </summary>
    public TimeSpan HopWindow { get; set; } = HopDutyCycle.Default.Window;

    /// <summary>The duty-cycle period of the hop stream. Default 60 s.</summary>
    public TimeSpan HopPeriod { get; set; } = HopDutyCycle.Default.Period;

    internal HopDutyCycle DutyCycle => new(HopWindow, HopPeriod);

    /// <summary>Throws at startup, with what to change, when the options cannot run.</summary>
    internal void Validate()
    {
        var problem = MaxMethods is < 1 or > MaxMethodsLimit
            ? $"MaxMethods must be between 1 and {MaxMethodsLimit} (it is {MaxMethods})."
            : DutyCycle.Problem();
        if (problem is not null)
        {
            throw new ArgumentException($"Invalid AsyncCost instrumentation options: {problem}");
        }
    }
}
