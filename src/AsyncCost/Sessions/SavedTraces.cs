using System.Diagnostics;
using AsyncCost.Attribution;
using AsyncCost.Computers;
using AsyncCost.Events;
using AsyncCost.Report;
using Microsoft.Diagnostics.Tracing;

namespace AsyncCost.Sessions;

/// <summary>Reads saved .nettrace files into one report: each pass's traces added up, damaged ones said.</summary>
internal static partial class SavedTraces
{
    public static Task<AsyncCostReport> ReadAsync(IReadOnlyList<string> traceFiles, long? operations, IProgress<TraceReadProgress>? progress, CancellationToken cancellationToken)
    {
        CheckFilesExist(traceFiles);
        return Task.Run(() => ReadTraces(traceFiles, operations, progress, cancellationToken), cancellationToken);
    }

    /// <summary>Fails before any reading starts when a trace file is missing or names a directory.</summary>
    internal static void CheckFilesExist(IReadOnlyList<string> traceFiles)
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
    }

    /// <summary>
    /// Reads each trace on its own and adds up the traces of each pass (the slices an unbounded attach writes, or traces
    /// recorded one after another), so the report covers all of them. A file named twice is read once. A damaged trace
    /// does not stop the others: its readable events count, the report says which file it was, and the exit is an error.
    /// </summary>
    private static AsyncCostReport ReadTraces(IReadOnlyList<string> traceFiles, long? operations, IProgress<TraceReadProgress>? progress, CancellationToken cancellationToken)
    {
        var methods = new MethodCatalog();
        var passes = new Dictionary<MeasurementPasses, TraceGroup>();
        var warnings = new List<ReportWarning>();
        var damaged = new List<(string File, long Events, Exception Failure)>();
        var undecided = new List<(string File, EventReader Reader, TimeSpan ReadTime, bool Damaged)>();
        var windowCounters = new List<(string File, EventReader Reader)>();
        var requestTraces = new List<(string File, EventReader Reader)>();
        string? commandLine = null;
        var seen = new Dictionary<string, string>(StringComparer.Ordinal);
        var files = new List<string>();
        foreach (var file in traceFiles)
        {
            // A symbolic link is the file it points to.
            if (seen.TryAdd(RealPath(file), file))
            {
                files.Add(file);
            }
            else
            {
                warnings.Add(new ReportWarning("trace-given-twice", $"{file} was given more than once"
                    + (seen[RealPath(file)] is var first && first != file ? $" (as {first})" : "") + ": it is read once."));
            }
        }
        // A copy of a trace is the same recording: known by its session's process, start time and events, not by its path.
        var recordings = new Dictionary<(int, DateTimeOffset, long), string>();

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
            if (reader.ProcessId is { } pid && reader.StartedAt is { } started && !recordings.TryAdd((pid, started, reader.Events), file))
            {
                warnings.Add(new ReportWarning("trace-given-twice", $"{file} is the same recording as {recordings[(pid, started, reader.Events)]} "
                    + $"(process {pid}, session started {started:yyyy-MM-dd HH:mm:ss.fff}): it is read once."));
                continue;
            }
            commandLine ??= reader.CommandLine;
            if (TracePass.FromEvents(reader) is null && reader.Counters.Samples > 0 && TraceFileNames.IsBeside(file, TraceFileNames.CountersWindow))
            {
                windowCounters.Add((file, reader)); // a windowed hop pass's counters, not a pass of its own
                continue;
            }
            if (TracePass.FromEvents(reader) is null && TraceFileNames.IsBeside(file, TraceFileNames.RequestsWindow))
            {
                requestTraces.Add((file, reader)); // the requests recorded beside a pass, not a pass of its own
                continue;
            }
            if (failure is null)
            {
                StackSampleReader.ReadInto(file, reader, methods, cancellationToken);
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
                hopTraces.Figures.Requests.Add(reader.Requests);
                hopTraces.CountersDuration += reader.Duration ?? TimeSpan.Zero;
                hopTraces.Files.Add(file);
            }
            if (windowCounters.Count == 0 && hopTraces.Files.Any(f => WindowTraceName().IsMatch(Path.GetFileName(f))))
            {
                warnings.Add(new ReportWarning("hop-windows-unscaled", $"The hop traces are windows of a windowed hop pass ({hopTraces.Files.Count} files) without its counters trace (*.hops.counters.nettrace): hop, call and wait counts are the windows' own, not the whole pass's; per-call figures hold."));
            }
        }

        // The requests recorded beside a pass ("run.allocations.requests.nettrace") are that pass's operations, as collect counts them.
        foreach (var (file, reader) in requestTraces)
        {
            var pass = TracePass.ForUndecided(file, decided);
            if (!passes.TryGetValue(pass, out var group))
            {
                passes.Add(pass, group = new TraceGroup());
            }
            group.Figures.Requests.Add(reader.Requests);
            group.Files.Add(file);
            group.Bytes += new FileInfo(file).Length;
        }

        WarnOfMixedRuns(passes, warnings);

        void AddToPass(MeasurementPasses pass, (string File, EventReader Reader, TimeSpan ReadTime, bool Damaged) trace)
        {
            var (file, reader, readTime, damagedTrace) = trace;
            if (!passes.TryGetValue(pass, out var group))
            {
                passes.Add(pass, group = new TraceGroup());
            }
            group.Recordings.Add((file, reader.ProcessId, reader.CommandLine));
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
            Operations = operations,
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

    /// <summary>
    /// Traces of one pass come from one process (the slices and windows of one attach); a launched command's passes run in
    /// a process each, but the same command. Traces of one pass from several processes, or of several commands, are
    /// different runs: their counts still add up, as the user asked, but the report says that they are not one run's.
    /// </summary>
    private static void WarnOfMixedRuns(Dictionary<MeasurementPasses, TraceGroup> passes, List<ReportWarning> warnings)
    {
        foreach (var (pass, group) in passes)
        {
            var byProcess = group.Recordings.Where(r => r.ProcessId is not null).GroupBy(r => r.ProcessId).ToList();
            if (byProcess.Count > 1)
            {
                warnings.Add(new ReportWarning("traces-of-different-runs", $"The {TracePass.PassName(pass)} traces come from {byProcess.Count} processes ("
                    + string.Join(", ", byProcess.Select(p => $"{p.First().File}: process {p.Key}")) + "): they are different runs, "
                    + "and their figures are added as if they were one."));
            }
        }
        var commands = passes.Values.SelectMany(g => g.Recordings).Where(r => r.CommandLine is not null).GroupBy(r => r.CommandLine).ToList();
        if (commands.Count > 1)
        {
            warnings.Add(new ReportWarning("traces-of-different-runs", $"The traces record {commands.Count} different commands ("
                + string.Join("; ", commands.Select(c => $"{c.First().File}: {c.Key}")) + "): they are different runs, and their figures are added as if they were one."));
        }
    }

    /// <summary>The path of the file itself: a symbolic link's final target, else the full path.</summary>
    private static string RealPath(string file)
    {
        try
        {
            return new FileInfo(file).ResolveLinkTarget(returnFinalTarget: true)?.FullName ?? Path.GetFullPath(file);
        }
        catch (IOException)
        {
            return Path.GetFullPath(file);
        }
    }

    /// <summary>What is wrong with the file, in words a user acts on; the reader's own message only as the detail it is.</summary>
    private static string DamagedText(string file, long events, Exception failure) =>
        IsEmpty(file) ? $"{file} is empty (0 bytes): nothing was recorded in it"
        : EndsEarly(failure) ? $"Trace file {file} ends early, {(events > 0 ? $"after {events:N0} events" : "before its first event")}: "
            + "it was cut off (its recording was stopped or killed before it finished, or the file was copied while it was still being written)"
        : events > 0 ? $"Trace file {file} is damaged after {events:N0} events (the reader found: {Detail(failure)})"
        : $"{file} is not a readable .nettrace file (the reader found: {Detail(failure)})";

    private static string Detail(Exception failure) => failure.Message.Trim().TrimEnd('.');

    // TraceEvent's reader says a file ended mid-event with a plain exception ("Read past end of stream."), not EndOfStreamException.
    private static bool EndsEarly(Exception failure) =>
        failure.GetBaseException() is EndOfStreamException || failure.Message.Contains("past end of stream", StringComparison.OrdinalIgnoreCase);

    private static bool IsEmpty(string file)
    {
        try
        {
            return new FileInfo(file).Length == 0;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return false;
        }
    }

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

        /// <summary>Each trace's file, and the process and command it recorded.</summary>
        public List<(string File, int? ProcessId, string? CommandLine)> Recordings { get; } = [];

        /// <summary>A windowed hop pass's counters session, across its windows and the time between them.</summary>
        public CounterComputer WindowCounters { get; } = new();
        public TimeSpan CountersDuration { get; set; }
    }
}
