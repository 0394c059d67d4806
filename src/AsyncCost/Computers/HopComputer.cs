using AsyncCost.Events;

namespace AsyncCost.Computers;

/// <summary>Hop-pass figures of one async method, keyed by its state machine's short name ("&lt;GetAsync&gt;d__3").</summary>
internal sealed class MethodHops(string stateMachineName)
{
    public string StateMachineName { get; } = stateMachineName;

    /// <summary>Calls that suspended: one box created each (TraceOperationBegin), plus, for a box that serves several calls (an
    /// async iterator's, one per enumeration), each later call that suspended it again from outside its own run (a MoveNextAsync
    /// that suspended; seen only with synchronous-work events).</summary>
    public long SuspendingCalls { get; set; }

    /// <summary>Boxes created (TraceOperationBegin): for an async iterator, its enumerations that suspended.</summary>
    public long Boxes { get; set; }

    /// <summary>Resumptions that ran as the first thing of a thread-pool work item: the continuation hopped through the pool.</summary>
    public long Hops { get; set; }

    /// <summary>Synchronous waits (Wait, Result, GetAwaiter().GetResult() on an incomplete task: TaskWaitBegin, behavior 1) made
    /// while this method ran on the blocking thread.</summary>
    public long BlockingWaits { get; set; }

    /// <summary>Time the method's blocking waits held their threads, in milliseconds (TaskWaitBegin to TaskWaitEnd).</summary>
    public double BlockedMilliseconds { get; set; }

    /// <summary>Σ of those waits' milliseconds squared: the spread a windowed pass's scaled time blocked is bounded by.</summary>
    public double BlockedSquaredMilliseconds { get; set; }

    /// <summary>The longest of those waits, in milliseconds: one wait can be an accident (a GC, the machine's load), which a
    /// time resting on the waits should not count as proof.</summary>
    public double LongestBlockMilliseconds { get; set; }

    /// <summary>How <see cref="Hops"/> varied over the windows (streams) added.</summary>
    public WindowSpread HopSpread { get; } = new();

    /// <summary>How <see cref="SuspendingCalls"/> varied over the windows (streams) added.</summary>
    public WindowSpread CallSpread { get; } = new();

    /// <summary>The calls timed from when they were called (their synchronous first segment included) to their box's
    /// completion, both seen in one stream.</summary>
    public CallDurations Elapsed { get; } = new(keepDistribution: true);

    /// <summary>Calls whose box was created in a stream that ended before they completed (pending at a window's or the
    /// recording's end): counted in <see cref="SuspendingCalls"/>, never timed.</summary>
    public long PendingCalls { get; set; }

    /// <summary>How long the <see cref="PendingCalls"/> had been pending by their stream's last timed event, summed, in
    /// milliseconds: what each is known to have lasted at least.</summary>
    public double PendingMs { get; set; }

    /// <summary>The callees this method awaited one after another, by their state machine's short name.</summary>
    public Dictionary<string, AwaitedCallee> Awaited { get; } = new(StringComparer.Ordinal);

    /// <summary>The callee <paramref name="calleeName"/>'s figures under this method.</summary>
    public AwaitedCallee AwaitedCallee(string calleeName)
    {
        if (!Awaited.TryGetValue(calleeName, out var callee))
        {
            callee = new AwaitedCallee(calleeName);
            Awaited.Add(calleeName, callee);
        }
        return callee;
    }
}

/// <summary>
/// Calls of one callee that a method made: a branch of the async call tree. Those it awaited one after another are grouped
/// in runs: a run is the calls awaited with no other suspension of the awaiting call between them (an execution of the loop
/// that made them), and ends when that call suspends on anything else or completes. Those it started in one run of its
/// thread and did not await itself (Task.WhenAll, or a task kept for later) ran together: each such group is timed from
/// its first call's start to its last call's end. Only timed calls count.
/// </summary>
internal sealed class AwaitedCallee(string calleeName)
{
    public string CalleeName { get; } = calleeName;

    /// <summary>Runs with at least one timed call.</summary>
    public long Runs { get; private set; }

    /// <summary>The timed calls in those runs.</summary>
    public long Calls { get; private set; }

    /// <summary>Per run, the Σ of its calls' elapsed milliseconds: what the awaiting call waited on them, one after another.</summary>
    public CallDurations Sequential { get; } = new();

    /// <summary>Per run, its calls' elapsed time less the longest of them: what running the run's calls together would have
    /// saved, each taking as long as it did (their latencies independent).</summary>
    public CallDurations SavingIfTogether { get; } = new();

    /// <summary>Per run, its calls' elapsed time less their mean: what running them together would have saved had they
    /// finished together (latencies that move as one: a shared timer tick, one connection's round trip).</summary>
    public CallDurations SavingIfOverlapping { get; } = new();

    /// <summary>Groups of calls started together with every call timed.</summary>
    public long Groups { get; private set; }

    /// <summary>The calls in those groups.</summary>
    public long CallsTogether { get; private set; }

    /// <summary>Per group, from its first call's start to its last call's end: what the caller waited on the group.</summary>
    public CallDurations Together { get; } = new();

    public void AddGroup(long calls, double spanMs)
    {
        Groups++;
        CallsTogether += calls;
        Together.Add(spanMs);
    }

    public void AddRun(long calls, double sequentialMs, double longestMs)
    {
        Runs++;
        Calls += calls;
        Sequential.Add(sequentialMs);
        SavingIfTogether.Add(Math.Max(sequentialMs - longestMs, 0));
        SavingIfOverlapping.Add(sequentialMs - (sequentialMs / calls));
    }

    public void Add(AwaitedCallee other)
    {
        Runs += other.Runs;
        Calls += other.Calls;
        Sequential.Add(other.Sequential);
        SavingIfTogether.Add(other.SavingIfTogether);
        SavingIfOverlapping.Add(other.SavingIfOverlapping);
        Groups += other.Groups;
        CallsTogether += other.CallsTogether;
        Together.Add(other.Together);
    }
}

/// <summary>Durations of timed calls: their count, sum and sum of squares, what a mean and its spread need, and, where kept,
/// their distribution (percentiles).</summary>
internal sealed class CallDurations(bool keepDistribution = false)
{
    public long Count { get; private set; }

    /// <summary>Σ duration, in milliseconds.</summary>
    public double SumMs { get; private set; }

    /// <summary>Σ duration², in milliseconds².</summary>
    public double SumOfSquaresMs { get; private set; }

    /// <summary>The durations in buckets, for their percentiles; null where not kept (a sum per run of a callee's calls).</summary>
    public LatencyHistogram? Distribution { get; } = keepDistribution ? new LatencyHistogram() : null;

    public void Add(double durationMs)
    {
        Count++;
        SumMs += durationMs;
        SumOfSquaresMs += durationMs * durationMs;
        Distribution?.Add(durationMs);
    }

    public void Add(CallDurations other)
    {
        ArgumentNullException.ThrowIfNull(other);
        Count += other.Count;
        SumMs += other.SumMs;
        SumOfSquaresMs += other.SumOfSquaresMs;
        if (other.Distribution is not null)
        {
            Distribution?.Add(other.Distribution);
        }
    }
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
/// dequeued on that thread is a hop. Synchronous-work events (TraceSynchronousWorkBegin/End around every box's MoveNext)
/// name the box that actually resumed, and which box runs on a thread at any moment: a scheduled continuation is charged to
/// the box it resumed, not to the box that last ran on the scheduling thread (an async iterator's MoveNextAsync runs its
/// state machine under its caller's box, with no event of its own), and a box re-suspended from outside its own run starts
/// another call on it (the iterator's next MoveNextAsync). Without them (traces recorded before) the last box seen on the
/// thread is taken. A synchronous wait (TaskWaitBegin, behavior 1) belongs to the method whose box last
/// resumed on the blocking thread in its current work item, and lasts until TaskWaitEnd on that thread; a wait in a method's
/// first segment (before its first suspension, when it has no box yet) is charged to the resumed caller it runs under, and
/// one in code outside any resumed method is unattributed. A continuation registered after the async method it awaited had
/// completed runs from the pool, but only because it lost a race (which tracing widens): it is counted apart, not as a hop.
/// A call is timed from when it was called to its box's completion (TraceOperationEnd): the time its caller waited. No event
/// marks a call's start; its box is created (TraceOperationBegin) at its first suspension, after its synchronous first
/// segment, which began after the previous TPL or thread-pool event on that thread: the call is timed from that event (the
/// caller's own code since it is counted with the call). A call that awaits a callee created just before it in the same
/// run of its thread (TaskWaitBegin right after its TraceOperationBegin) called that callee in its first segment, and began
/// when the callee did. On a thread with no earlier event in the stream (its start, a window's start) the first segment is
/// not seen, and the call is timed from its first suspension. A box created before the stream started, or still pending
/// when it ended, is not timed. Each timed call is also charged to its caller's branch of the call tree
/// (<see cref="AwaitedCallee"/>): a call awaited directly (TaskWaitBegin names the awaiting box) joins the caller's run of
/// awaits of that callee; one started while a box ran on its thread and never awaited directly joins the calls that box
/// started together in that run. State is bounded by the number of live tasks, capped at
/// <see cref="MaxTrackedTasks"/>.
/// </summary>
internal sealed class HopComputer
{
    public const int MaxTrackedTasks = 1_000_000;

    private readonly Dictionary<int, Box> _boxes = [];
    private readonly Dictionary<int, int> _waitingBoxByAwaitedTask = [];
    private readonly Dictionary<int, Suspension> _boxByContinuation = [];
    private readonly Dictionary<int, bool> _completedAwaitedBoxes = [];
    private readonly Dictionary<int, AwaitRun> _awaitRunByAwaitingBox = [];
    private readonly Dictionary<int, StartedTogether> _groupByStartedBox = [];
    private readonly Dictionary<(int Starter, int ThreadId, int Run, string Callee), StartedTogether> _groups = [];
    private readonly RecentIds _recentlyCompletedBoxes = new(4_096);
    private readonly Dictionary<int, ThreadState> _threads = [];
    private readonly Dictionary<string, MethodHops> _methods = new(StringComparer.Ordinal);

    // The counts of the stream read so far: one object, so that taking them (TakeCounts) and adding another stream's (Add)
    // cannot forget one.
    private StreamCounts _counts = new();

    private bool _heardThreadPool;

    /// <summary>The latest timestamp of the events that carry one: where a pending call is known to have lasted until.</summary>
    private double _lastTimestampMs;

    /// <summary>Work items dequeued by the thread pool.</summary>
    public long WorkItems => _counts.WorkItems;

    /// <summary>All hops, attributed to a method or not.</summary>
    public long Hops => _counts.Hops;

    /// <summary>Hops whose method could not be told (their box was created before the session started).</summary>
    public long UnattributedHops => _counts.UnattributedHops;

    /// <summary>Continuations of an awaited async method that ran from the pool because they were registered after its task had
    /// completed: not counted as hops.</summary>
    public long LateContinuations => _counts.LateContinuations;

    /// <summary>Synchronous waits whose blocking method could not be told.</summary>
    public long UnattributedBlockingWaits => _counts.UnattributedBlockingWaits;

    /// <summary>Time held by synchronous waits whose blocking method could not be told, in milliseconds.</summary>
    public double UnattributedBlockedMilliseconds => _counts.UnattributedBlockedMilliseconds;

    /// <summary>True when the tracking tables hit their cap and were cleared (some hops went unattributed).</summary>
    public bool Overflowed => _counts.Overflowed;

    /// <summary>True once a synchronous-work event was seen: the running box on each thread is then known, not guessed.</summary>
    public bool SawSynchronousWork { get; private set; }

    /// <summary>Windows (streams) added with <see cref="Add"/>.</summary>
    public int Windows { get; private set; }

    /// <summary>Σ over the windows of their dequeued work items squared.</summary>
    public double WorkItemsSquared { get; private set; }

    public void OnOperationBegin(int threadId, int taskId, string operationName, double timestampMs)
    {
        var isBox = operationName.StartsWith(KnownEvents.AsyncOperationPrefix, StringComparison.Ordinal);
        var name = isBox ? operationName[KnownEvents.AsyncOperationPrefix.Length..] : operationName;
        var thread = Thread(threadId);
        var calledMs = Math.Min(thread.LastEventMs ?? timestampMs, timestampMs);
        Track(_boxes, taskId, new Box(name, calledMs, threadId, thread.Run));
        StartedBy(thread.ResumedBox, taskId, name, threadId, thread.Run);
        Saw(thread, timestampMs);
        var method = Method(name);
        method.SuspendingCalls++;
        method.Boxes++;
        thread.Pending = null;
        thread.FreshWorkItem = false;
        if (isBox)
        {
            // Another task's operation (Task.Delay's timer, say) is followed for the call that awaits it, but it never
            // suspends: a continuation scheduled next is still the box's that ran here, and so is the run of awaits it ends.
            thread.CurrentBox = taskId;
            thread.CreatedBox = taskId;
        }
    }

    public void OnOperationEnd(int taskId, double timestampMs)
    {
        _lastTimestampMs = Math.Max(_lastTimestampMs, timestampMs);
        if (_boxes.Remove(taskId, out var box))
        {
            // By name: a call that spans a TakeCounts belongs to the interval it ends in.
            var elapsed = Math.Max(timestampMs - box.CalledMs, 0);
            Method(box.Name).Elapsed.Add(elapsed);
            if (_waitingBoxByAwaitedTask.TryGetValue(taskId, out var awaiting) && _awaitRunByAwaitingBox.TryGetValue(awaiting, out var run)
                && run.CalleeName == box.Name)
            {
                run.Add(elapsed);
            }
            if (_groupByStartedBox.Remove(taskId, out var group) && group.Ended(box.CalledMs, timestampMs))
            {
                Settle(group);
            }
        }
        EndAwaitRun(taskId);
        if (_waitingBoxByAwaitedTask.ContainsKey(taskId))
        {
            Track(_completedAwaitedBoxes, taskId, true);
        }
        else
        {
            _recentlyCompletedBoxes.Add(taskId); // its awaiter may still be about to register (and lose the race)
        }
    }

    public void OnWaitBegin(int threadId, int awaitedTaskId, int continueWithTaskId, int behavior, double timestampMs)
    {
        var thread = Thread(threadId);
        Saw(thread, timestampMs);
        thread.Pending = null;
        thread.FreshWorkItem = false;
        if (behavior == KnownEvents.SynchronousWaitBehavior)
        {
            var blocker = thread.ResumedBox != 0 && _boxes.TryGetValue(thread.ResumedBox, out var box) ? Method(box.Name) : null;
            if (blocker is not null)
            {
                blocker.BlockingWaits++;
            }
            else
            {
                _counts.UnattributedBlockingWaits++;
            }
            thread.Blocked = new BlockingWait(awaitedTaskId, blocker, timestampMs);
        }
        else if (continueWithTaskId != 0)
        {
            var suspension = thread.Suspending();
            CountCallStart(continueWithTaskId, suspension);
            if (suspension.CreatedBox == continueWithTaskId)
            {
                CalledWith(continueWithTaskId, awaitedTaskId, thread);
            }
            Awaits(continueWithTaskId, awaitedTaskId);
            Track(_waitingBoxByAwaitedTask, awaitedTaskId, continueWithTaskId);
            if (_recentlyCompletedBoxes.Contains(awaitedTaskId))
            {
                Track(_completedAwaitedBoxes, awaitedTaskId, true);
            }
        }
    }

    public void OnWaitEnd(int threadId, int awaitedTaskId, double timestampMs)
    {
        var thread = Thread(threadId);
        Saw(thread, timestampMs);
        thread.Pending = null;
        if (thread.Blocked is { } wait && wait.AwaitedTaskId == awaitedTaskId)
        {
            thread.Blocked = null;
            var blocked = Math.Max(timestampMs - wait.StartedMs, 0);
            if (wait.Blocker is { } blocker)
            {
                // By name: a wait that spans a TakeCounts belongs to the interval it ends in.
                var method = Method(blocker.StateMachineName);
                method.BlockedMilliseconds += blocked;
                method.BlockedSquaredMilliseconds += blocked * blocked;
                method.LongestBlockMilliseconds = Math.Max(method.LongestBlockMilliseconds, blocked);
            }
            else
            {
                _counts.UnattributedBlockedMilliseconds += blocked;
            }
        }
        else if (_waitingBoxByAwaitedTask.Remove(awaitedTaskId, out var box))
        {
            if (_completedAwaitedBoxes.Remove(awaitedTaskId) && thread.FreshWorkItem)
            {
                // An async method's task runs its awaiter inline when it completes; one resumed from the pool after the task
                // had completed was registered too late (the awaiter lost the race between IsCompleted and registering, a
                // window the hop pass's own events widen many times over): not a hop of the awaiting method's code.
                _counts.LateContinuations++;
                thread.FreshWorkItem = false;
            }
            Resumed(thread, box, suspension: null);
        }
        else
        {
            thread.FreshWorkItem = false;
        }
    }

    public void OnContinuationScheduled(int threadId, int continuationId, double timestampMs)
    {
        var thread = Thread(threadId);
        Saw(thread, timestampMs);
        thread.Pending = null;
        thread.FreshWorkItem = false;
        // Which box scheduled it is known for sure only when it resumes (the synchronous work that follows names it).
        var suspension = thread.Suspending();
        Track(_boxByContinuation, continuationId, suspension);
        EndAwaitRun(suspension.GuessedBox);
    }

    public void OnContinuationStarted(int threadId, int continuationId, double timestampMs)
    {
        var thread = Thread(threadId);
        Saw(thread, timestampMs);
        thread.Pending = null;
        if (_boxByContinuation.Remove(continuationId, out var suspension))
        {
            Resumed(thread, suspension.GuessedBox, suspension);
        }
        else
        {
            // A continuation scheduled before the session or by code outside any known box.
            if (thread.FreshWorkItem)
            {
                _counts.Hops++;
                _counts.UnattributedHops++;
            }
            thread.FreshWorkItem = false;
        }
    }

    /// <summary>TraceSynchronousWorkBegin: a box's MoveNext (work = Execution) or a task's completion running its continuations
    /// starts on this thread.</summary>
    public void OnSynchronousWorkBegin(int threadId, int taskId, int work, double timestampMs)
    {
        SawSynchronousWork = true;
        var thread = Thread(threadId);
        Saw(thread, timestampMs);
        var pending = thread.Pending;
        thread.Pending = null;
        var isBox = work == KnownEvents.ExecutionWork && _boxes.ContainsKey(taskId);
        thread.Running.Push(isBox ? taskId : 0);
        if (!isBox)
        {
            // A task's completion or a non-async task's body: a box it resumes inline is still the work item's first resumption.
            return;
        }
        if (pending is { } resumption)
        {
            // The resumption just seen was charged to a guessed box: this is the box it resumed.
            if (resumption.ChargedBox != taskId)
            {
                if (resumption.CountedHop)
                {
                    Charge(resumption.ChargedBox, -1);
                    Charge(taskId, +1);
                }
                if (resumption.Suspension is { } suspension)
                {
                    CountCallStart(taskId, suspension);
                }
            }
        }
        else if (thread.FreshWorkItem)
        {
            // Resumed straight from the pool by a path with no await event of its own (a ValueTask over an IValueTaskSource).
            _counts.Hops++;
            Charge(taskId, +1);
        }
        thread.FreshWorkItem = false;
        thread.CurrentBox = taskId;
        thread.ResumedBox = taskId;
        thread.Run++;
    }

    /// <summary>TraceSynchronousWorkEnd: the innermost synchronous work on this thread ended; the box around it runs again.</summary>
    public void OnSynchronousWorkEnd(int threadId, double timestampMs)
    {
        var thread = Thread(threadId);
        Saw(thread, timestampMs);
        thread.Pending = null;
        if (thread.Running.Count > 0)
        {
            thread.Running.Pop();
        }
        var running = thread.RunningBox;
        thread.CurrentBox = running;
        thread.ResumedBox = running;
    }

    public void OnWorkItemDequeued(int threadId, double timestampMs)
    {
        if (!_heardThreadPool)
        {
            // A session enables the TPL and thread-pool providers one after the other, tens of milliseconds apart on a busy
            // machine (hops/call 0.94-0.98 in attached 0.5 s windows): a call that suspended and resumed before the pool's
            // first event could not show its hop. The stream's calls count from here, with those still suspended now.
            _heardThreadPool = true;
            var live = _boxes.Values.CountBy(box => box.Name, StringComparer.Ordinal).ToDictionary(StringComparer.Ordinal);
            foreach (var method in _methods.Values)
            {
                method.SuspendingCalls = live.GetValueOrDefault(method.StateMachineName);
            }
        }
        _counts.WorkItems++;
        var thread = Thread(threadId);
        Saw(thread, timestampMs);
        thread.Run++;
        thread.FreshWorkItem = true;
        thread.Pending = null;
        thread.CurrentBox = 0;
        thread.ResumedBox = 0;
        thread.CreatedBox = 0;
        thread.Running.Clear();
    }

    /// <summary>
    /// Adds another stream's figures (a later slice, window or trace file of the same pass). Only the counts add: a task pending
    /// at the end of one stream cannot be followed into another, just as at the edges of a single trace. Each stream added
    /// is one window of the pass's spread. The boxes the other stream still followed were pending at its end: their calls
    /// are counted as such, untimed.
    /// </summary>
    public void Add(HopComputer other)
    {
        ArgumentNullException.ThrowIfNull(other);
        foreach (var box in other._boxes.Values)
        {
            var pending = Method(box.Name);
            pending.PendingCalls++;
            pending.PendingMs += Math.Max(other._lastTimestampMs - box.CalledMs, 0);
        }
        foreach (var theirs in other._methods.Values)
        {
            var method = Method(theirs.StateMachineName);
            method.SuspendingCalls += theirs.SuspendingCalls;
            method.Boxes += theirs.Boxes;
            method.Hops += theirs.Hops;
            method.BlockingWaits += theirs.BlockingWaits;
            method.BlockedMilliseconds += theirs.BlockedMilliseconds;
            method.BlockedSquaredMilliseconds += theirs.BlockedSquaredMilliseconds;
            method.LongestBlockMilliseconds = Math.Max(method.LongestBlockMilliseconds, theirs.LongestBlockMilliseconds);
            method.Elapsed.Add(theirs.Elapsed);
            method.PendingCalls += theirs.PendingCalls;
            method.PendingMs += theirs.PendingMs;
            foreach (var callee in theirs.Awaited.Values)
            {
                method.AwaitedCallee(callee.CalleeName).Add(callee);
            }
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
        _counts.Add(other._counts);
        SawSynchronousWork |= other.SawSynchronousWork;
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
        var taken = new HopComputer { _counts = _counts, SawSynchronousWork = SawSynchronousWork };
        foreach (var (name, method) in _methods)
        {
            taken._methods.Add(name, method);
        }
        _methods.Clear();
        _counts = new StreamCounts();
        return taken;
    }

    private sealed class StreamCounts
    {
        public long WorkItems;
        public long Hops;
        public long UnattributedHops;
        public long LateContinuations;
        public long UnattributedBlockingWaits;
        public double UnattributedBlockedMilliseconds;
        public bool Overflowed;

        public void Add(StreamCounts other)
        {
            WorkItems += other.WorkItems;
            Hops += other.Hops;
            UnattributedHops += other.UnattributedHops;
            LateContinuations += other.LateContinuations;
            UnattributedBlockingWaits += other.UnattributedBlockingWaits;
            UnattributedBlockedMilliseconds += other.UnattributedBlockedMilliseconds;
            Overflowed |= other.Overflowed;
        }
    }

    private void Resumed(ThreadState thread, int box, Suspension? suspension)
    {
        thread.Run++;
        thread.CurrentBox = box;
        thread.ResumedBox = box;
        var hop = thread.FreshWorkItem;
        thread.FreshWorkItem = false;
        thread.Pending = new Resumption(box, hop, suspension);
        if (hop)
        {
            _counts.Hops++;
            Charge(box, +1);
        }
    }

    /// <summary>An event on this thread at <paramref name="timestampMs"/>: a call made on it from now on began after it.</summary>
    private void Saw(ThreadState thread, double timestampMs)
    {
        thread.LastEventMs = timestampMs;
        _lastTimestampMs = Math.Max(_lastTimestampMs, timestampMs);
    }

    /// <summary>The box just created first awaits <paramref name="awaitedTaskId"/>: a callee's box created before it on the same
    /// thread in the same run was called in its first segment, so the call began no later than the callee did.</summary>
    private void CalledWith(int box, int awaitedTaskId, ThreadState thread)
    {
        if (_boxes.TryGetValue(box, out var caller) && _boxes.TryGetValue(awaitedTaskId, out var callee)
            && callee.ThreadId == caller.ThreadId && callee.Run == caller.Run && callee.Run == thread.Run && callee.CalledMs < caller.CalledMs)
        {
            _boxes[box] = caller with { CalledMs = callee.CalledMs };
        }
    }

    /// <summary>A call made while box <paramref name="starter"/> ran on this thread joins the calls of its callee that box
    /// started in this run; it leaves them if a box awaits it directly (<see cref="Awaits"/>).</summary>
    private void StartedBy(int starter, int box, string callee, int threadId, int run)
    {
        if (starter == 0 || starter == box || !_boxes.TryGetValue(starter, out var starterBox))
        {
            return;
        }
        var key = (starter, threadId, run, callee);
        if (!_groups.TryGetValue(key, out var group))
        {
            group = new StartedTogether(key, starterBox.Name);
            Track(_groups, key, group);
        }
        group.Started();
        Track(_groupByStartedBox, box, group);
    }

    /// <summary>No call of the group is pending: the calls that ended without being awaited directly ran together.</summary>
    private void Settle(StartedTogether group)
    {
        _groups.Remove(group.Key);
        if (group.Calls > 0)
        {
            Method(group.StarterName).AwaitedCallee(group.Key.Callee).AddGroup(group.Calls, group.SpanMs);
        }
    }

    /// <summary>Box <paramref name="awaiting"/> suspends awaiting <paramref name="awaitedTaskId"/>: another call of the callee
    /// it awaited last goes on its run; anything else ends the run, and a callee's box starts another.</summary>
    private void Awaits(int awaiting, int awaitedTaskId)
    {
        if (_groupByStartedBox.Remove(awaitedTaskId, out var group) && group.Left())
        {
            Settle(group);
        }
        if (!_boxes.TryGetValue(awaiting, out var caller))
        {
            return;
        }
        var callee = _boxes.TryGetValue(awaitedTaskId, out var box) ? box.Name : null;
        if (_awaitRunByAwaitingBox.TryGetValue(awaiting, out var run) && run.CalleeName == callee)
        {
            return;
        }
        EndAwaitRun(awaiting);
        if (callee is not null)
        {
            Track(_awaitRunByAwaitingBox, awaiting, new AwaitRun(caller.Name, callee));
        }
    }

    /// <summary>The run of awaits box <paramref name="awaiting"/> was making ends: its timed calls go to the callee's figures
    /// under the awaiting method.</summary>
    private void EndAwaitRun(int awaiting)
    {
        if (_awaitRunByAwaitingBox.Remove(awaiting, out var run) && run.Calls > 0)
        {
            Method(run.CallerName).AwaitedCallee(run.CalleeName).AddRun(run.Calls, run.SumMs, run.LongestMs);
        }
    }

    /// <summary>Adds (or takes back) a hop of this box's method, or of no known method.</summary>
    private void Charge(int box, int hops)
    {
        if (_boxes.TryGetValue(box, out var tracked))
        {
            Method(tracked.Name).Hops += hops;
        }
        else
        {
            _counts.UnattributedHops += hops;
        }
    }

    /// <summary>A box suspended by code that is not its own resumed run, and not the call that just created it: another call
    /// on a box that serves several (an async iterator's MoveNextAsync). Only synchronous-work events tell a box's own run.</summary>
    private void CountCallStart(int box, Suspension suspension)
    {
        if (SawSynchronousWork && box != suspension.RunningBox && box != suspension.CreatedBox && _boxes.TryGetValue(box, out var tracked))
        {
            Method(tracked.Name).SuspendingCalls++;
        }
    }

    private void Track<TKey, TValue>(Dictionary<TKey, TValue> table, TKey key, TValue value) where TKey : notnull
    {
        if (table.Count >= MaxTrackedTasks)
        {
            // Tasks that never complete would grow the table forever: forget them rather than the session's memory.
            table.Clear();
            _counts.Overflowed = true;
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

    /// <summary>The last <c>capacity</c> ids added, for a race's few microseconds: fixed memory, oldest forgotten first.</summary>
    private sealed class RecentIds(int capacity)
    {
        private readonly int[] _ring = new int[capacity];
        private readonly HashSet<int> _ids = [];
        private int _next;

        public void Add(int id)
        {
            if (_ids.Count == capacity)
            {
                _ids.Remove(_ring[_next]);
            }
            if (_ids.Add(id))
            {
                _ring[_next] = id;
                _next = (_next + 1) % capacity;
            }
        }

        public bool Contains(int id) => _ids.Contains(id);
    }

    private sealed class ThreadState
    {
        /// <summary>When this thread's latest event was written; null before its first in the stream.</summary>
        public double? LastEventMs { get; set; }

        /// <summary>Counts the runs of code on this thread (work items, resumptions): a box created in the current run was
        /// created by the code running now.</summary>
        public int Run { get; set; }

        /// <summary>The box that last suspended (was created) or resumed on this thread: the one a scheduled continuation belongs to.</summary>
        public int CurrentBox { get; set; }

        /// <summary>The box that last resumed on this thread in its current work item: the method running there.</summary>
        public int ResumedBox { get; set; }

        /// <summary>The box just created on this thread (its call's first suspension follows).</summary>
        public int CreatedBox { get; set; }

        public bool FreshWorkItem { get; set; }

        /// <summary>The resumption just charged, until the next event says which box it resumed.</summary>
        public Resumption? Pending { get; set; }

        /// <summary>Synchronous work running on this thread, innermost last: a box's task id, or 0 for other work.</summary>
        public Stack<int> Running { get; } = new();

        /// <summary>The innermost box running on this thread (0: none known).</summary>
        public int RunningBox => Running.FirstOrDefault(id => id != 0);

        /// <summary>What is known where a suspension happens; the box just created is consumed by its first suspension.</summary>
        public Suspension Suspending()
        {
            var suspension = new Suspension(CurrentBox, RunningBox, CreatedBox);
            CreatedBox = 0;
            return suspension;
        }

        /// <summary>The synchronous wait this thread is blocked in.</summary>
        public BlockingWait? Blocked { get; set; }
    }

    /// <summary>A box being followed: its method's state machine, when its call began (<see cref="HopComputer"/> says how
    /// that is known), and the thread and run its box was created in.</summary>
    private readonly record struct Box(string Name, double CalledMs, int ThreadId, int Run);

    /// <summary>The calls of one callee a box is awaiting one after another: their count, summed and longest elapsed time.</summary>
    private sealed class AwaitRun(string callerName, string calleeName)
    {
        public string CallerName { get; } = callerName;

        public string CalleeName { get; } = calleeName;

        public long Calls { get; private set; }

        public double SumMs { get; private set; }

        public double LongestMs { get; private set; }

        public void Add(double elapsedMs)
        {
            Calls++;
            SumMs += elapsedMs;
            LongestMs = Math.Max(LongestMs, elapsedMs);
        }
    }

    /// <summary>The calls of one callee a box started in one run of its thread, not awaited directly: they run together.</summary>
    private sealed class StartedTogether((int Starter, int ThreadId, int Run, string Callee) key, string starterName)
    {
        private long _pending;
        private double _firstStartMs = double.MaxValue, _lastEndMs;

        public (int Starter, int ThreadId, int Run, string Callee) Key { get; } = key;

        public string StarterName { get; } = starterName;

        /// <summary>The group's calls that ended.</summary>
        public long Calls { get; private set; }

        public double SpanMs => Math.Max(_lastEndMs - _firstStartMs, 0);

        public void Started() => _pending++;

        /// <summary>A call was awaited directly, and leaves the group; true when none is pending.</summary>
        public bool Left() => --_pending == 0;

        /// <summary>A call ended; true when it was the group's last.</summary>
        public bool Ended(double calledMs, double timestampMs)
        {
            Calls++;
            _firstStartMs = Math.Min(_firstStartMs, calledMs);
            _lastEndMs = Math.Max(_lastEndMs, timestampMs);
            return --_pending == 0;
        }
    }

    /// <summary>Where a box suspended: the box guessed to own the continuation, the box running then, the box just created.</summary>
    private sealed record Suspension(int GuessedBox, int RunningBox, int CreatedBox);

    private sealed record Resumption(int ChargedBox, bool CountedHop, Suspension? Suspension);

    private sealed record BlockingWait(int AwaitedTaskId, MethodHops? Blocker, double StartedMs);
}
