using AsyncCost.Events;

namespace AsyncCost.Computers;

/// <summary>Hop-pass figures of one async method, keyed by its state machine's short name ("&lt;GetAsync&gt;d__3").</summary>
internal sealed class MethodHops(string stateMachineName)
{
    public string StateMachineName { get; } = stateMachineName;

    /// <summary>Calls that suspended (one box created each: TraceOperationBegin).</summary>
    public long SuspendingCalls { get; set; }

    /// <summary>Resumptions that ran as the first thing of a thread-pool work item: the continuation hopped through the pool.</summary>
    public long Hops { get; set; }

    /// <summary>Synchronous waits (TaskWaitBegin, behavior 1) on this method's task.</summary>
    public long BlockingWaits { get; set; }
}

/// <summary>
/// Turns TplEventSource and FrameworkEventSource events into hops per async method. A method is known by its box's task id
/// (TraceOperationBegin). It resumes either when a task it awaited ends (TaskWaitBegin names the awaiting box, TaskWaitEnd
/// the awaited task) or when a scheduled continuation starts (AwaitTaskContinuationScheduled on the thread that runs the
/// method, e.g. Task.Yield; TaskWaitContinuationStarted). A resumption that is the first TPL event after a work item was
/// dequeued on that thread is a hop. State is bounded by the number of live tasks, capped at <see cref="MaxTrackedTasks"/>.
/// </summary>
internal sealed class HopComputer
{
    public const int MaxTrackedTasks = 1_000_000;

    private readonly Dictionary<int, string> _boxes = [];
    private readonly Dictionary<int, int> _waitingBoxByAwaitedTask = [];
    private readonly Dictionary<int, int> _boxByContinuation = [];
    private readonly Dictionary<int, ThreadState> _threads = [];
    private readonly Dictionary<string, MethodHops> _methods = new(StringComparer.Ordinal);

    /// <summary>Work items dequeued by the thread pool.</summary>
    public long WorkItems { get; private set; }

    /// <summary>All hops, attributed to a method or not.</summary>
    public long Hops { get; private set; }

    /// <summary>Hops whose method could not be told (their box was created before the session started).</summary>
    public long UnattributedHops { get; private set; }

    /// <summary>Synchronous waits on tasks whose method could not be told.</summary>
    public long UnattributedBlockingWaits { get; private set; }

    /// <summary>True when the tracking tables hit their cap and were cleared (some hops went unattributed).</summary>
    public bool Overflowed { get; private set; }

    public void OnOperationBegin(int threadId, int taskId, string operationName)
    {
        var name = operationName.StartsWith(KnownEvents.AsyncOperationPrefix, StringComparison.Ordinal)
            ? operationName[KnownEvents.AsyncOperationPrefix.Length..]
            : operationName;
        Track(_boxes, taskId, name);
        Method(name).SuspendingCalls++;
        var thread = Thread(threadId);
        thread.CurrentBox = taskId;
        thread.FreshWorkItem = false;
    }

    public void OnOperationEnd(int taskId) => _boxes.Remove(taskId);

    public void OnWaitBegin(int threadId, int awaitedTaskId, int continueWithTaskId, int behavior)
    {
        Thread(threadId).FreshWorkItem = false;
        if (behavior == KnownEvents.SynchronousWaitBehavior)
        {
            if (_boxes.TryGetValue(awaitedTaskId, out var name))
            {
                Method(name).BlockingWaits++;
            }
            else
            {
                UnattributedBlockingWaits++;
            }
        }
        else if (continueWithTaskId != 0)
        {
            Track(_waitingBoxByAwaitedTask, awaitedTaskId, continueWithTaskId);
        }
    }

    public void OnWaitEnd(int threadId, int awaitedTaskId)
    {
        if (_waitingBoxByAwaitedTask.Remove(awaitedTaskId, out var box))
        {
            Resumed(threadId, box);
        }
        else
        {
            Thread(threadId).FreshWorkItem = false;
        }
    }

    public void OnContinuationScheduled(int threadId, int continuationId)
    {
        var thread = Thread(threadId);
        thread.FreshWorkItem = false;
        if (thread.CurrentBox != 0)
        {
            Track(_boxByContinuation, continuationId, thread.CurrentBox);
        }
    }

    public void OnContinuationStarted(int threadId, int continuationId)
    {
        if (_boxByContinuation.Remove(continuationId, out var box))
        {
            Resumed(threadId, box);
        }
        else
        {
            // A continuation scheduled before the session or by code outside any known box.
            var thread = Thread(threadId);
            if (thread.FreshWorkItem)
            {
                Hops++;
                UnattributedHops++;
            }
            thread.FreshWorkItem = false;
        }
    }

    public void OnWorkItemDequeued(int threadId)
    {
        WorkItems++;
        var thread = Thread(threadId);
        thread.FreshWorkItem = true;
        thread.CurrentBox = 0;
    }

    /// <summary>
    /// Adds another stream's figures (a later slice or trace file of the same pass). Only the counts add: a task pending
    /// at the end of one stream cannot be followed into another, just as at the edges of a single trace.
    /// </summary>
    public void Add(HopComputer other)
    {
        ArgumentNullException.ThrowIfNull(other);
        foreach (var theirs in other._methods.Values)
        {
            var method = Method(theirs.StateMachineName);
            method.SuspendingCalls += theirs.SuspendingCalls;
            method.Hops += theirs.Hops;
            method.BlockingWaits += theirs.BlockingWaits;
        }
        WorkItems += other.WorkItems;
        Hops += other.Hops;
        UnattributedHops += other.UnattributedHops;
        UnattributedBlockingWaits += other.UnattributedBlockingWaits;
        Overflowed |= other.Overflowed;
    }

    /// <summary>The per-method figures.</summary>
    public IReadOnlyCollection<MethodHops> Results() => _methods.Values;

    private void Resumed(int threadId, int box)
    {
        var thread = Thread(threadId);
        thread.CurrentBox = box;
        if (!thread.FreshWorkItem)
        {
            return;
        }
        thread.FreshWorkItem = false;
        Hops++;
        if (_boxes.TryGetValue(box, out var name))
        {
            Method(name).Hops++;
        }
        else
        {
            UnattributedHops++;
        }
    }

    private void Track<TValue>(Dictionary<int, TValue> table, int key, TValue value)
    {
        if (table.Count >= MaxTrackedTasks)
        {
            // Tasks that never complete would grow the table forever: forget them rather than the session's memory.
            table.Clear();
            Overflowed = true;
        }
        table[key] = value;
    }

    private MethodHops Method(string name)
    {
        if (!_methods.TryGetValue(name, out var method))
        {
            method = new MethodHops(name);
            _methods.Add(name, method);
        }
        return method;
    }

    private ThreadState Thread(int threadId)
    {
        if (!_threads.TryGetValue(threadId, out var state))
        {
            state = new ThreadState();
            _threads.Add(threadId, state);
        }
        return state;
    }

    private sealed class ThreadState
    {
        public int CurrentBox { get; set; }
        public bool FreshWorkItem { get; set; }
    }
}
