using System.Diagnostics.Tracing;
using Microsoft.Extensions.Logging;

namespace AsyncCost.OpenTelemetry;

/// <summary>
/// The instrumentation's rare messages for a person (what it cannot measure, why it stopped): to the host's ILogger when
/// there is one, and always to the EventSource "AsyncCost-Instrumentation" (as OpenTelemetry's own self-diagnostics do).
/// </summary>
[EventSource(Name = "AsyncCost-Instrumentation")]
internal sealed partial class InstrumentationLog : EventSource
{
    public static InstrumentationLog Source { get; } = new();

    /// <summary>Never throws: it is called from metric collections and runtime event callbacks, where a failing logger
    /// provider would otherwise throw into the host's exporter or its awaits.</summary>
    public static void Warn(ILogger? logger, string message)
    {
        try
        {
            if (logger is not null)
            {
                LogWarning(logger, message);
            }
        }
#pragma warning disable CA1031 // the logger's failure loses the message; the EventSource below still carries it
        catch (Exception)
#pragma warning restore CA1031
        {
        }
        Source.Warning(message);
    }

    [Event(1, Level = EventLevel.Warning, Message = "{0}")]
    public void Warning(string message) => WriteEvent(1, message);

    [LoggerMessage(Level = LogLevel.Warning, Message = "{Message}")]
    private static partial void LogWarning(ILogger logger, string message);
}
