using AsyncCost.Report;

namespace AsyncCost.Cli.Rendering;

/// <summary>Turns an <see cref="AsyncCostReport"/> into the sections every text format shows: what was measured, then the costs.</summary>
internal static class ReportDocument
{
    private const int UnattributedTypesShown = 10;

    /// <summary>The whole report for reading (table and markdown formats).</summary>
    /// <param name="report">The report.</param>
    /// <param name="allMethods">List framework and library methods one by one instead of one row per assembly.</param>
    public static TextDocument Create(AsyncCostReport report, bool allMethods = false)
    {
        // A cpu pass alone has nothing for the bytes-and-hops table.
        var tables = report.Passes.All(p => p.Pass == MeasurementPasses.Cpu) ? new List<TextTable>() : [Methods(report, allMethods)];
        if (Endpoints(report) is { } endpoints)
        {
            tables.Insert(0, endpoints);
        }
        if (CallTreeDocument.Table(report, allMethods) is { } callTree)
        {
            tables.Add(callTree);
        }
        if (ElapsedDistributions(report, allMethods) is { } distributions)
        {
            tables.Add(distributions);
        }
        if (report.Methods.Any(m => m.CpuMilliseconds is not null))
        {
            tables.Add(Time(report, allMethods));
        }
        if (report.PlainMethodAllocations.Count > 0)
        {
            tables.Add(PlainMethods(report));
        }
        if (report.UnattributedAllocations.Count > 0)
        {
            tables.Add(Unattributed(report));
        }

        tables.Add(Totals(report));
        if (report.Threads.Count > 0)
        {
            tables.Add(ThreadClasses(report));
        }

        if (report.Warnings.Count > 0)
        {
            var warnings = new TextTable("Warnings", [new("Code", ColumnAlignment.Left), new("Message", ColumnAlignment.Left, ColumnFit.Wrap)]);
            foreach (var warning in report.Warnings)
            {
                warnings.AddRow(warning.Code, warning.Message);
            }

            tables.Add(warnings);
        }

        return new TextDocument("AsyncCost report", Header(report), tables);
    }

    /// <summary>One row per method (framework and library methods: per assembly, unless <paramref name="allMethods"/>) with plain
    /// numbers, for spreadsheets (csv format): each figure with its error bound (~95 %, 0 when exact), and the calls figure's
    /// kind (exact or estimate).</summary>
    public static TextTable MethodsRaw(AsyncCostReport report, bool allMethods = false)
    {
        string[] headers =
        [
            "method", "methodKey", "calls", "callsErrorBound", "callsKind", "sampledCalls", "suspendingCalls",
            "bytesPerCall", "bytesPerCallErrorBound", "objectsPerCall", "objectsPerCallErrorBound", "hopsPerCall", "hopsPerCallErrorBound",
            "bytes", "bytesErrorBound", "bytesSamples", "objects", "objectsErrorBound", "hops", "hopsErrorBound", "blockingWaits",
            "elapsedPerCallMilliseconds", "elapsedPerCallMillisecondsErrorBound", "elapsedMilliseconds", "elapsedMillisecondsErrorBound",
            "shareOfAsyncBytes", "passes", "origin", "assembly",
        ];
        var table = new TextTable("Async methods", [.. headers.Select(h => new TextColumn(h))]);
        foreach (var method in Rows(report, allMethods))
        {
            table.AddRow(
            [
                method.DisplayName,
                method.MethodKey,
                .. ValueAndBound(method.Calls),
                method.Calls is null ? "" : KindName(method.Calls.Kind),
                Numbers.Raw(method.SampledCalls?.Value),
                Numbers.Raw(method.SuspendingCalls?.Value),
                .. ValueAndBound(method.BytesPerCall),
                .. ValueAndBound(method.ObjectsPerCall),
                .. ValueAndBound(method.HopsPerCall),
                .. ValueAndBound(method.Bytes),
                Numbers.Raw(method.Bytes?.Samples),
                .. ValueAndBound(method.Objects),
                .. ValueAndBound(method.Hops),
                Numbers.Raw(method.BlockingWaits?.Value),
                .. ValueAndBound(method.ElapsedPerCallMilliseconds),
                .. ValueAndBound(method.ElapsedMilliseconds),
                Numbers.Raw(method.ShareOfAsyncBytes),
                Passes(method),
                method.Origin == MethodOrigin.User ? "user" : "framework",
                method.Assembly ?? "",
            ]);
        }

        return table;
    }

    private static string[] ValueAndBound(Figure? figure) => [Numbers.Raw(figure?.Value), Numbers.Raw(figure?.ErrorBound)];

    /// <summary>"exact" or "estimate", as the JSON names the kind.</summary>
    internal static string KindName(FigureKind kind) => kind == FigureKind.Exact ? "exact" : "estimate";

    /// <summary>
    /// The rows a text format shows: the application's own methods, costliest first, then the framework's and libraries'
    /// (see <see cref="MethodOrigin"/>): one row per assembly with the totals of its methods, costliest assembly first, or,
    /// with <paramref name="allMethods"/>, every method.
    /// </summary>
    internal static IEnumerable<MethodCost> Rows(AsyncCostReport report, bool allMethods)
    {
        var user = SortedByCost(report.Methods.Where(m => m.Origin == MethodOrigin.User));
        var framework = report.Methods.Where(m => m.Origin == MethodOrigin.Framework);
        return user.Concat(allMethods
            ? SortedByCost(framework)
            : SortedByCost(framework.GroupBy(m => m.Assembly).Select(AssemblyRow)));
    }

    private static MethodCost AssemblyRow(IGrouping<string?, MethodCost> methods)
    {
        var name = methods.Key ?? "framework (assembly unknown)";
        var count = methods.Count();
        return MethodCost.Combine([.. methods], name, $"[{name}: {count} method{(count == 1 ? "" : "s")}]");
    }

    /// <summary>Most allocated bytes first; without an allocation pass, most hops first.</summary>
    internal static IEnumerable<MethodCost> SortedByCost(IEnumerable<MethodCost> methods) =>
        methods.OrderByDescending(m => m.Bytes?.Value ?? 0).ThenByDescending(m => m.Hops?.Value ?? 0).ThenBy(m => m.DisplayName, StringComparer.Ordinal);

    private static List<string> Header(AsyncCostReport report)
    {
        var source = report.Source;
        var lines = new List<string>
        {
            source.Kind switch
            {
                SourceKind.TraceFile => "Trace: " + string.Join(", ", source.TraceFiles),
                SourceKind.Launch => $"Launched: {source.CommandLine} (pid {source.ProcessId})",
                _ => $"Attached: pid {source.ProcessId} {source.ProcessName}" + (source.CommandLine is null ? "" : $" ({source.CommandLine})"),
            },
        };
        if (source.RuntimeVersion is not null)
        {
            lines.Add("Runtime: .NET " + source.RuntimeVersion);
        }

        lines.Add($"Recorded: {Numbers.Duration(report.Duration)}; stopped: {StopReasonText(report.StopReason)}" + (report.CutShort ? " (cut short: figures cover only what was gathered)" : ""));
        if (RowBasisLine(report) is { } basis)
        {
            lines.Add(basis);
        }

        foreach (var pass in report.Passes)
        {
            lines.Add($"Pass {PassName(pass.Pass)}: {Numbers.Duration(pass.Duration)}, {Numbers.Count(pass.Events)} events, {Numbers.Bytes(pass.Bytes)}"
                + (pass.ProcessId is { } pid && source.Kind == SourceKind.Launch ? $", pid {pid}" : "")
                + (pass.AllocationEvent is null ? "" : ", " + pass.AllocationEvent)
                + (pass.TraceFiles.Count > 1 ? $", {pass.TraceFiles.Count} traces" : "")
                + (pass.Requests is { } requests ? $", {Numbers.Count(requests.Completed)} requests" : "")
                + (pass.CutShort ? ", cut short" : ""));
        }
        if (PassBasis.OperationsAreRequests(report))
        {
            lines.Add("Per request: each pass's operations are the requests it saw complete (Kestrel's events), so every figure per operation is per request");
        }

        if (source.Kind == SourceKind.Launch)
        {
            lines.Add(source.ExitCode is { } exitCode ? $"Exit code: {exitCode}" : "Exit code: none (dotnet-asynccost ended the command)");
        }

        if (source.Kind != SourceKind.TraceFile && source.TraceFiles.Count > 0)
        {
            lines.Add("Trace kept: " + string.Join(", ", source.TraceFiles));
        }

        return lines;
    }

    /// <summary>What the rows count, when more than one pass fed them.</summary>
    private static string? RowBasisLine(AsyncCostReport report)
    {
        var allocations = report.Passes.FirstOrDefault(p => p.Pass == MeasurementPasses.Allocations);
        var hops = report.Passes.FirstOrDefault(p => p.Pass == MeasurementPasses.Hops);
        if (allocations is null || hops is null)
        {
            return null;
        }

        return report.RowBasis == RowBasis.Run
            ? "Rows: one run of the command (each pass ran it whole): calls counted by the hop pass, total bytes = bytes/call x calls"
            : $"Rows: calls and bytes over the allocation pass's {Seconds(allocations.Duration)}; hops/call from the hop pass's "
                + Seconds(hops.Duration + (hops.Unrecorded ?? TimeSpan.Zero));

        static string Seconds(TimeSpan time) => time.TotalSeconds.ToString("0.0", System.Globalization.CultureInfo.InvariantCulture) + " s";
    }

    private static TextTable Methods(AsyncCostReport report, bool allMethods)
    {
        var table = new TextTable("Async methods, most costly first",
        [
            new("Method", ColumnAlignment.Left), new("Calls"), new("Elapsed/call"), new("Bytes/call"),
            new("Obj/call", Fit: ColumnFit.Drop), new("Hops/call"),
            new("Total bytes", Fit: ColumnFit.Drop), new("Share"), new("Pass", ColumnAlignment.Left, ColumnFit.Drop),
        ])
        {
            Note = "~ marks an estimate from allocation samples, with its error bound (95 %); figures without ~ are exact counts. "
                + "Calls x bytes/call = total bytes within the bounds: on one launched run, calls are counted exactly by the hop pass "
                + "where it saw every call; attached, they are estimated from the allocation pass, the time the bytes were sampled in. "
                + "Bytes and objects come from the allocation pass (TPL events off), hops per suspending call from the hop pass. "
                + "Elapsed/call: the mean time a caller waited on a call that suspended, from the call (its synchronous first segment "
                + "included, timed from the thread's previous TPL event) to its completion (hop pass; ~ and the bound of the calls' spread); "
                + "a method that ran but never suspended reads not observable. Calls "
                + "that complete synchronously without allocating a box or task are invisible to EventPipe: a row that has only such calls says not observable, never 0."
                + (!allMethods && report.Methods.Any(m => m.Origin == MethodOrigin.Framework)
                    ? " [Assembly: n methods]: the framework's or a library's methods in that assembly, summed (--all-methods lists them)."
                    : ""),
        };
        foreach (var method in Rows(report, allMethods))
        {
            table.AddRow(
                method.DisplayName,
                Numbers.Calls(method.Calls),
                method.ElapsedPerCallMilliseconds is null && method.SuspendingCalls is { Value: 0 } ? Numbers.NotObservable : Numbers.MillisecondsPerCall(method.ElapsedPerCallMilliseconds),
                Numbers.PerCall(method.BytesPerCall),
                Numbers.PerCall(method.ObjectsPerCall),
                Numbers.PerCall(method.HopsPerCall),
                Numbers.Bytes(method.Bytes),
                Numbers.Percent(method.ShareOfAsyncBytes),
                Passes(method));
        }

        return table;
    }

    /// <summary>The requests per endpoint of the least traced pass that saw them (the allocation pass's, before the hop
    /// pass's windows and the cpu pass's samples), with their durations' distribution; null when no pass saw a request.</summary>
    internal static TextTable? Endpoints(AsyncCostReport report)
    {
        if (report.Passes.FirstOrDefault(p => p.Requests is not null) is not { Requests: { } requests } pass)
        {
            return null;
        }
        var table = new TextTable($"Requests per endpoint ({PassName(pass.Pass)} pass)",
        [
            new("Endpoint", ColumnAlignment.Left, ColumnFit.Shorten), new("Requests"), new("Req/s"), new("Mean"), new("p50"), new("p90"), new("p99"),
        ])
        {
            Note = "From Kestrel's RequestStart and RequestStop events, recorded beside each pass: a request is timed from its start to its "
                + $"stop when both fell in the pass ({Numbers.Count(requests.Timed)} of {Numbers.Count(requests.Completed)} here). Endpoint: the method "
                + "and the path, id-like segments (digits, a GUID, 16+ hex digits) as {id}. Mean with its 95 % bound; p50, p90, p99 "
                + "read within ±1 %, each with a 95 % interval in the json (with under 100 requests the p99's top is the longest seen). "
                + "Durations under the pass's own tracing: the allocation pass's are the least affected.",
        };
        foreach (var endpoint in requests.Endpoints)
        {
            var distribution = endpoint.Milliseconds;
            table.AddRow(endpoint.Endpoint, Numbers.Count(endpoint.Requests), endpoint.RequestsPerSecond is { } rate ? Numbers.Count(rate) : "-",
                Numbers.Time(distribution?.Mean), PercentileText(distribution?.P50), PercentileText(distribution?.P90), PercentileText(distribution?.P99));
        }

        return table;
    }

    /// <summary>The user methods' elapsed time per call as a distribution (hop pass): the calls timed, mean, p50, p90, p99;
    /// null when no method's calls were timed.</summary>
    internal static TextTable? ElapsedDistributions(AsyncCostReport report, bool allMethods)
    {
        var rows = Rows(report, allMethods).Where(m => m.Origin == MethodOrigin.User && m.ElapsedDistribution is not null).ToList();
        if (rows.Count == 0)
        {
            return null;
        }
        var table = new TextTable("Elapsed time per call, as a distribution (hop pass)",
            [new("Method", ColumnAlignment.Left, ColumnFit.Shorten), new("Timed"), new("Mean"), new("p50"), new("p90"), new("p99")])
        {
            Note = "Each suspending call timed from the call to its completion, as Elapsed/call above (its mean). Timed: the calls behind "
                + "the figures; p50, p90, p99 read within ±1 %, each with a 95 % interval in the json (with under 100 calls the p99's "
                + "top is the longest seen); in a windowed hop pass, scaled like the mean.",
        };
        foreach (var method in rows.OrderByDescending(m => m.ElapsedMilliseconds?.Value ?? 0))
        {
            var distribution = method.ElapsedDistribution!;
            table.AddRow(method.DisplayName, Numbers.Count(distribution.Samples), Numbers.Time(distribution.Mean),
                PercentileText(distribution.P50), PercentileText(distribution.P90), PercentileText(distribution.P99));
        }

        return table;
    }

    /// <summary>A percentile's value ("4.21 ms"), "-" without one.</summary>
    internal static string PercentileText(Percentile? percentile) => percentile is null ? "-" : Numbers.Time(percentile.Milliseconds);

    private static TextTable Time(AsyncCostReport report, bool allMethods)
    {
        var table = new TextTable("Time in async methods (cpu pass), most first",
        [
            new("Method", ColumnAlignment.Left), new("Running"), new("Blocked in waits"), new("Share"),
        ])
        {
            Note = "From stack samples (~1 per ms per thread): a sample is charged to the innermost async method on its stack, with the "
                + "synchronous code it calls; blocked = in a Monitor, WaitHandle, Task.Wait/Result/GetResult or Sleep it made. A runnable "
                + "thread the OS had not scheduled counts as running, so concurrent requests can add up to more than the cores' time. Share: of all samples in async methods. "
                + "No time per call: the cpu pass records its own slice of time (or its own run of a launched command), not the one the calls were counted in.",
        };
        var rows = Rows(report, allMethods).Where(m => m.CpuMilliseconds is not null).ToList();
        var total = rows.Sum(m => ReportFigures.SampledTime(m)!.Value);
        foreach (var method in rows.OrderByDescending(m => ReportFigures.SampledTime(m)!.Value))
        {
            var time = ReportFigures.SampledTime(method)!.Value;
            table.AddRow(
                method.DisplayName,
                Numbers.Milliseconds(method.CpuMilliseconds),
                Numbers.Milliseconds(method.WaitMilliseconds),
                Numbers.Percent(total > 0 ? time / total : null));
        }

        return table;
    }

    /// <summary>Methods that are not async, by the bytes their stacks show them allocating (plain methods, iterators' callers).</summary>
    internal static TextTable PlainMethods(AsyncCostReport report)
    {
        var table = new TextTable("Allocations by methods that are not async (largest first)",
            [new("Method", ColumnAlignment.Left), new("Bytes"), new("Objects"), new("Largest type", ColumnAlignment.Left)]);
        foreach (var method in report.PlainMethodAllocations.Take(UnattributedTypesShown))
        {
            table.AddRow(method.Method, Numbers.Bytes(method.Bytes), Numbers.Count(method.Objects), method.Allocations.Count > 0 ? method.Allocations[0].TypeName : "");
        }

        return table;
    }

    internal static TextTable Unattributed(AsyncCostReport report)
    {
        var table = new TextTable("Allocations not tied to an async method (largest types)",
            [new("Type", ColumnAlignment.Left), new("Kind", ColumnAlignment.Left), new("Bytes"), new("Objects")]);
        foreach (var type in report.UnattributedAllocations.Take(UnattributedTypesShown))
        {
            table.AddRow(type.TypeName, type.Kind.ToString(), Numbers.Bytes(type.Bytes), Numbers.Count(type.Objects));
        }

        return table;
    }

    internal static TextTable Totals(AsyncCostReport report)
    {
        var totals = report.Totals;
        var table = new TextTable("Process totals", [new("Figure", ColumnAlignment.Left), new("Value"), new("Source", ColumnAlignment.Left)]);
        AddFigure("Allocated bytes", totals.AllocatedBytes, Numbers.Bytes);
        AddFigure("Thread-pool work items completed", totals.CompletedWorkItems, Numbers.Count);
        AddFigure("Thread-pool hops (all methods)", totals.Hops, Numbers.Count);
        AddFigure("Monitor lock contentions", totals.LockContentions, Numbers.Count);
        AddPlain("Max thread-pool queue length", totals.MaxThreadPoolQueueLength, "counters");
        AddPlain("Max thread-pool threads", totals.MaxThreadPoolThreads, "counters");
        AddPlain("Voluntary context switches", totals.VoluntaryContextSwitches, "/proc, load-dependent");
        AddPlain("Involuntary context switches", totals.InvoluntaryContextSwitches, "/proc, load-dependent");
        return table;

        void AddFigure(string name, Figure? figure, Func<double, string> format)
        {
            if (figure is not null)
            {
                table.AddRow(name, Numbers.Figure(figure, format), SourceName(figure.Source));
            }
        }

        void AddPlain(string name, double? value, string source)
        {
            if (value is not null)
            {
                table.AddRow(name, Numbers.Count(value.Value), source);
            }
        }
    }

    internal static TextTable ThreadClasses(AsyncCostReport report)
    {
        var table = new TextTable("Context switches by thread class",
            [new("Threads", ColumnAlignment.Left), new("Count"), new("Voluntary"), new("Involuntary"), new("Voluntary share")])
        {
            Note = "Voluntary: the thread blocked (waits, sleeps, I/O). Involuntary: it was preempted. Counts that move with the "
                + "machine's load (other processes take the cores), not costs with a bound.",
        };
        foreach (var group in report.Threads.GroupBy(t => t.ThreadClass).OrderByDescending(g => g.Sum(t => t.Voluntary + t.Involuntary)))
        {
            long voluntary = group.Sum(t => t.Voluntary), involuntary = group.Sum(t => t.Involuntary);
            table.AddRow(group.Key, Numbers.Count(group.Count()), Numbers.Count(voluntary), Numbers.Count(involuntary),
                voluntary + involuntary == 0 ? "-" : Numbers.Percent((double)voluntary / (voluntary + involuntary)));
        }

        return table;
    }

    private static string Passes(MethodCost method)
    {
        var sources = new[] { method.Bytes?.Source, method.Calls?.Source, method.Hops?.Source }.OfType<FigureSource>().Distinct().Select(SourceName);
        return string.Join("+", sources) is { Length: > 0 } joined ? joined : "-";
    }

    private static string SourceName(FigureSource source) => source switch
    {
        FigureSource.AllocationPass => "allocations",
        FigureSource.HopPass => "hops",
        FigureSource.CpuPass => "cpu",
        _ => "os",
    };

    internal static string PassName(MeasurementPasses pass) => pass.ToString().ToLowerInvariant();

    private static string StopReasonText(StopReason reason) => reason switch
    {
        StopReason.DurationElapsed => "duration elapsed",
        StopReason.Canceled => "stopped by user",
        StopReason.ProcessExited => "process exited",
        StopReason.EndOfTrace => "end of trace",
        _ => "trace truncated",
    };
}
