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

    /// <summary>Synchronous waits (Wait, Result, GetAwaiter().GetResult() on an incomplete task: TaskWaitBegin, behavior 1) made
    /// while this method ran on the blocking thread.</summary>
    public long BlockingWaits { get; set; }

    /// <summary>Time the method's blocking waits held their threads, in milliseconds (TaskWaitBegin to TaskWaitEnd).</summary>
    public double BlockedMilliseconds { get; set; }

    /// <summary>How <see cref="Hops"/> varied over the windows (streams) added.</summary>
    public WindowSpread HopSpread { get; } = new();

    /// <summary>How <see cref="SuspendingCalls"/> varied over the windows (streams) added.</summary>
    public WindowSpread CallSpread { get; } = new();
}

/// <summary>
/// The spread of one count over the windows of a pass, against the work items each window dequeued: what a ratio estimate
/// (count per work item, scaled to the work items of the whole pass) needs for its error. A window the method was absent from
/// adds nothing here; its work items still count in <see cref="HopComputer.WorkItemsSquared"/>.
/// </summary>
internal sealed class WindowSpread
{
    /// <summary>Σ count².</summary>
    public double SumOfSquares { get; private set; }

    /// <summary>Σ count × the window's work items.</summary>
    public double SumTimesWorkItems { get; private set; }

    public void Add(double count, double workItems)
    {
        SumOfSquares += count * count;
        SumTimesWorkItems += count * workItems;
    }

    public void Add(WindowSpread other)
    {
        SumOfSquares += other.SumOfSquares;
        SumTimesWorkItems += other.SumTimesWorkItems;
    }
}

/// <summary>
/// Turns TplEventSource and FrameworkEventSource events into hops per async method. A method is known by its box's task id
/// (TraceOperationBegin). It resumes either when a task it awaited ends (TaskWaitBegin names the awaiting box, TaskWaitEnd
/// the awaited task) or when a scheduled continuation starts (AwaitTaskContinuationScheduled on the thread that runs the
/// method, e.g. Task.Yield; TaskWaitContinuationStarted). A resumption that is the first TPL event after a work item was
/// dequeued on that thread is a hop. A synchronous wait (TaskWaitBegin, behavior 1) belongs to the method whose box last
/// resumed on the blocking thread in its current work item, and lasts until TaskWaitEnd on that thread; a wait in a method's
/// first segment (before its first suspension, when it has no box yet) is charged to the resumed caller it runs under, and
/// one in code outside any resumed method is unattributed. State is bounded by the number of live tasks, capped at
/// <see cref="MaxTrackedTasks"/>.
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

    /// <summary>Synchronous waits whose blocking method could not be told.</summary>
    public long UnattributedBlockingWaits { get; private set; }

    /// <summary>Time held by synchronous waits whose blocking method could not be told, in milliseconds.</summary>
    public double UnattributedBlockedMilliseconds { get; private set; }

    /// <summary>True when the tracking tables hit their cap and were cleared (some hops went unattributed).</summary>
    public bool Overflowed { get; private set; }

    /// <summary>Windows (streams) added with <see cref="Add"/>.</summary>
    public int Windows { get; private set; }

    /// <summary>Σ over the windows of their dequeued work items squared.</summary>
    public double WorkItemsSquared { get; private set; }

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

    public void OnWaitBegin(int threadId, int awaitedTaskId, int continueWithTaskId, int behavior, double timestampMs = 0)
    {
        var thread = Thread(threadId);
        thread.FreshWorkItem = false;
        if (behavior == KnownEvents.SynchronousWaitBehavior)
        {
            var blocker = thread.ResumedBox != 0 && _boxes.TryGetValue(thread.ResumedBox, out var name) ? Method(name) : null;
            if (blocker is not null)
            {
                blocker.BlockingWaits++;
            }
            else
            {
                UnattributedBlockingWaits++;
            }
            thread.Blocked = new BlockingWait(awaitedTaskId, blocker, timestampMs);
        }
        else if (continueWithTaskId != 0)
        {
            Track(_waitingBoxByAwaitedTask, awaitedTaskId, continueWithTaskId);
        }
    }

    public void OnWaitEnd(int threadId, int awaitedTaskId, double timestampMs = 0)
    {
        var thread = Thread(threadId);
        if (thread.Blocked is { } wait && wait.AwaitedTaskId == awaitedTaskId)
        {
            thread.Blocked = null;
            var blocked = Math.Max(timestampMs - wait.StartedMs, 0);
            if (wait.Blocker is { } blocker)
            {
                // By name: a wait that spans a TakeCounts belongs to the interval it ends in.
                Method(blocker.StateMachineName).BlockedMilliseconds += blocked;
            }
            else
            {
                UnattributedBlockedMilliseconds += blocked;
            }
        }
        else if (_waitingBoxByAwaitedTask.Remove(awaitedTaskId, out var box))
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
        thread.ResumedBox = 0;
    }

    /// <summary>
    /// Adds another stream's figures (a later slice, window or trace file of the same pass). Only the counts add: a task pending
    /// at the end of one stream cannot be followed into another, just as at the edges of a single trace. Each stream added
    /// is one window of the pass's spread.
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
            method.BlockedMilliseconds += theirs.BlockedMilliseconds;
            if (other.Windows == 0)
            {
                method.HopSpread.Add(theirs.Hops, other.WorkItems);
                method.CallSpread.Add(theirs.SuspendingCalls, other.WorkItems);
            }
            else
            {
                method.HopSpread.Add(theirs.HopSpread);
                method.CallSpread.Add(theirs.CallSpread);
            }
        }
        Windows += Math.Max(other.Windows, 1);
        WorkItemsSquared += other.Windows == 0 ? (double)other.WorkItems * other.WorkItems : other.WorkItemsSquared;
        WorkItems += other.WorkItems;
        Hops += other.Hops;
        UnattributedHops += other.UnattributedHops;
        UnattributedBlockingWaits += other.UnattributedBlockingWaits;
        UnattributedBlockedMilliseconds += other.UnattributedBlockedMilliseconds;
        Overflowed |= other.Overflowed;
    }

    /// <summary>The per-method figures.</summary>
    public IReadOnlyCollection<MethodHops> Results() => _methods.Values;

    /// <summary>
    /// Moves the counts gathered since the last take into a new computer (one stream, as if read on its own) and goes on
    /// from zero, keeping what it tracks (boxes, pending awaits, threads): a live session's intervals then lose nothing at
    /// their edges, as separate streams would.
    /// </summary>
    public HopComputer TakeCounts()
    {
        var taken = new HopComputer
        {
            WorkItems = WorkItems,
            Hops = Hops,
            UnattributedHops = UnattributedHops,
            UnattributedBlockingWaits = UnattributedBlockingWaits,
            UnattributedBlockedMilliseconds = UnattributedBlockedMilliseconds,
            Overflowed = Overflowed,
        };
        foreach (var (name, method) in _methods)
        {
            taken._methods.Add(name, method);
        }
        _methods.Clear();
        (WorkItems, Hops, UnattributedHops, UnattributedBlockingWaits, UnattributedBlockedMilliseconds, Overflowed) = (0, 0, 0, 0, 0, false);
        return taken;
    }

    private void Resumed(int threadId, int box)
    {
        var thread = Thread(threadId);
        thread.CurrentBox = box;
        thread.ResumedBox = box;
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
        /// <summary>The box that last suspended (was created) or resumed on this thread: the one a scheduled continuation belongs to.</summary>
        public int CurrentBox { get; set; }

        /// <summary>The box that last resumed on this thread in its current work item: the method running there.</summary>
        public int ResumedBox { get; set; }

        public bool FreshWorkItem { get; set; }

        /// <summary>The synchronous wait this thread is blocked in.</summary>
        public BlockingWait? Blocked { get; set; }
    }

    private sealed record BlockingWait(int AwaitedTaskId, MethodHops? Blocker, double StartedMs);
}
