using AsyncCost.InProcess;

namespace AsyncCost.OpenTelemetry;

/// <summary>Settings of <see cref="MeterProviderBuilderExtensions.AddAsyncCostInstrumentation"/>: how many series, and what the event streams may cost.</summary>
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
    /// How long the hop stream (TPL events: suspensions, hops, blocking waits) is on in each <see cref="Period"/>. TPL events
    /// cost on every await (always on, ~72 % of the sample service's throughput), so the default is 0.25 s and counts are scaled
    /// by the thread pool's completed work items, as the CLI's windowed hop pass scales them. Zero turns the hop stream off;
    /// equal to <see cref="Period"/> keeps it always on (then no allocation figures, since every allocation would include
    /// what TPL tracing itself adds). A call already running when a window opens is not named in it, so a method whose calls
    /// last a good part of the window is counted low by about that part: 1 s (four times the default's cost) for long calls.
    /// </summary>
    public TimeSpan HopWindow { get; set; } = DutyCycle.Default.HopWindow;

    /// <summary>
    /// How long allocations are sampled in each <see cref="Period"/>, after the hop window. The runtime's AllocationSampled
    /// events cost the process on every sample (always on, ~13 % of the sample service's throughput), so the default is 1 s;
    /// each window's samples are scaled to everything the process allocated since the previous window, by the GC's exact
    /// count. Zero turns allocation figures off; equal to <see cref="Period"/> samples whenever the hop stream is off.
    /// </summary>
    public TimeSpan AllocationWindow { get; set; } = DutyCycle.Default.AllocationWindow;

    /// <summary>The cycle both streams share; figures move once per period. Default 60 s.</summary>
    public TimeSpan Period { get; set; } = DutyCycle.Default.Period;

    internal DutyCycle DutyCycle => new(HopWindow, AllocationWindow, Period);

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
