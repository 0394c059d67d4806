using System.Diagnostics.Tracing;
using AsyncCost.Events;

namespace AsyncCost.InProcess;

/// <summary>An EventListener event's fields, as <see cref="EventMapping"/> reads them.</summary>
internal readonly struct ListenerEventFields(EventWrittenEventArgs e) : IEventFields
{
    public int ThreadId => (int)e.OSThreadId;

    public double TimestampMs => e.TimeStamp.Ticks / (double)TimeSpan.TicksPerMillisecond;

    public object? Field(string name)
    {
        var index = e.PayloadNames?.IndexOf(name) ?? -1;
        return index >= 0 && e.Payload is { } payload && index < payload.Count ? payload[index] : null;
    }
}
