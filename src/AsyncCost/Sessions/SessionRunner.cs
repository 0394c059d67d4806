using System.Diagnostics;
using AsyncCost.Attribution;
using AsyncCost.Os;
using AsyncCost.Report;
using Microsoft.Diagnostics.NETCore.Client;

namespace AsyncCost.Sessions;

/// <summary>Runs the passes of an attached or launched session and builds the report.</summary>
internal static class SessionRunner
{
    /// <summary>An attached session without a duration alternates its passes in slices of this length until cancelled.</summary>
    internal static readonly TimeSpan UnboundedSlice = TimeSpan.FromSeconds(5);

    public static async Task<AsyncCostReport> AttachAsync(int processId, SessionOptions options, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(options);
        cancellationToken.ThrowIfCancellationRequested();
        var warnings = new List<ReportWarning>();
        var (methods, runtimeVersion, useTick) = PrepareAttach(processId, options, warnings);
        var passes = PassList(options.Passes);
        // An ASP.NET Core process's passes record its requests beside them: its operations.
        var servesRequests = TargetProcess.RunsKestrel(processId);
        var accumulators = passes.Select(p => new PassAccumulator(p, methods) { RecordRequests = servesRequests }).ToList();
        var monitor = ThreadSwitchMonitor.Start(processId);
        var client = await DiagnosticEndpoints.ClientForAsync(processId, cancellationToken).ConfigureAwait(false);

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
            stop = await PassRecorder.RecordAsync(client, processId, pass, (i % passes.Count) + 1, passes.Count, slice,
                window => TraceFileNames.For(options.OutputTracePath, pass.Pass, passes.Count, round, window), useTick, options,
                options.HopDutyCycle ?? SessionOptions.AttachedHopDutyCycle, monitor, null,
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

        WarnOfSkippedWindows(accumulators, warnings);
        WarnOfPassesNotRun(accumulators.Where(a => a.StartedAt is null).Select(a => a.Pass), accumulators, stop, warnings);
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
        LaunchedChild.EnsureAppExists(command);
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
            var printed = new PrintedOperations();
            using var child = LaunchedChild.Start(command, printed.Read);
            stop = StopReason.Canceled; // until recording says otherwise: a failed start must not wait for a suspended child
            int? runtimeProcess = null;
            try
            {
                var target = await LaunchedChild.WaitForRuntimeAsync(child, command.ConnectTimeout, cancellationToken).ConfigureAwait(false);
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
                stop = await PassRecorder.RecordAsync(client, target, pass, i + 1, passes.Count, perPass,
                    window => TraceFileNames.For(options.OutputTracePath, pass.Pass, passes.Count, 0, window),
                    useTick, options, options.HopDutyCycle ?? 1, monitor, () => LaunchedChild.Resume(client), cancellationToken).ConfigureAwait(false);
                if (stop == StopReason.DurationElapsed)
                {
                    // The tool ended the command at its share of --duration: it did not run to its end.
                    pass.CutShort = true;
                }
                if (i == 0 || threads.Count == 0)
                {
                    // Switches of the first pass: the hop pass's TPL tracing changes the process's own behaviour.
                    threads = monitor?.Results() ?? [];
                }
            }
            finally
            {
                var endedItself = stop == StopReason.ProcessExited;
                await LaunchedChild.EndAsync(child, runtimeProcess, waitForExit: endedItself).ConfigureAwait(false);
                // A command the tool ended (duration, Enter, Ctrl+C) has no exit code of its own.
                exitCode = endedItself ? child.ExitCode : null;
            }
            if (stop == StopReason.ProcessExited)
            {
                // Only a run that ended by itself did its operations; its output has been read to the end by now.
                // A count given to collect stands in for one the command does not print, never against one it does.
                pass.Operations = PassBasis.Reconcile(options.Operations, printed.Operations, $"the command's run in its {TracePass.PassName(pass.Pass)} pass");
                pass.OperationSeconds = printed.Operations == pass.Operations ? printed.Seconds : null;
            }
            if (stop == StopReason.Canceled)
            {
                break;
            }
        }

        WarnOfSkippedWindows(accumulators, warnings);
        WarnOfPassesNotRun(passes.Skip(accumulators.Count), accumulators, stop, warnings);
        if (accumulators.FirstOrDefault(a => a.CutShort) is { } cut)
        {
            warnings.Add(new ReportWarning("duration-ended-command", $"--duration ended the command in its {TracePass.PassName(cut.Pass)} pass "
                + $"after {perPass!.Value.TotalSeconds:0.#} s (each of {passes.Count} launch(es) gets its share): it did not run to its end, and the figures cover the part it ran."));
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
        return new ReportBuilder(methods).Build(source, [.. accumulators.Select(a => a.ToResult())], threads, stop, cutShort: accumulators.Any(a => a.CutShort), warnings);
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

    /// <summary>A session stopped (Ctrl+C, Enter, the process exiting) before some of its passes began: their figures are
    /// missing, not zero.</summary>
    private static void WarnOfPassesNotRun(IEnumerable<MeasurementPasses> notRun, List<PassAccumulator> passes, StopReason stop, List<ReportWarning> warnings)
    {
        var names = notRun.Select(TracePass.PassName).ToList();
        if (names.Count == 0 || stop == StopReason.DurationElapsed)
        {
            return;
        }
        var during = passes.LastOrDefault(p => p.StartedAt is not null) is { } last ? $"during the {TracePass.PassName(last.Pass)} pass" : "before any pass";
        warnings.Add(new ReportWarning("passes-not-run", $"Stopped {during}: the {string.Join(" and ", names)} pass{(names.Count > 1 ? "es" : "")} never ran, "
            + $"so the report has none of {(names.Count > 1 ? "their" : "its")} figures (missing, not zero)."));
    }

    private static void WarnOfSkippedWindows(List<PassAccumulator> passes, List<ReportWarning> warnings)
    {
        foreach (var pass in passes.Where(p => p.SkippedWindows.Count > 0))
        {
            warnings.Add(new ReportWarning("hop-windows-skipped", $"{pass.SkippedWindows.Count:N0} hop window(s) were skipped: the runtime refused their "
                + $"sessions twice ({pass.SkippedWindows[0]}). The hop pass's counts rest on the {pass.Figures.Hops.Windows:N0} window(s) it recorded."));
        }
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
