using Microsoft.CodeAnalysis;

namespace AsyncCost.Analyzers;

/// <summary>The catalog: every diagnostic the package reports, in one place.</summary>
public static class Descriptors
{
    internal static class Categories
    {
        public const string Performance = "Performance";
        public const string Reliability = "Reliability";
    }

    public static readonly DiagnosticDescriptor AwaitInLoop = Create(
        RuleIds.AwaitInLoop,
        CostKind.Hops,
        "Loop awaits independent calls one after another",
        "'{0}' is awaited once per iteration, and the iterations are independent ({1}): start the calls together and await them once (Task.WhenAll, or Parallel.ForEachAsync with MaxDegreeOfParallelism as a bound) so that their waits overlap; keep the loop where the calls must run in order or one at a time (ordering, a rate limit)",
        Categories.Performance,
        DiagnosticSeverity.Info,
        "A loop that awaits, one after another, calls it can show to be independent waits for each in turn; started together, their latencies overlap and the loop waits about as long as the slowest call.");

    public static readonly DiagnosticDescriptor PreferValueTask = Create(
        RuleIds.PreferValueTask,
        CostKind.Allocations,
        "Task<T> where ValueTask<T> fits",
        "'{0}' often returns without suspending and allocates a Task<{1}> each time (" + CostModel.CompletedTaskBytes + "); return ValueTask<{1}> instead",
        Categories.Performance,
        DiagnosticSeverity.Info,
        "A non-public async method that can complete synchronously with an uncached result allocates a Task<T> per call; ValueTask<T> avoids it when every caller awaits the result once.",
        WellKnownDiagnosticTags.CompilationEnd);

    public static readonly DiagnosticDescriptor SynchronousFastPath = Create(
        RuleIds.SynchronousFastPath,
        CostKind.Allocations,
        "Async method could return synchronously on its completed path",
        "'{0}' runs its async state machine on every call although '{1}' usually completes synchronously; returning directly when its task IsCompletedSuccessfully (and awaiting it in a static async local function only when not) skips that work on the completed path: " + CostModel.SynchronousStateMachineTime + " per call and no allocation either way, worth it on a hot path",
        Categories.Performance,
        DiagnosticSeverity.Info,
        "An async method whose common path completes synchronously can check the awaited task and return without entering the async machinery; the saving is the state machine's work (" + CostModel.SynchronousStateMachineTime + " per call), not an allocation.",
        WellKnownDiagnosticTags.CompilationEnd);

    public static readonly DiagnosticDescriptor MissingConfigureAwait = Create(
        RuleIds.MissingConfigureAwait,
        CostKind.Hops,
        "Library code awaits without ConfigureAwait(false)",
        "Add ConfigureAwait(false) to this await in library code: when it suspends, resuming through the caller's captured context costs a post back to it (like a thread-pool hop, " + CostModel.ThreadPoolHop + ") and can deadlock callers that block on the result, under a single-threaded synchronization context",
        Categories.Reliability,
        DiagnosticSeverity.Info,
        "Library code should not resume on the caller's synchronization context.");

    public static readonly DiagnosticDescriptor TaskYieldInLoop = Create(
        RuleIds.TaskYieldInLoop,
        CostKind.Hops,
        "Task.Yield inside a loop",
        "'await Task.Yield()' inside a loop pays a thread-pool hop on every iteration (" + CostModel.ThreadPoolHop + " each); {0}",
        Categories.Performance,
        DiagnosticSeverity.Info,
        "Each Task.Yield queues the continuation to the thread pool.");

    /// <summary>AC0005's advice where the loop does work between yields.</summary>
    public const string TaskYieldHoistAdvice = "yield once, or batch the work";

    /// <summary>AC0005's advice where the yield is a poll loop's only wait: moving it out would leave a spin that never frees the thread.</summary>
    public const string TaskYieldPollAdvice = "here it is a poll loop's only wait, one hop per try while a pool thread stays busy: wait on a signal the other side sets instead (a TaskCompletionSource, SemaphoreSlim.WaitAsync, a Channel) rather than moving the yield out, which would leave a spin that never frees the thread";

    public static readonly DiagnosticDescriptor BlockingOnTask = Create(
        RuleIds.BlockingOnTask,
        CostKind.Blocking,
        "Blocking on a task that may not have completed",
        "'{0}' blocks a thread on {2} (" + CostModel.ThreadSwitch + " per blocking hand-off, a thread-pool thread out of service while it waits, and a deadlock under a synchronization context); {1}",
        Categories.Reliability,
        DiagnosticSeverity.Warning,
        "Blocking on an incomplete task holds a thread and can deadlock.");

    public static readonly DiagnosticDescriptor BlockingInSynchronousContract = Create(
        RuleIds.BlockingInSynchronousContract,
        CostKind.Blocking,
        "Blocking on a task inside a synchronous contract",
        "'{0}' blocks a thread on {2} (" + CostModel.ThreadSwitch + " per blocking hand-off, a thread-pool thread out of service while it waits, and a deadlock under a synchronization context); {1}",
        Categories.Reliability,
        DiagnosticSeverity.Info,
        "AC0006's finding where the wait stands in a member whose synchronous shape is a contract (a constructor, Dispose, a synchronous override or interface member, an APM End method, a method whose purpose is to block), or in a method only such members call: the fix is an async alternative beside the contract, not an await in it.");

    public static readonly DiagnosticDescriptor BlockingInTest = Create(
        RuleIds.BlockingInTest,
        CostKind.Blocking,
        "Blocking on a task in test code",
        "'{0}' blocks a thread on a task that may not have completed, in a test project: the wait costs the test run, not the service (a thread out of service while it waits, and a deadlock under a test framework's synchronization context); {1}",
        Categories.Reliability,
        DiagnosticSeverity.Info,
        "AC0006's finding in a test project: the same waits, which cost the test run rather than production, so a suggestion (xUnit1031 is the test frameworks' own rule for a test method's waits).");

    public static readonly DiagnosticDescriptor BlockingWaitInAsync = Create(
        RuleIds.BlockingWaitInAsync,
        CostKind.Blocking,
        "Thread-blocking wait inside async code",
        "'{0}' parks a thread inside async code (" + CostModel.ThreadSwitch + " per blocking hand-off, and a thread-pool thread out of service while it waits); {1} instead",
        Categories.Performance,
        DiagnosticSeverity.Info,
        "Async code should wait asynchronously; a blocking wait takes a thread-pool thread out of service.");

    /// <summary>AC0007's advice where the wait is a poll inside a synchronous helper the async code calls (the helper is the message's first argument).</summary>
    public const string PollingHelperAdvice = "it calls Thread.Sleep in a loop (a poll or a retry), so the async caller's thread sleeps through every try: make it an async method that awaits a signal the other side sets (a TaskCompletionSource, SemaphoreSlim.WaitAsync), or Task.Delay between tries, and await it";

    public static readonly DiagnosticDescriptor ElidableStateMachine = Create(
        RuleIds.ElidableStateMachine,
        CostKind.Allocations,
        "Async state machine can be elided",
        "'{0}' only awaits one task of its own return type; return that task directly to skip the async state machine ({1})",
        Categories.Performance,
        DiagnosticSeverity.Info,
        "A method whose only work is 'return await X' can return X. Disputed advice: the method's frame leaves exception stack traces, and exceptions thrown while computing X surface synchronously.");

    /// <summary>AC0008's cost, the message's second argument: what the state machine costs where the awaited task may suspend.</summary>
    public const string ElidableSuspendingCost = CostModel.SuspendingAwaitBytes + " per suspending call";

    /// <summary>AC0008's cost where the awaited task is complete where it is made: nothing suspends, nothing is boxed.</summary>
    public const string ElidableCompletedCost = "the awaited task is already complete, so the await never suspends and allocates no state-machine box: it only runs the state machine's instructions";

    /// <summary>As above for Task&lt;T&gt;, where the method's own result task is the one allocation.</summary>
    public const string ElidableCompletedResultCost = ElidableCompletedCost + ", and the method allocates its own Task for the result (" + CostModel.CompletedTaskBytes + " unless the runtime caches the value)";

    public static readonly DiagnosticDescriptor FastPathClosure = Create(
        RuleIds.FastPathClosure,
        CostKind.Allocations,
        "Fast path allocates the async local function's closure",
        "Local function '{0}' captures {1}, so its closure (~{2} B, as measured for a closure of that shape) is allocated on every call, fast path included, where it is the only visible allocation; make it static and pass the state as parameters",
        Categories.Performance,
        DiagnosticSeverity.Info,
        "The compiler allocates the display class of a capturing local function at the start of the enclosing scope.");

    public static readonly DiagnosticDescriptor LongRunningAsyncStart = Create(
        RuleIds.LongRunningAsyncStart,
        CostKind.Allocations,
        "LongRunning StartNew of an async delegate",
        "StartNew {0}; {1}",
        Categories.Reliability,
        DiagnosticSeverity.Info,
        "TaskCreationOptions.LongRunning gives the delegate a dedicated thread, which an async delegate gives back at its first await; and the Task<Task> StartNew returns completes when the delegate returns its task, not when the work ends. Task.Run unwraps and uses the thread pool.");

    /// <summary>AC0012's first part where LongRunning is an option of the call ({0}: what the delegate is).</summary>
    public const string LongRunningThreadForNothing = "with TaskCreationOptions.LongRunning runs {0} on a thread of its own only until its first await that suspends: the thread then ends and the rest runs on the thread pool, so the thread is created for nothing";

    /// <summary>AC0012's first part where LongRunning binds as the state object of the (delegate, object) overload.</summary>
    public const string LongRunningPassedAsState = "passes TaskCreationOptions.LongRunning as the state object of its (Func<object, TResult>, object) overload, not as an option: no option applies, and {0} runs on the thread pool up to its first await like any task";

    /// <summary>AC0012's second part where the outer task is not unwrapped.</summary>
    public const string LongRunningNestedTaskAdvice = "and the Task<Task> it returns completes at that first await, not when the work ends: use Task.Run(…), which unwraps, and await or keep the task it returns";

    /// <summary>AC0012's second part where the call is already <c>.Unwrap()</c>ped.</summary>
    public const string LongRunningUnwrappedAdvice = "use Task.Run(…), which unwraps as .Unwrap() does here, without the thread";

    public static readonly DiagnosticDescriptor WhenAnyInLoop = Create(
        RuleIds.WhenAnyInLoop,
        CostKind.Allocations,
        "Per-iteration WhenAny/ContinueWith in a loop",
        "'{0}' runs once per iteration of this loop and allocates {1} each time; {2}",
        Categories.Performance,
        DiagnosticSeverity.Info,
        "A receive loop that races each operation against a timeout with Task.WhenAny, or attaches a ContinueWith to each, allocates tasks, continuations and timers per message; a CancellationTokenSource made once for the loop (CancelAfter per iteration) or WaitAsync(timeout), awaited directly, does not.");

    /// <summary>AC0013's cost of a WhenAny.</summary>
    public const string WhenAnyCost = "the WhenAny's task and a continuation on each task it races";

    /// <summary>AC0013's cost of a WhenAny that races a Task.Delay made in the iteration.</summary>
    public const string WhenAnyWithDelayCost = WhenAnyCost + ", and the Task.Delay a timer and its task";

    /// <summary>AC0013's cost of a ContinueWith.</summary>
    public const string ContinueWithCost = "a continuation task and its delegate";

    /// <summary>AC0013's advice for a WhenAny that races an operation against a Task.Delay timeout.</summary>
    public const string WhenAnyInLoopAdvice = "make one CancellationTokenSource for the loop and CancelAfter(timeout) it each iteration (that moves the same timer; a new source only after it fired), pass its token to the operation and await the operation directly; where the operation takes no token, await operation.WaitAsync(timeout, token) (.NET 6+), one wait instead of a race";

    /// <summary>AC0013's advice for a WhenAny that races this iteration's operation against another task, with no timeout.</summary>
    public const string WhenAnyRaceInLoopAdvice = "cancel this iteration's operation through a token rather than racing it: one CancellationTokenSource for the loop, cancelled when the other task completes (one registration before the loop), its token passed to the operation, which is then awaited directly";

    /// <summary>AC0013's advice for a ContinueWith.</summary>
    public const string ContinueWithInLoopAdvice = "await the task directly (a try/catch observes its exception), and end an abandoned operation through its cancellation token instead of attaching a continuation to it";

    // Rules that report from a compilation-end action also carry the CompilationEnd tag (RS1037): they only run in full builds.
    // No help link: the rule pages live in the repository's docs/rules/, which has no public address to point at yet,
    // and a placeholder URL would be printed on every warning and in SARIF's helpUri.
    private static DiagnosticDescriptor Create(string id, CostKind cost, string title, string message, string category, DiagnosticSeverity severity, string description, params string[] extraTags) =>
        new(id, title, message, category, severity, isEnabledByDefault: true, description: description, helpLinkUri: null, customTags: [.. CostKindTag.For(cost), .. extraTags]);
}
