using System.Globalization;
using AsyncCost.Computers;

namespace AsyncCost.Events;

/// <summary>One runtime event's fields by name, whichever path delivered it: a TraceEvent read from EventPipe out of
/// process, or an EventWrittenEventArgs from an in-process EventListener.</summary>
internal interface IEventFields
{
    /// <summary>The OS thread that wrote the event.</summary>
    int ThreadId { get; }

    /// <summary>When the event was written, in milliseconds from any fixed origin (durations are differences).</summary>
    double TimestampMs { get; }

    /// <summary>The field's value, or null when the event has no such field.</summary>
    object? Field(string name);
}

/// <summary>
/// The one place that turns runtime events into computer calls: the out-of-process reader (<see cref="EventReader"/>) and
/// the in-process listener both call it, so no figure is computed in two places.
/// </summary>
internal static class EventMapping
{
    /// <summary>Feeds a Microsoft-Windows-DotNETRuntime allocation event; false when the event is not one.</summary>
    public static bool OnRuntimeEvent<TFields>(int id, TFields e, AllocationComputer allocations) where TFields : IEventFields
    {
        switch (id)
        {
            case KnownEvents.AllocationSampledId when e.Field("TypeName") is string type:
                allocations.OnAllocationSampled(type, Long(e.Field("ObjectSize")));
                return true;
            case KnownEvents.GcAllocationTickId when e.Field("TypeName") is string type:
                var amount = e.Field("AllocationAmount64") ?? e.Field("AllocationAmount");
                allocations.OnAllocationTick(type, Long(amount), Long(e.Field("ObjectSize")));
                return true;
            default:
                return false;
        }
    }

    /// <summary>Feeds a TplEventSource event to the hop computer.</summary>
    public static void OnTplEvent<TFields>(int id, TFields e, HopComputer hops) where TFields : IEventFields
    {
        var thread = e.ThreadId;
        switch (id)
        {
            case KnownEvents.TraceOperationBeginId:
                hops.OnOperationBegin(thread, Int(e, "TaskID"), e.Field("OperationName") as string ?? "", e.TimestampMs);
                break;
            case KnownEvents.TraceOperationEndId:
                hops.OnOperationEnd(Int(e, "TaskID"), e.TimestampMs);
                break;
            case KnownEvents.TaskWaitBeginId:
                hops.OnWaitBegin(thread, Int(e, "TaskID"), Int(e, "ContinueWithTaskID"), Int(e, "Behavior"), e.TimestampMs);
                break;
            case KnownEvents.TaskWaitEndId:
                hops.OnWaitEnd(thread, Int(e, "TaskID"), e.TimestampMs);
                break;
            case KnownEvents.AwaitTaskContinuationScheduledId:
                hops.OnContinuationScheduled(thread, Int(e, "ContinueWithTaskId"), e.TimestampMs);
                break;
            case KnownEvents.TaskWaitContinuationStartedId:
                hops.OnContinuationStarted(thread, Int(e, "TaskID"), e.TimestampMs);
                break;
            case KnownEvents.TraceSynchronousWorkBeginId:
                hops.OnSynchronousWorkBegin(thread, Int(e, "TaskID"), Int(e, "Work"), e.TimestampMs);
                break;
            case KnownEvents.TraceSynchronousWorkEndId:
                hops.OnSynchronousWorkEnd(thread, e.TimestampMs);
                break;
            default:
                break;
        }
    }

    /// <summary>Feeds a FrameworkEventSource event (thread-pool work items) to the hop computer.</summary>
    public static void OnFrameworkEvent<TFields>(int id, TFields e, HopComputer hops) where TFields : IEventFields
    {
        if (id == KnownEvents.ThreadPoolDequeueWorkId)
        {
            hops.OnWorkItemDequeued(e.ThreadId, e.TimestampMs);
        }
    }

    /// <summary>Feeds a Kestrel event (a request started or stopped) to the request computer.</summary>
    public static void OnKestrelEvent<TFields>(int id, TFields e, RequestComputer requests) where TFields : IEventFields
    {
        switch (id)
        {
            case KnownEvents.KestrelRequestStartId:
                requests.OnRequestStart(e.Field("connectionId") as string, e.Field("requestId") as string, e.TimestampMs);
                break;
            case KnownEvents.KestrelRequestStopId:
                requests.OnRequestStop(e.Field("connectionId") as string, e.Field("requestId") as string, e.Field("method") as string,
                    e.Field("path") as string, e.TimestampMs);
                break;
            default:
                break;
        }
    }

    private static int Int<TFields>(TFields e, string name) where TFields : IEventFields
        => e.Field(name) is { } value ? Convert.ToInt32(value, CultureInfo.InvariantCulture) : 0;

    private static long Long(object? value) => value is null ? 0 : Convert.ToInt64(value, CultureInfo.InvariantCulture);
}
