using System.ComponentModel;

namespace AsyncCost.Report;

/// <summary>
/// What async cost in one measured process (or one saved trace): the plain result every renderer and serializer reads.
/// Figures carry the pass they came from, because allocation figures are only trustworthy from a pass with TPL events off.
/// </summary>
public sealed record AsyncCostReport
{
    /// <summary>The JSON schema version this library writes. Bumped only when a field changes meaning or is removed.
    /// 2: a method's calls are exact where the hop pass counted them (sampledCalls keeps the estimate), its per-call figures
    /// are figures with their bounds, and every figure says its kind (exact or estimate).
    /// 3: a row's calls, bytes and objects describe one basis (<see cref="RowBasis"/>): when the passes recorded different
    /// slices of time, calls are the allocation samples' estimate, never the hop pass's count from its own slice; on one run,
    /// the hop pass's exact count with bytes and objects as their per-call ratios times it.
    /// 4: elapsed time holds each call's synchronous first segment (from the call, no longer from its first suspension), and
    /// a method that never suspended has no elapsed time (null, not observable), no longer 0.
    /// 5: a pass's operations may be the requests an ASP.NET Core process completed (<see cref="PassSummary.OperationKind"/>
    /// 'request', with <see cref="PassSummary.Requests"/> per endpoint), so per-operation figures of an attached service are
    /// per request; a method's elapsed time has its distribution (<see cref="MethodCost.ElapsedDistribution"/>).</summary>
    public const int CurrentSchemaVersion = 5;

    /// <summary>Schema version of this report (see <see cref="CurrentSchemaVersion"/>).</summary>
    public int SchemaVersion { get; init; } = CurrentSchemaVersion;

    /// <summary>Where the events came from: an attached process, a launched command or a saved trace.</summary>
    public required ReportSource Source { get; init; }

    /// <summary>When the first pass started (for a trace file: when the trace was recorded, if known).</summary>
    public DateTimeOffset StartedAt { get; init; }

    /// <summary>Total time spent recording, summed over the passes.</summary>
    public TimeSpan Duration { get; init; }

    /// <summary>The measurement passes that ran, in order, with their durations and event counts.</summary>
    public IReadOnlyList<PassSummary> Passes { get; init; } = [];

    /// <summary>What a row's calls, bytes and objects count: one run of a launched command, or each pass's own recording.</summary>
    [Description("What a method row's calls, bytes and objects count: 'run' (every pass ran the launched command once, whole: calls may be the hop pass's exact count, and bytes and objects are bytes and objects per call times the calls) or 'eachPass' (each pass recorded its own slice of time: calls, bytes and objects are the allocation pass's, over its duration; hops, suspending calls and blocking waits the hop pass's, over its own). Either way calls x bytesPerCall = bytes within their error bounds.")]
    public RowBasis RowBasis { get; init; }

    /// <summary>One row per user async method, most allocated bytes first.</summary>
    public IReadOnlyList<MethodCost> Methods { get; init; } = [];

    /// <summary>The async call tree (<see cref="AsyncCallTree"/>), computed from <see cref="Methods"/>' awaited calls whenever it
    /// is read, so that it always holds the report's own rows and operations; written to JSON, never read back.</summary>
    [Description("The async call tree, derived from methods[].awaitedCalls (written, not read back): roots are the methods that awaited calls and that no other method awaited, each node's children the calls its method awaited, the most waited first; figures per operation, else per second of the hop pass ('per').")]
    public AsyncCallTree CallTree => AsyncCallTree.Of(this);

    /// <summary>Sampled allocations that could not be tied to a user async method, grouped by type, largest first.</summary>
    public IReadOnlyList<TypeAllocation> UnattributedAllocations { get; init; } = [];

    /// <summary>Sampled allocations whose stacks name a method of the application that is not async as their maker, per
    /// method, most bytes first; empty when the allocation samples had no stacks.</summary>
    public IReadOnlyList<PlainMethodAllocations> PlainMethodAllocations { get; init; } = [];

    /// <summary>Join keys of the application's own methods (see <see cref="MethodCost.MethodKey"/>; not the framework's) that the
    /// trace's method events show compiled, i.e. called at least once in the process; empty when the trace has no method events.
    /// A finding whose method is not among them was never called; one among them without a row ran in a way no pass could see.</summary>
    public IReadOnlyList<string> MethodsThatRan { get; init; } = [];

    /// <summary>Whole-process figures: exact counters and totals.</summary>
    public ProcessTotals Totals { get; init; } = new();

    /// <summary>Context switches per OS thread over the session (Linux only; empty elsewhere or for trace files).</summary>
    public IReadOnlyList<ThreadSwitches> Threads { get; init; } = [];

    /// <summary>Things the reader should know: fallbacks taken, figures that could not be measured, low sample counts.</summary>
    public IReadOnlyList<ReportWarning> Warnings { get; init; } = [];

    /// <summary>True when the session ended before it was meant to (the process exited, the trace was truncated): figures cover only what was gathered.</summary>
    public bool CutShort { get; init; }

    /// <summary>Why recording stopped.</summary>
    public StopReason StopReason { get; init; }
}

/// <summary>What a report's method rows count (see <see cref="AsyncCostReport.RowBasis"/>).</summary>
public enum RowBasis
{
    /// <summary>Each pass recorded its own slice of time (attached, or cut by the duration): a row's calls, bytes and objects
    /// are the allocation pass's over its duration; hops, suspending calls and waits the hop pass's over its own.</summary>
    EachPass,

    /// <summary>Every pass ran the launched command once, whole: a count from any pass is the run's.</summary>
    Run,
}

/// <summary>Where a report's events came from.</summary>
public sealed class ReportSource
{
    /// <summary>Attach, launch or trace file.</summary>
    public SourceKind Kind { get; init; }

    /// <summary>The measured process id (for a launched command: the last pass's child), if known.</summary>
    public int? ProcessId { get; init; }

    /// <summary>The process name (attach/launch), if known.</summary>
    public string? ProcessName { get; init; }

    /// <summary>The command line that was launched or that the attached process runs, if known.</summary>
    public string? CommandLine { get; init; }

    /// <summary>The .nettrace files read (trace-file source) or written (when an output path was given).</summary>
    public IReadOnlyList<string> TraceFiles { get; init; } = [];

    /// <summary>The target's runtime version (e.g. "10.0.12"), if known.</summary>
    public string? RuntimeVersion { get; init; }

    /// <summary>The launched command's exit code (launch only; the last pass's child) when it exited by itself; null when the
    /// tool ended it (duration elapsed, or stopped), since it then has no exit code of its own.</summary>
    public int? ExitCode { get; init; }
}

/// <summary>How the session got its events.</summary>
public enum SourceKind
{
    /// <summary>Attached to a running process by id.</summary>
    Attach,

    /// <summary>Launched a command suspended on a diagnostic port.</summary>
    Launch,

    /// <summary>Read a saved .nettrace file.</summary>
    TraceFile,

    /// <summary>Streamed inside the measured process by an EventListener (the OpenTelemetry instrumentation).</summary>
    InProcess,
}

/// <summary>Why recording stopped.</summary>
public enum StopReason
{
    /// <summary>The requested duration elapsed.</summary>
    DurationElapsed,

    /// <summary>The caller cancelled (Enter, Ctrl+C).</summary>
    Canceled,

    /// <summary>The process exited (normal end for a launched command; cut short for an attached one).</summary>
    ProcessExited,

    /// <summary>A trace file was read to its end.</summary>
    EndOfTrace,

    /// <summary>A trace file ended early or was damaged part-way.</summary>
    TraceTruncated,
}
