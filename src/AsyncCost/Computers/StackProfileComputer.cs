using System.Globalization;
using AsyncCost.Attribution;
using AsyncCost.Report;

namespace AsyncCost.Computers;

/// <summary>
/// Keeps the sample profiler's stacks themselves, for a flame graph: each thread's samples in time order, root first, with
/// one table of frame names. A frame of an async method's state machine (its MoveNext, or the method it was inlined into)
/// is named as the report names the method ("Ns.Checkout.CheckoutAsync", not "Ns.Checkout+&lt;CheckoutAsync&gt;d__3.MoveNext"),
/// and the runtime's frames that run it (the AsyncStateMachineBox's MoveNext, an iterator's MoveNextAsync) say whose they are,
/// so the flame graph and the report speak of the same methods; so are lambdas and local functions, the framework's too
/// ("System.Threading.ThreadPool..cctor.lambda#0", not "System.Threading.ThreadPool+&lt;&gt;c.&lt;.cctor&gt;b__48_0"). Threads come
/// busiest first (most samples running managed code), each named by what it ran.
/// </summary>
internal sealed class StackProfileComputer : IStackSampleSink
{
    /// <summary>What a thread that ran these frames is for, the first that matches naming it ("requests" before "thread pool").</summary>
    private static readonly (string Frame, string Role)[] Roles =
    [
        ("Microsoft.AspNetCore.Server.Kestrel.Core.Internal.Http.HttpProtocol", "requests"),
        ("System.Net.Sockets.SocketAsyncEngine", "socket events"),
        ("System.Diagnostics.Tracing.EventPipeEventDispatcher", "EventPipe dispatch"),
        ("System.Threading.TimerQueue", "timers"),
        ("System.GC.RunFinalizers", "finalizer"),
        ("System.Threading.PortableThreadPool", "thread pool"),
        ("System.Threading.ThreadPoolWorkQueue.Dispatch", "thread pool"),
    ];

    /// <summary>The compiler's entry point that runs an async Main to its end ("Program.&lt;Main&gt;").</summary>
    private const string AsyncEntryPoint = ".<Main>";

    private const string Box = "+AsyncStateMachineBox`1[";

    private readonly Dictionary<string, int> _frameIndex = new(StringComparer.Ordinal);
    private readonly List<string> _frames = [];
    private readonly Dictionary<int, ThreadSamples> _threads = [];
    private readonly SampleInterval _interval = new();

    public long Samples { get; private set; }

    public void OnSample(int threadId, double timestampMs, SampledThreadState state, IReadOnlyList<string> frames, Func<string, AsyncMethodName?> asyncMethodOf)
    {
        ArgumentNullException.ThrowIfNull(frames);
        ArgumentNullException.ThrowIfNull(asyncMethodOf);
        // A sample weighs the interval the cpu pass measures, so the flame graph's times are the report's.
        _interval.OnSample(threadId, timestampMs);
        var stack = new int[frames.Count];
        for (var i = 0; i < frames.Count; i++)
        {
            stack[frames.Count - 1 - i] = Index(ReadableName(frames[i], asyncMethodOf));
        }
        if (!_threads.TryGetValue(threadId, out var samples))
        {
            samples = new ThreadSamples();
            _threads.Add(threadId, samples);
        }
        samples.Stacks.Add((timestampMs, stack));
        samples.Running += state == SampledThreadState.Managed ? 1 : 0;
        Samples++;
    }

    /// <summary>The report's name for an async method's frame; the runtime's frames around it named with it; others as they are.</summary>
    internal static string ReadableName(string frame, Func<string, AsyncMethodName?> asyncMethodOf)
    {
        if (asyncMethodOf(frame) is { } method)
        {
            return method.DisplayName;
        }

        // "System.Runtime.CompilerServices.AsyncTaskMethodBuilder`1+AsyncStateMachineBox`1[System.Int64,Ns.Stock+<ReserveAsync>d__3].MoveNext":
        // the runtime resuming ReserveAsync; its state machine is the box's last type argument.
        var box = frame.IndexOf(Box, StringComparison.Ordinal);
        var close = frame.LastIndexOf("].", StringComparison.Ordinal);
        if (box > 0 && close > box)
        {
            var arguments = frame[(box + Box.Length)..close];
            var stateMachine = arguments[(arguments.LastIndexOf(',') + 1)..];
            var member = "AsyncStateMachineBox." + frame[(close + 2)..];
            // Code shared by every reference-type state machine names none ("System.__Canon"): the box's member alone.
            return AsyncMethodName.Parse(stateMachine) is { Kind: not GeneratedTypeKind.Closure } boxed ? $"{boxed.DisplayName} ({member})" : member;
        }

        // An async iterator's own members: "Ns.Discounts+<CouponsAsync>d__5.System.Collections.Generic.IAsyncEnumerator<System.Decimal>.MoveNextAsync".
        var generated = frame.IndexOf(">d__", StringComparison.Ordinal);
        if (generated > 0)
        {
            var end = generated + ">d__".Length;
            while (end < frame.Length && char.IsAsciiDigit(frame[end]))
            {
                end++;
            }

            if (end < frame.Length && frame[end] == '.' && AsyncMethodName.Parse(frame[..end]) is { Kind: not GeneratedTypeKind.Closure } owner)
            {
                return $"{owner.DisplayName} ({frame[(frame.LastIndexOf('.') + 1)..]})";
            }
        }

        // A lambda's or local function's body ("Ns.T+<>c.<Get>b__3_0", "Ns.T+<>c__DisplayClass3_0.<Get>b__0",
        // "Ns.T.<Get>g__Local|3_1") and top-level statements ("Program.<Main>$"): named as the report names the state machine
        // the compiler would generate for it were it async ("Ns.T+<>c+<<Get>b__3_0>d" is "Ns.T.Get.lambda#0").
        var dot = MethodCatalog.LastDotOutsideBrackets(frame);
        var memberName = frame[(dot + 1)..];
        if (dot > 0 && memberName.StartsWith('<')
            && AsyncMethodName.Parse($"{RuntimeTypeName.Parse(frame[..dot]).Name}+<{memberName}>d") is { Kind: not GeneratedTypeKind.Closure } body)
        {
            return body.DisplayName;
        }

        return frame.EndsWith(AsyncEntryPoint, StringComparison.Ordinal) ? frame[..^AsyncEntryPoint.Length] + ".Main (entry point)" : frame;
    }

    private int Index(string name)
    {
        if (!_frameIndex.TryGetValue(name, out var index))
        {
            index = _frames.Count;
            _frameIndex.Add(name, index);
            _frames.Add(name);
        }
        return index;
    }

    public StackProfile Result(IReadOnlyList<string> traceFiles)
    {
        // No thread sampled twice: the sample profiler's default interval.
        var interval = _interval.Milliseconds ?? 1.0;
        return new StackProfile
        {
            Frames = [.. _frames],
            IntervalMs = interval,
            TraceFiles = traceFiles,
            Threads = [.. _threads.OrderByDescending(t => t.Value.Running).ThenByDescending(t => t.Value.Stacks.Count).ThenBy(t => t.Key).Select(t => new ThreadStacks
            {
                ThreadId = t.Key,
                Name = Name(t.Key, t.Value, interval),
                RunningSamples = t.Value.Running,
                StartMs = t.Value.Stacks.Min(s => s.Time),
                EndMs = t.Value.Stacks.Max(s => s.Time),
                Samples = [.. t.Value.Stacks.OrderBy(s => s.Time).Select(s => (IReadOnlyList<int>)s.Stack)],
            })],
        };
    }

    /// <summary>"Thread 1234: requests, 812 ms running": what the thread ran, and how long it ran managed code.</summary>
    private string Name(int threadId, ThreadSamples samples, double interval)
    {
        var frames = samples.Stacks.SelectMany(s => s.Stack).Distinct().Select(i => _frames[i]).ToList();
        var role = Roles.FirstOrDefault(r => frames.Any(f => f.StartsWith(r.Frame, StringComparison.Ordinal))).Role
            ?? (frames.Any(f => f.EndsWith(".Main (entry point)", StringComparison.Ordinal) || f.EndsWith(".Main", StringComparison.Ordinal)) ? "main" : null);
        var running = (samples.Running * interval).ToString("N0", CultureInfo.InvariantCulture);
        return $"Thread {threadId.ToString(CultureInfo.InvariantCulture)}{(role is null ? "" : ": " + role)}, {running} ms running";
    }

    private sealed class ThreadSamples
    {
        public List<(double Time, int[] Stack)> Stacks { get; } = [];

        public int Running { get; set; }
    }
}
