using System.ComponentModel;
using System.Diagnostics;
using AsyncCost.Attribution;
using AsyncCost.Computers;
using AsyncCost.Events;
using AsyncCost.Os;
using AsyncCost.Report;
using Microsoft.Diagnostics.NETCore.Client;
using Microsoft.Diagnostics.Tracing;

namespace AsyncCost.Sessions;

/// <summary>Runs the passes of a session (attach, launch, or trace files) and builds the report.</summary>
internal static partial class SessionRunner
{
    /// <summary>An attached session without a duration alternates its passes in slices of this length until cancelled.</summary>
    internal static readonly TimeSpan UnboundedSlice = TimeSpan.FromSeconds(5);

    /// <summary>The runtime knob that makes the default diagnostic port wait for a ResumeRuntime command at start-up.</summary>
    private const string SuspendVariable = "DOTNET_DefaultDiagnosticPortSuspend";

    public static async Task<AsyncCostReport> AttachAsync(int processId, SessionOptions options, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(options);
        cancellationToken.ThrowIfCancellationRequested();
        var warnings = new List<ReportWarning>();
        var (methods, runtimeVersion, useTick) = PrepareAttach(processId, options, warnings);
        var passes = PassList(options.Passes);
        var accumulators = passes.Select(p => new PassAccumulator(p, methods)).ToList();
        var monitor = ThreadSwitchMonitor.Start(processId);
        var client = new DiagnosticsClient(processId);

        // A bounded session gives each pass an equal share once; an unbounded one alternates slices until cancelled.
        var slice = options.Duration is { } total ? total / passes.Count : passes.Count == 1 ? (TimeSpan?)null : UnboundedSlice;
        var sliceCount = options.Duration is null && passes.Count > 1 ? int.MaxValue : passes.Count;
        var stop = StopReason.DurationElapsed;
        for (var i = 0; i < sliceCount; i++)
        {
            if (i > 0 && cancellationToken.IsCancellationRequested)
            {
                stop = StopReason.Canceled;
                break;
            }
            var pass = accumulators[i % passes.Count];
            var round = i / passes.Count;
            stop = await RecordPassAsync(client, processId, pass, (i % passes.Count) + 1, passes.Count, slice,
                window => OutputFile(options.OutputTracePath, pass.Pass, passes.Count, round, window), useTick, options, monitor, null,
                cancellationToken).ConfigureAwait(false);
            if (stop is StopReason.Canceled or StopReason.ProcessExited)
            {
                pass.CutShort = stop == StopReason.ProcessExited;
                break;
            }
        }
        if (stop == StopReason.DurationElapsed && options.Duration is null)
        {
            stop = StopReason.Canceled;
        }

        var cutShort = stop == StopReason.ProcessExited;
        if (cutShort)
        {
            warnings.Add(new ReportWarning("cut-short", $"Process {processId} exited during the session: the figures cover only what was recorded before."));
        }
        var source = new ReportSource
        {
            Kind = SourceKind.Attach,
            ProcessId = processId,
            ProcessName = ProcessName(processId),
            CommandLine = ProcFs.ReadCommandLine(processId),
            RuntimeVersion = runtimeVersion,
            TraceFiles = [.. accumulators.SelectMany(a => a.TraceFiles)],
        };
        var threads = monitor?.Results() ?? [];
        CheckThreadIds(accumulators, threads, warnings);
        return new ReportBuilder(methods).Build(source, [.. accumulators.Where(a => a.Figures.Events > 0 || a.Duration > TimeSpan.Zero).Select(a => a.ToResult())],
            threads, stop, cutShort, warnings);
    }

    /// <summary>What attaching needs before a session starts: the target can be traced, the assemblies it maps name its
    /// methods, and its runtime version decides which allocation event there is.</summary>
    internal static (MethodCatalog Methods, string? RuntimeVersion, bool UseAllocationTick) PrepareAttach(int processId, SessionOptions options, List<ReportWarning> warnings)
    {
        TargetProcess.EnsureTraceable(processId);
        var methods = new MethodCatalog();
        var mapped = TargetProcess.MappedFiles(processId);
        foreach (var file in mapped)
        {
            methods.AddModule(file);
        }
        var runtimeVersion = TargetProcess.RuntimeVersion(mapped);
        return (methods, runtimeVersion, NeedsAllocationTick(runtimeVersion, options, warnings));
    }

    public static async Task<AsyncCostReport> LaunchAsync(LaunchCommand command, SessionOptions options, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(command);
        ArgumentNullException.ThrowIfNull(options);
        cancellationToken.ThrowIfCancellationRequested();
        var passes = PassList(options.Passes);
        var methods = new MethodCatalog();
        var warnings = new List<ReportWarning>();
        var accumulators = new List<PassAccumulator>();
        IReadOnlyList<ThreadSwitches> threads = [];
        var stop = StopReason.ProcessExited;
        int? exitCode = null, processId = null;
        string? runtimeVersion = null;
        // --duration covers all passes, as for an attached process: each launch records its share.
        var perPass = options.Duration / passes.Count;

        for (var i = 0; i < passes.Count; i++)
        {
            var pass = new PassAccumulator(passes[i], methods);
            accumulators.Add(pass);
            using var child = StartChild(command);
            stop = StopReason.Canceled; // until recording says otherwise: a failed start must not wait for a suspended child
            int? runtimeProcess = null;
            try
            {
                var target = await WaitForRuntimeAsync(child, command.ConnectTimeout, cancellationToken).ConfigureAwait(false);
                processId = runtimeProcess = target;
                var mapped = TargetProcess.MappedFiles(target);
                foreach (var file in mapped)
                {
                    methods.AddModule(file);
                }
                runtimeVersion ??= TargetProcess.RuntimeVersion(mapped);
                var useTick = NeedsAllocationTick(runtimeVersion, options, i == 0 ? warnings : []);
                var monitor = ThreadSwitchMonitor.Start(target);
                var client = new DiagnosticsClient(target);
                stop = await RecordPassAsync(client, target, pass, i + 1, passes.Count, perPass,
                    window => OutputFile(options.OutputTracePath, pass.Pass, passes.Count, 0, window),
                    useTick, options, monitor, () => Resume(client), cancellationToken).ConfigureAwait(false);
                if (i == 0 || threads.Count == 0)
                {
                    // Switches of the first pass: the hop pass's TPL tracing changes the process's own behaviour.
                    threads = monitor?.Results() ?? [];
                }
            }
            finally
            {
                var endedItself = stop == StopReason.ProcessExited;
                await EndChildAsync(child, runtimeProcess, waitForExit: endedItself).ConfigureAwait(false);
                // A command the tool ended (duration, Enter, Ctrl+C) has no exit code of its own.
                exitCode = endedItself ? child.ExitCode : null;
            }
            if (stop == StopReason.Canceled)
            {
                break;
            }
        }

        if (accumulators.Count > 1)
        {
            warnings.Add(new ReportWarning("launched-per-pass", $"The command ran once per pass ({string.Join(", ", accumulators.Select(p => p.Pass.ToString().ToLowerInvariant()))}), so allocations were measured with TPL events off."));
        }

        var source = new ReportSource
        {
            Kind = SourceKind.Launch,
            ProcessId = processId,
            ProcessName = Path.GetFileNameWithoutExtension(command.FileName),
            CommandLine = string.Join(' ', command.Arguments.Prepend(command.FileName)),
            RuntimeVersion = runtimeVersion,
            TraceFiles = [.. accumulators.SelectMany(a => a.TraceFiles)],
            ExitCode = exitCode,
        };
        return new ReportBuilder(methods).Build(source, [.. accumulators.Select(a => a.ToResult())], threads, stop, cutShort: false, warnings);
    }

    /// <summary>
    /// Records one pass (or one slice of it) for <paramref name="duration"/>, or until cancelled or the process exits: in one
    /// session, or, for a hop pass with <see cref="SessionOptions.HopDutyCycle"/> below 1, in windows of
    /// <see cref="SessionOptions.HopWindow"/> while one counters-only session spans the whole pass (the thread pool's completed
    /// work items the windows' counts are scaled by). Only the first window asks for method rundown: the JIT events of the
    /// later ones name what was jitted since, and a rundown per window would cost each time.
    /// </summary>
    private static async Task<StopReason> RecordPassAsync(DiagnosticsClient client, int processId, PassAccumulator pass, int passNumber, int passCount,
        TimeSpan? duration, Func<int, string?> outputFile, bool useTick, SessionOptions options, ThreadSwitchMonitor? monitor, Action? onStarted,
        CancellationToken cancellationToken)
    {
        if (pass.Pass != MeasurementPasses.Hops || options.HopDutyCycle >= 1)
        {
            return await LiveSlice.RecordAsync(client, processId, pass, passNumber, passCount, duration, outputFile(0), useTick, options, monitor, onStarted,
                cancellationToken).ConfigureAwait(false);
        }
        if (options.HopDutyCycle <= 0 || options.HopWindow <= TimeSpan.Zero)
        {
            throw new ArgumentOutOfRangeException(nameof(options), "HopDutyCycle must be in (0, 1] and HopWindow positive.");
        }
        var between = options.HopWindow * ((1 / options.HopDutyCycle) - 1);
        var clock = Stopwatch.StartNew();
        using var endCounters = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        var countersStarted = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var quiet = new SessionOptions(); // no progress: the windows report it
        var counters = LiveSlice.RecordAsync(client, processId, pass, passNumber, passCount, duration, outputFile(CountersWindow), useTick, quiet, monitor,
            countersStarted.SetResult, endCounters.Token, SliceContent.CountersOnly, HopScale.CounterIntervalSeconds);
        if (await Task.WhenAny(countersStarted.Task, counters).ConfigureAwait(false) == counters)
        {
            return await counters.ConfigureAwait(false); // it could not start: its exception says why
        }
        var stop = StopReason.DurationElapsed;
        var recordedBefore = pass.Duration;
        var parsing = new List<Task<StopReason>>();
        try
        {
            for (var window = 0; stop == StopReason.DurationElapsed && !(clock.Elapsed >= duration); window++)
            {
                var left = duration - clock.Elapsed;
                var recorded = new TaskCompletionSource<StopReason>(TaskCreationOptions.RunContinuationsAsynchronously);
                var recording = LaterSessionAsync(LiveSlice.RecordAsync(client, processId, pass, passNumber, passCount,
                    left < options.HopWindow ? left : options.HopWindow, outputFile(window), useTick, options, null, window == 0 ? onStarted : null,
                    cancellationToken, window == 0 ? SliceContent.FirstWindow : SliceContent.Window, onRecorded: recorded.SetResult), window);
                parsing.Add(recording);
                // A hop-heavy window takes seconds to parse from its spool: that goes on during the pause, not instead of it.
                stop = await Task.WhenAny(recorded.Task, recording).ConfigureAwait(false) == recorded.Task
                    ? await recorded.Task.ConfigureAwait(false)
                    : await recording.ConfigureAwait(false);
                if (stop == StopReason.DurationElapsed && !(clock.Elapsed >= duration))
                {
                    left = duration - clock.Elapsed;
                    var pause = Task.Delay(left < between ? left.Value : between, cancellationToken);
                    if (await Task.WhenAny(pause, counters).ConfigureAwait(false) == counters)
                    {
                        stop = StopReason.ProcessExited;
                    }
                    else if (pause.IsCanceled)
                    {
                        stop = StopReason.Canceled;
                    }
                }
            }
        }
        finally
        {
            await endCounters.CancelAsync().ConfigureAwait(false);
            var countersStop = await counters.ConfigureAwait(false);
            stop = countersStop == StopReason.ProcessExited ? countersStop : stop;
            var elapsed = clock.Elapsed;
            foreach (var window in parsing)
            {
                stop = await window.ConfigureAwait(false) == StopReason.ProcessExited ? StopReason.ProcessExited : stop;
            }
            // Unrecorded: the pass's time outside its windows' recordings (the process ran untraced, parsing or pausing).
            pass.Unrecorded += elapsed - (pass.Duration - recordedBefore);
        }
        return stop;
    }

    /// <summary>A window after the first that the runtime refuses: the process is exiting (it accepted the counters' session).</summary>
    private static async Task<StopReason> LaterSessionAsync(Task<StopReason> recording, int window)
    {
        try
        {
            return await recording.ConfigureAwait(false);
        }
        catch (Exception e) when (window > 0 && e is ProcessNotFoundException or NotDotNetProcessException)
        {
            return StopReason.ProcessExited;
        }
    }

    public static Task<AsyncCostReport> ReadTraceAsync(IReadOnlyList<string> traceFiles, IProgress<TraceReadProgress>? progress, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(traceFiles);
        foreach (var file in traceFiles)
        {
            if (Directory.Exists(file))
            {
                throw new TraceFileNotFoundException(file, isDirectory: true);
            }
            if (!File.Exists(file))
            {
                throw new TraceFileNotFoundException(file);
            }
        }
        return Task.Run(() => ReadTraces(traceFiles, progress, cancellationToken), cancellationToken);
    }

    /// <summary>
    /// Reads each trace on its own and adds up the traces of each pass (the slices an unbounded attach writes, or traces
    /// recorded one after another), so the report covers all of them. A file named twice is read once. A damaged trace
    /// does not stop the others: its readable events count, the report says which file it was, and the exit is an error.
    /// </summary>
    private static AsyncCostReport ReadTraces(IReadOnlyList<string> traceFiles, IProgress<TraceReadProgress>? progress, CancellationToken cancellationToken)
    {
        var methods = new MethodCatalog();
        var passes = new Dictionary<MeasurementPasses, TraceGroup>();
        var warnings = new List<ReportWarning>();
        var damaged = new List<(string File, long Events, Exception Failure)>();
        var undecided = new List<(string File, EventReader Reader, TimeSpan ReadTime, bool Damaged)>();
        var windowCounters = new List<(string File, EventReader Reader)>();
        string? commandLine = null;
        var seen = new HashSet<string>(StringComparer.Ordinal);
        var files = new List<string>();
        foreach (var file in traceFiles)
        {
            if (seen.Add(Path.GetFullPath(file)))
            {
                files.Add(file);
            }
            else
            {
                warnings.Add(new ReportWarning("trace-given-twice", $"{file} was given more than once: it is read once."));
            }
        }

        var reading = Stopwatch.StartNew();
        foreach (var (file, fileNumber) in files.Select((f, i) => (f, i + 1)))
        {
            cancellationToken.ThrowIfCancellationRequested();
            var reader = new EventReader(methods);
            Exception? failure = null;
            var clock = Stopwatch.StartNew();
            try
            {
                // Read through a counting stream: it gives the progress, and it stops a read within one buffer when
                // cancelled (StopProcessing alone waits for the end of a file).
                var fileBytes = new FileInfo(file).Length;
                using var fileStream = File.OpenRead(file);
                using var stream = new CountingStream(fileStream, copy: null, cancellationToken);
                using var source = new EventPipeEventSource(stream);
                using var ticker = new PeriodicProgress(TimeSpan.FromMilliseconds(250), () =>
                    progress?.Report(new TraceReadProgress(file, fileNumber, files.Count, reading.Elapsed, reader.Events, stream.BytesRead, fileBytes)));
                reader.Process(source);
            }
            catch (Exception e) when (e is not OperationCanceledException and not OutOfMemoryException)
            {
                // TraceEvent reports a damaged file with assorted exception types (format, end of stream, invalid data).
                failure = e;
            }
            cancellationToken.ThrowIfCancellationRequested();
            if (failure is not null)
            {
                damaged.Add((file, reader.Events, failure));
                warnings.Add(new ReportWarning("trace-damaged", DamagedText(file, reader.Events, failure)
                    + (reader.Events > 0 ? ": the events before the damage are included." : ": it adds nothing.")));
                if (reader.Events == 0)
                {
                    continue;
                }
            }
            commandLine ??= reader.CommandLine;
            if (TracePass.FromEvents(reader) is null && reader.Counters.Samples > 0 && Path.GetFileName(file).EndsWith(".counters.nettrace", StringComparison.OrdinalIgnoreCase))
            {
                windowCounters.Add((file, reader)); // a windowed hop pass's counters, not a pass of its own
                continue;
            }
            if (reader.StackSamples > 0 && failure is null)
            {
                StackSampleReader.Read(file, reader.Cpu, methods, cancellationToken);
            }
            var trace = (file, reader, clock.Elapsed, failure is not null);
            if (TracePass.FromEvents(reader) is { } pass)
            {
                AddToPass(pass, trace);
            }
            else
            {
                undecided.Add(trace);
            }
        }
        var decided = passes.Keys.ToList();
        foreach (var trace in undecided)
        {
            AddToPass(TracePass.ForUndecided(trace.File, decided), trace);
        }
        // A windowed hop pass's windows ("run.hops.w2.nettrace") are scaled by the counters session that spanned them
        // ("run.hops.counters.nettrace"), as collect scales them; without it their counts are the windows' own.
        if (passes.TryGetValue(MeasurementPasses.Hops, out var hopTraces))
        {
            foreach (var (file, reader) in windowCounters)
            {
                hopTraces.WindowCounters.Add(reader.Counters);
                hopTraces.CountersDuration += reader.Duration ?? TimeSpan.Zero;
                hopTraces.Files.Add(file);
            }
            if (windowCounters.Count == 0 && hopTraces.Files.Any(f => WindowTraceName().IsMatch(Path.GetFileName(f))))
            {
                warnings.Add(new ReportWarning("hop-windows-unscaled", $"The hop traces are windows of a windowed hop pass ({hopTraces.Files.Count} files) without its counters trace (*.hops.counters.nettrace): hop, call and wait counts are the windows' own, not the whole pass's; per-call figures hold."));
            }
        }

        void AddToPass(MeasurementPasses pass, (string File, EventReader Reader, TimeSpan ReadTime, bool Damaged) trace)
        {
            var (file, reader, readTime, damagedTrace) = trace;
            if (!passes.TryGetValue(pass, out var group))
            {
                passes.Add(pass, group = new TraceGroup());
            }
            group.Figures.Add(reader);
            group.Files.Add(file);
            group.StartedAt = Min(group.StartedAt, reader.StartedAt ?? File.GetLastWriteTimeUtc(file));
            group.Duration += reader.Duration ?? readTime;
            group.Bytes += new FileInfo(file).Length;
            group.CutShort |= damagedTrace;
        }

        // A report's passes run allocations first, then hops, then cpu, whatever order the files came in.
        var results = passes.OrderBy(p => p.Key).Select(p => new PassResult
        {
            Pass = p.Key,
            Figures = p.Value.Figures,
            StartedAt = p.Value.StartedAt ?? default,
            Duration = p.Value.Duration,
            Bytes = p.Value.Bytes,
            TraceFiles = p.Value.Files,
            CutShort = p.Value.CutShort,
            Unrecorded = p.Value.CountersDuration > p.Value.Duration ? p.Value.CountersDuration - p.Value.Duration : TimeSpan.Zero,
            WindowedPassCounters = p.Value.CountersDuration > TimeSpan.Zero ? p.Value.WindowCounters : null,
        }).ToList();
        var stopReason = damaged.Count > 0 ? StopReason.TraceTruncated : StopReason.EndOfTrace;
        var reportSource = new ReportSource
        {
            Kind = SourceKind.TraceFile,
            ProcessId = results.Select(r => r.Figures.ProcessId).FirstOrDefault(p => p is not null),
            CommandLine = commandLine,
            TraceFiles = files,
        };
        var report = new ReportBuilder(methods).Build(reportSource, results, [], stopReason, damaged.Count > 0, warnings);
        if (damaged.Count == 0)
        {
            return report;
        }
        var (firstFile, firstEvents, firstFailure) = damaged[0];
        throw new TraceFileInvalidException(
            DamagedText(firstFile, firstEvents, firstFailure) + (damaged.Count > 1 ? $" (and {damaged.Count - 1} more damaged)" : "")
                + (results.Count > 0 ? "; the report covers what was readable." : "."),
            firstFailure) { PartialReport = results.Count > 0 ? report : null };
    }

    private static string DamagedText(string file, long events, Exception failure) => events > 0
        ? $"Trace file {file} is truncated or damaged after {events:N0} events: {failure.Message}"
        : $"{file} is not a readable .nettrace file: {failure.Message}";

    private static DateTimeOffset Min(DateTimeOffset? a, DateTimeOffset b) => a is { } value && value < b ? value : b;

    /// <summary>The traces of one pass given to `report`.</summary>
    [System.Text.RegularExpressions.GeneratedRegex(@"\.w[0-9]+\.nettrace$", System.Text.RegularExpressions.RegexOptions.CultureInvariant)]
    private static partial System.Text.RegularExpressions.Regex WindowTraceName();

    private sealed class TraceGroup
    {
        public PassFigures Figures { get; } = new();
        public List<string> Files { get; } = [];
        public DateTimeOffset? StartedAt { get; set; }
        public TimeSpan Duration { get; set; }
        public long Bytes { get; set; }
        public bool CutShort { get; set; }

        /// <summary>A windowed hop pass's counters session, across its windows and the time between them.</summary>
        public CounterComputer WindowCounters { get; } = new();
        public TimeSpan CountersDuration { get; set; }
    }

    private static Process StartChild(LaunchCommand command)
    {
        var start = new ProcessStartInfo(command.FileName)
        {
            UseShellExecute = false,
            RedirectStandardOutput = command.StandardOutput is not null,
            RedirectStandardError = command.StandardError is not null,
            WorkingDirectory = command.WorkingDirectory ?? Environment.CurrentDirectory,
        };
        foreach (var argument in command.Arguments)
        {
            start.ArgumentList.Add(argument);
        }
        foreach (var (name, value) in command.Environment)
        {
            start.Environment[name] = value;
        }
        start.Environment[SuspendVariable] = "1";
        var child = new Process { StartInfo = start };
        // Drain redirected output continuously: a child blocked on a full pipe never exits (diagnostics#1900).
        if (command.StandardOutput is { } stdout)
        {
            child.OutputDataReceived += (_, e) => { if (e.Data is not null) { stdout(e.Data); } };
        }
        if (command.StandardError is { } stderr)
        {
            child.ErrorDataReceived += (_, e) => { if (e.Data is not null) { stderr(e.Data); } };
        }
        try
        {
            child.Start();
        }
        catch (Win32Exception e)
        {
            child.Dispose();
            throw new CommandNotFoundException(command.FileName, e);
        }
        if (start.RedirectStandardOutput)
        {
            child.BeginOutputReadLine();
        }
        if (start.RedirectStandardError)
        {
            child.BeginErrorReadLine();
        }
        return child;
    }

    /// <summary>Lets a child whose stream ended finish exiting (the runtime closes EventPipe before the process is gone).
    /// A child still running (recording stopped early, or it did not exit in time) is asked to stop with SIGTERM, so its
    /// runtime removes its diagnostic socket and debugger pipes, and killed with what it started if it does not; whatever a
    /// killed runtime left in the temp directory is removed.</summary>
    private static async Task EndChildAsync(Process child, int? runtimeProcess, bool waitForExit)
    {
        if (waitForExit && await ExitsWithinAsync(child, TimeSpan.FromSeconds(10)).ConfigureAwait(false))
        {
            return;
        }
        if (!child.HasExited)
        {
            Signals.Terminate(runtimeProcess ?? child.Id);
            if (runtimeProcess is { } runtime && runtime != child.Id)
            {
                Signals.Terminate(child.Id);
            }
            if (!await ExitsWithinAsync(child, TimeSpan.FromSeconds(3)).ConfigureAwait(false))
            {
                child.Kill(entireProcessTree: true);
            }
        }
        await child.WaitForExitAsync(CancellationToken.None).ConfigureAwait(false);
        DiagnosticEndpoints.RemoveLeftovers(runtimeProcess ?? child.Id);
    }

    private static async Task<bool> ExitsWithinAsync(Process child, TimeSpan timeout)
    {
        using var grace = new CancellationTokenSource(timeout);
        try
        {
            await child.WaitForExitAsync(grace.Token).ConfigureAwait(false);
            return true;
        }
        catch (OperationCanceledException)
        {
            return false;
        }
    }

    /// <summary>Waits until the child (or, for a launcher script, its first .NET descendant) publishes its diagnostics endpoint.</summary>
    // ValueTask (AC0002): the endpoint is usually published by the first poll, and the one caller awaits once.
    private static async ValueTask<int> WaitForRuntimeAsync(Process child, TimeSpan timeout, CancellationToken cancellationToken)
    {
        var clock = Stopwatch.StartNew();
        while (true)
        {
            cancellationToken.ThrowIfCancellationRequested();
            foreach (var published in DiagnosticEndpoints.Published())
            {
                if (IsSelfOrDescendant(published, child.Id))
                {
                    return published;
                }
            }
            if (child.HasExited)
            {
                throw new NotDotNetProcessException(
                    $"{child.StartInfo.FileName} exited with code {child.ExitCode} before a .NET runtime started in it: nothing was measured.")
                { CommandExitCode = child.ExitCode };
            }
            if (clock.Elapsed > timeout)
            {
                throw new NotDotNetProcessException($"{child.StartInfo.FileName} did not start a .NET runtime within {timeout.TotalSeconds:0} s.");
            }
            await Task.Delay(20, cancellationToken).ConfigureAwait(false);
        }
    }

    private static bool IsSelfOrDescendant(int processId, int ancestor)
    {
        for (var (current, depth) = (processId, 0); depth < 8; depth++)
        {
            if (current == ancestor)
            {
                return true;
            }
            if (ProcFs.ParentOf(current) is not { } parent || parent <= 1)
            {
                return false;
            }
            current = parent;
        }
        return false;
    }

    /// <summary>Lets the suspended runtime run, after telling it not to pass the suspension on to processes it starts (diagnostics#5501).</summary>
    private static void Resume(DiagnosticsClient client)
    {
        try
        {
            client.SetEnvironmentVariable(SuspendVariable, "0");
        }
        catch (Exception e) when (e is ServerErrorException or UnsupportedCommandException)
        {
            // Older runtimes lack the command: grandchildren would still inherit the suspension.
        }
        client.ResumeRuntime();
    }

    internal static bool NeedsAllocationTick(string? runtimeVersion, SessionOptions options, List<ReportWarning> warnings)
    {
        if (runtimeVersion is not null && Version.TryParse(runtimeVersion.Split('-')[0], out var version))
        {
            if (version.Major < 5)
            {
                throw new RuntimeTooOldException(runtimeVersion);
            }
            if (version.Major < 10 && options.Passes.HasFlag(MeasurementPasses.Allocations))
            {
                warnings.Add(new ReportWarning("runtime-too-old-for-allocation-sampling", $"The target runs .NET {runtimeVersion}: AllocationSampled needs .NET 10, so allocations come from GCAllocationTick."));
                return true;
            }
        }
        return options.ForceAllocationTick;
    }

    private static void CheckThreadIds(List<PassAccumulator> passes, IReadOnlyList<ThreadSwitches> threads, List<ReportWarning> warnings)
    {
        var eventThreads = passes.SelectMany(p => p.Figures.ThreadIds).ToHashSet();
        if (threads.Count == 0 || eventThreads.Count == 0)
        {
            return;
        }
        var known = threads.Select(t => t.ThreadId).ToHashSet();
        var unmatched = eventThreads.Count(id => !known.Contains(id));
        if (unmatched > eventThreads.Count / 2)
        {
            warnings.Add(new ReportWarning("thread-ids-unmatched", $"{unmatched} of {eventThreads.Count} EventPipe thread ids are not /proc thread ids: per-thread switches cannot be joined to events."));
        }
    }

    private static List<MeasurementPasses> PassList(MeasurementPasses passes)
    {
        var list = new List<MeasurementPasses>();
        if (passes.HasFlag(MeasurementPasses.Allocations))
        {
            list.Add(MeasurementPasses.Allocations);
        }
        if (passes.HasFlag(MeasurementPasses.Hops))
        {
            list.Add(MeasurementPasses.Hops);
        }
        if (passes.HasFlag(MeasurementPasses.Cpu))
        {
            list.Add(MeasurementPasses.Cpu);
        }
        return list.Count > 0 ? list : throw new ArgumentException("Choose at least one pass.", nameof(passes));
    }

    /// <summary>The window number of a windowed hop pass's counters session, which spans its windows.</summary>
    internal const int CountersWindow = -1;

    /// <summary>The file for one pass (and slice, and hop window): the path itself for a single pass, else
    /// "name.pass[.slice][.wN].nettrace" beside it; a windowed hop pass's counters go to "name.hops[.slice].counters.nettrace",
    /// which `report` reads to scale the windows as `collect` does.</summary>
    internal static string? OutputFile(string? path, MeasurementPasses pass, int passCount, int slice, int window = 0)
    {
        if (path is null)
        {
            return null;
        }
        if (passCount == 1 && slice == 0 && window == 0)
        {
            return path;
        }
        var directory = Path.GetDirectoryName(path) ?? "";
        var name = Path.GetFileNameWithoutExtension(path);
        var suffix = (slice == 0 ? "" : "." + (slice + 1).ToString(System.Globalization.CultureInfo.InvariantCulture))
            + window switch
            {
                0 => "",
                CountersWindow => ".counters",
                _ => ".w" + (window + 1).ToString(System.Globalization.CultureInfo.InvariantCulture),
            };
        return Path.Combine(directory, $"{name}.{TracePass.PassName(pass)}{suffix}.nettrace");
    }

    internal static string? ProcessName(int processId)
    {
        try
        {
            using var process = Process.GetProcessById(processId);
            return process.ProcessName;
        }
        catch (Exception e) when (e is ArgumentException or InvalidOperationException)
        {
            return null;
        }
    }
}
