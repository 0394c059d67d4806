namespace AsyncCost.Events;

/// <summary>Provider names, keywords and event ids the passes enable and read (checked against .NET 10.0 on Linux).</summary>
internal static class KnownEvents
{
    public const string RuntimeProvider = "Microsoft-Windows-DotNETRuntime";
    public const string TplProvider = "System.Threading.Tasks.TplEventSource";
    public const string FrameworkProvider = "System.Diagnostics.Eventing.FrameworkEventSource";
    public const string CountersProvider = "System.Runtime";
    public const string EventPipeProvider = "Microsoft-DotNETCore-EventPipe";
    public const string RundownProvider = "Microsoft-Windows-DotNETRuntimeRundown";
    public const string SampleProfilerProvider = "Microsoft-DotNETCore-SampleProfiler";

    /// <summary>Kestrel's EventSource: RequestStart and RequestStop per request (ASP.NET Core services only).</summary>
    public const string KestrelProvider = "Microsoft-AspNetCore-Server-Kestrel";

    /// <summary>CLR keywords.</summary>
    public const long GcKeyword = 0x1;
    public const long LoaderKeyword = 0x8;
    public const long JitKeyword = 0x10;
    public const long ThreadingKeyword = 0x10000;

    /// <summary>.NET 10's randomized allocation sampling (AllocationSampled, event 303).</summary>
    public const long AllocationSamplingKeyword = 0x80000000000;

    /// <summary>TplEventSource keywords: Tasks | AsyncCausalityOperation | AsyncCausalitySynchronousWork (benchmarks/results/HopKeywords.md).
    /// Tasks gives the awaits and resumptions (TaskWaitBegin/End, AwaitTaskContinuationScheduled, TaskWaitContinuationStarted;
    /// every TaskTransfer event is also a Tasks event); AsyncCausalityOperation gives TraceOperationBegin (the box's task id and
    /// state-machine name); AsyncCausalitySynchronousWork gives TraceSynchronousWorkBegin/End around every box's MoveNext, which
    /// names the box a continuation resumed and the box running on each thread: without it a Task.Yield in an async iterator
    /// is charged to the iterator's caller, and an iterator's MoveNextAsync calls cannot be counted. TaskStops (0x40) is left off:
    /// its TaskWaitContinuationComplete and TaskCompleted add nothing to the attribution. AsyncMethod (0x100) is left off: it
    /// makes boxes finalizable and adds nothing the hop pass needs.</summary>
    public const long TplKeywords = 0x2 | 0x8 | 0x20;

    /// <summary>The in-process hop stream's TplEventSource keywords: <see cref="TplKeywords"/> without
    /// AsyncCausalitySynchronousWork, which nearly doubles the events per hop (8 to 14 per Task.Yield call). A service pays
    /// the stream for its whole life, so it gets the lean set: an async iterator's hops then go to its caller, as in traces
    /// recorded without those events.</summary>
    public const long InProcessTplKeywords = 0x2 | 0x8;

    /// <summary>FrameworkEventSource ThreadPool (0x2) | ThreadTransfer (0x10): work-item enqueue/dequeue.</summary>
    public const long FrameworkKeywords = 0x2 | 0x10;

    /// <summary>CLR event ids.</summary>
    public const int GcAllocationTickId = 10;
    public const int AllocationSampledId = 303;

    /// <summary>TplEventSource event ids.</summary>
    public const int TaskWaitBeginId = 10;
    public const int TaskWaitEndId = 11;
    public const int AwaitTaskContinuationScheduledId = 12;
    public const int TaskWaitContinuationCompleteId = 13;
    public const int TraceOperationBeginId = 14;
    public const int TraceOperationEndId = 15;
    public const int TraceSynchronousWorkBeginId = 17;
    public const int TraceSynchronousWorkEndId = 18;
    public const int TaskWaitContinuationStartedId = 19;

    /// <summary>TraceSynchronousWorkBegin's Work for a box's MoveNext (CausalitySynchronousWork.Execution).</summary>
    public const int ExecutionWork = 2;

    /// <summary>Kestrel's event ids (Informational, no keyword): RequestStart and RequestStop, each with connectionId,
    /// requestId, httpVersion, path and method.</summary>
    public const int KestrelRequestStartId = 3;
    public const int KestrelRequestStopId = 4;

    /// <summary>FrameworkEventSource event ids.</summary>
    public const int ThreadPoolEnqueueWorkId = 30;
    public const int ThreadPoolDequeueWorkId = 31;

    /// <summary>TaskWaitBegin behavior: 1 = synchronous (a blocking wait), 2 = asynchronous (an await).</summary>
    public const int SynchronousWaitBehavior = 1;

    /// <summary>TraceOperationBegin's OperationName is "Async: " + the state machine's short type name.</summary>
    public const string AsyncOperationPrefix = "Async: ";

    /// <summary>Each allocated byte is a Bernoulli trial with this probability in .NET 10's sampler.</summary>
    public const double AllocationSamplingProbability = 1.0 / 102_400;
}
