using System.Globalization;
using AsyncCost.Attribution;
using AsyncCost.Computers;

namespace AsyncCost.Report;

/// <summary>Merges the passes' computers into the report: attributes allocations and hops to async methods.</summary>
internal sealed class ReportBuilder(MethodCatalog catalog)
{
    /// <summary>Below this many samples a method's figures are flagged (about ±6 % at 1,000 samples).</summary>
    public const long LowSampleThreshold = 1_000;

    private const int MaxUnattributedRows = 50;

    /// <summary>The share of a method's calls left pending at a stream's end beyond which its elapsed per call is flagged.</summary>
    private const double PendingShareWarned = 0.05;

    private readonly Dictionary<string, MethodRow> _rows = new(StringComparer.Ordinal);
    private readonly List<ReportWarning> _warnings = [];
    private readonly HashSet<string> _ambiguousShortNames = new(StringComparer.Ordinal);

    public AsyncCostReport Build(ReportSource source, IReadOnlyList<PassResult> passes, IReadOnlyList<ThreadSwitches> threads,
        StopReason stopReason, bool cutShort, IEnumerable<ReportWarning> extraWarnings)
    {
        _warnings.AddRange(extraWarnings);
        var allocationPass = passes.FirstOrDefault(p => p.Pass == MeasurementPasses.Allocations && p.Figures.Allocations.Samples > 0)
            ?? passes.FirstOrDefault(p => p.Figures.Allocations.Samples > 0);
        var hopPass = passes.FirstOrDefault(p => p.Pass == MeasurementPasses.Hops);
        var cpuPass = passes.FirstOrDefault(p => p.Pass == MeasurementPasses.Cpu);

        var (unattributed, plainMethods) = allocationPass is null ? (new List<TypeAllocation>(), new List<PlainMethodAllocations>()) : AttributeAllocations(allocationPass);
        var hopScale = hopPass is null ? null : HopScale.For(hopPass);
        if (hopPass is not null)
        {
            AttributeHops(hopPass, hopScale!);
            AddMethodsThatNeverSuspended();
        }
        if (cpuPass is not null)
        {
            AttributeStackSamples(cpuPass);
        }
        if (source.Kind == SourceKind.TraceFile)
        {
            WarnAboutMissingEvents(passes);
        }
        if (passes.Any(p => p.Figures.EventsLost > 0))
        {
            _warnings.Add(new ReportWarning("events-lost", $"The runtime dropped {passes.Sum(p => p.Figures.EventsLost).ToString("N0", CultureInfo.InvariantCulture)} events (buffer full): figures are low."));
        }

        // A hop pass that lost events undercounts: its call counts are then no longer exact.
        var hopCountsComplete = hopPass is { Figures.EventsLost: 0 };
        var basis = RowCombination.BasisOf(source.Kind, passes, stopReason);
        if (RowCombination.RunsDiffer(passes))
        {
            _warnings.Add(new ReportWarning("runs-differ", "The passes' runs did different work ("
                + string.Join(", ", passes.Where(p => p.Operations is not null).Select(p => $"{PassBasis.Count(p.Operations!.Value)} operations in the {TracePass.PassName(p.Pass)} pass"))
                + "): each figure stands for its own pass's run (calls, bytes and objects the allocation pass's; hops, suspending calls and waits the hop pass's), "
                + "and per operation it is divided by that pass's operations."));
        }
        var disagreements = new List<string>();
        var methods = _rows.Values.Select(row =>
        {
            var (method, disagreement) = row.ToMethodCost(basis, hopScale, hopCountsComplete, MethodOrigins.Of(row.Name.TypeKey, catalog.ModuleOf(row.Name)), ResolveShortName);
            if (disagreement is not null)
            {
                disagreements.Add($"{row.DisplayName} ({disagreement})");
            }
            return method;
        }).ToList();
        if (disagreements.Count > 0)
        {
            _warnings.Add(new ReportWarning("calls-disagree", $"The allocation samples contradict the hop pass's exact count of calls beyond their bound for {string.Join("; ", disagreements)}: the run differed between the passes, or a sample was charged to the wrong method. The rows show the count, and bytes as bytes per call times it."));
        }
        if (hopPass is null && _rows.Values.FirstOrDefault(row => row.IsAsyncIterator) is { } iterator)
        {
            _warnings.Add(new ReportWarning("iterator-calls", $"{iterator.DisplayName} is an async iterator: its calls (MoveNextAsync calls that suspended) are counted by the hop pass, which did not run, so its calls and bytes per call are unknown."));
        }
        var totalAsyncBytes = methods.Sum(m => m.Bytes?.Value ?? 0);
        methods = [.. methods
            .Select(m => totalAsyncBytes > 0 && m.Bytes is not null ? WithShare(m, m.Bytes.Value / totalAsyncBytes) : m)
            .OrderBy(m => m.Origin)
            .ThenByDescending(m => m.Bytes?.Value ?? 0)
            .ThenByDescending(m => m.Hops?.Value ?? 0)
            .ThenBy(m => m.DisplayName, StringComparer.Ordinal)];
        var lowSample = methods.Count(m => m.Bytes is { Samples: > 0 and < LowSampleThreshold });
        if (lowSample > 0)
        {
            _warnings.Add(new ReportWarning("low-samples", $"{lowSample} method(s) have fewer than {LowSampleThreshold:N0} allocation samples: their byte figures are ±6 % or worse (see each error bound)."));
        }

        return new AsyncCostReport
        {
            Source = source,
            StartedAt = passes.Count > 0 ? passes[0].StartedAt : default,
            Duration = TimeSpan.FromTicks(passes.Sum(p => p.Duration.Ticks)),
            Passes = [.. passes.Select(p => p.ToSummary())],
            Methods = methods,
            UnattributedAllocations = unattributed,
            PlainMethodAllocations = plainMethods,
            RowBasis = basis,
            MethodsThatRan = [.. catalog.CompiledMethods().Where(m => MethodOrigins.Of(m.TypeKey, m.ModulePath).Origin == MethodOrigin.User).Select(m => m.Key).Order(StringComparer.Ordinal)],
            Totals = Totals(allocationPass, hopPass, cpuPass, hopScale, threads, _warnings),
            Threads = threads,
            Warnings = _warnings,
            CutShort = cutShort,
            StopReason = stopReason,
        };
    }

    /// <summary>A trace recorded by another tool may lack what a figure needs: say which figure is missing and why, once.</summary>
    private void WarnAboutMissingEvents(IReadOnlyList<PassResult> passes)
    {
        if (!passes.Any(p => p.Figures.Allocations.Samples > 0))
        {
            _warnings.Add(new ReportWarning("no-allocation-events", "Bytes and objects per method are missing: no trace has AllocationSampled (or GCAllocationTick) events. Record the allocation pass with the providers 'dotnet-asynccost providers --pass allocations' prints."));
        }
        if (!passes.Any(p => p.Figures.SawTplEvents))
        {
            _warnings.Add(new ReportWarning("no-tpl-events", passes.Any(p => p.Pass == MeasurementPasses.Hops)
                ? "The hop pass's trace has no TplEventSource events: hops and blocking waits show 0, which is right only if nothing suspended while it recorded. If it was recorded without TplEventSource, record it again with the providers 'dotnet-asynccost providers --pass hops' prints."
                : "Hops and blocking waits per method are missing: no trace has TplEventSource events. Record the hop pass with the providers 'dotnet-asynccost providers --pass hops' prints."));
        }
        if (catalog.MethodEvents == 0)
        {
            var consequence = "state machines known only by short name show as '?.Method', and Task<T> allocations stay unattributed. Record with method rundown on (dotnet-trace's and dotnet-monitor's default).";
            _warnings.Add(catalog.UsedAssemblies
                ? new ReportWarning("names-from-assemblies", "The traces have no method events (method rundown): async methods were named from the assemblies still at their recorded paths; on another machine those names would be lost. Record with method rundown on (dotnet-trace's and dotnet-monitor's default).")
                : catalog.ModulePaths.Count > 0
                    ? new ReportWarning("no-method-rundown", $"The traces have no method events (method rundown) and the assemblies they loaded are not readable at their recorded paths: {consequence}")
                    : new ReportWarning("no-method-rundown", $"The traces have no method events (method rundown) and no module events: {consequence}"));
        }
    }

    private static MethodCost WithShare(MethodCost m, double share) => new()
    {
        MethodKey = m.MethodKey,
        DisplayName = m.DisplayName,
        Assembly = m.Assembly,
        Origin = m.Origin,
        Calls = m.Calls,
        SampledCalls = m.SampledCalls,
        SuspendingCalls = m.SuspendingCalls,
        BytesPerCall = m.BytesPerCall,
        ObjectsPerCall = m.ObjectsPerCall,
        HopsPerCall = m.HopsPerCall,
        Bytes = m.Bytes,
        Objects = m.Objects,
        Hops = m.Hops,
        BlockingWaits = m.BlockingWaits,
        BlockedMilliseconds = m.BlockedMilliseconds,
        LongestBlockedMilliseconds = m.LongestBlockedMilliseconds,
        ElapsedMilliseconds = m.ElapsedMilliseconds,
        ElapsedPerCallMilliseconds = m.ElapsedPerCallMilliseconds,
        ElapsedDistribution = m.ElapsedDistribution,
        CpuMilliseconds = m.CpuMilliseconds,
        WaitMilliseconds = m.WaitMilliseconds,
        ShareOfAsyncBytes = share,
        Allocations = m.Allocations,
        AwaitedCalls = m.AwaitedCalls,
    };

    private (List<TypeAllocation> Unattributed, List<PlainMethodAllocations> PlainMethods) AttributeAllocations(PassResult pass)
    {
        var source = pass.Figures.SawTplEvents ? FigureSource.HopPass : FigureSource.AllocationPass;
        if (pass.Figures.SawTplEvents)
        {
            _warnings.Add(new ReportWarning("tpl-observer-effect", "Allocation figures come from a trace with TPL events on: they include the closure, delegate and box changes TPL tracing causes on every await."));
        }
        if (pass.Figures.Allocations.EventKind == "GCAllocationTick")
        {
            _warnings.Add(new ReportWarning("allocation-fallback", "AllocationSampled (.NET 10+) was not available: allocations come from GCAllocationTick, one event per ~100 KB at a fixed stride, which can mis-sample periodic patterns."));
        }

        var tallies = pass.Figures.Allocations.Results();
        if (!pass.Figures.SawTplEvents && tallies.FirstOrDefault(t => AllocationClassifier.ExistsOnlyUnderTplTracing(t.TypeName)) is { } marker)
        {
            // Our own stream had TPL off, yet the process allocated what it allocates only while some session has TPL on.
            _warnings.Add(new ReportWarning("tpl-enabled-elsewhere", $"Another tracing session had TPL events on in the process during the allocation pass (it allocated {marker.TypeName}, which exists only while TPL events are on): the bytes include the closures, delegates and tasks TPL tracing adds to every await. Stop the other session (dotnet-trace, dotnet-monitor, a profiler) and record again."));
        }
        if (pass.Figures.Allocations.StacksMissing is { } why)
        {
            _warnings.Add(new ReportWarning("allocation-stacks-missing", $"Allocations are charged by their types' names alone, as without stacks: {why}. A Task<T> of a primitive, string or framework type, a delegate or any other object whose type does not name its method stays unattributed, and a method that is not async cannot be told from one by its allocations."));
        }
        // A state machine known by its nested name alone is resolved last, when the boxes naming it in full have their rows.
        var classes = tallies.Select(t => (Tally: t, Class: ClassifyClosureAware(t.TypeName)))
            .OrderBy(c => c.Class.Method?.TypeKey == AsyncMethodName.UnknownType).ToList();
        var ordinals = MemberOrdinals(classes.Select(c => c.Class.Method));
        var unattributed = new List<TypeAllocation>();
        var bySite = new List<(TypeTally Tally, AllocationClass Class)>();
        foreach (var (tally, allocationClass) in classes)
        {
            if (tally.Site is not null && !NamedByType(allocationClass))
            {
                bySite.Add((tally, allocationClass));
                continue;
            }
            var method = allocationClass.Method;
            var kind = allocationClass.Kind;
            if (kind == AllocationKind.StateMachine && catalog.IsSynchronousIterator(tally.TypeName))
            {
                (kind, method) = (AllocationKind.Other, null); // a yield-return iterator: no async method's
            }
            else if (kind == AllocationKind.Closure && method is { MemberName: null })
            {
                method = ordinals.TryGetValue((method.TypeKey, method.MemberOrdinal ?? -1), out var owner) ? owner : method;
            }
            else if (kind == AllocationKind.Task && method is null)
            {
                method = TaskOwner(tally.TypeName);
            }
            else if (method is { TypeKey: AsyncMethodName.UnknownType, ShortName: { } shortName })
            {
                method = ResolveShortName(shortName);
            }
            var candidates = method is null && kind == AllocationKind.Task
                ? catalog.MethodsReturning(tally.TypeName).Select(m => m.MethodKey).Distinct().ToList()
                : [];
            var allocation = Allocation(tally, kind, source, candidates);
            if (method is null)
            {
                unattributed.Add(allocation);
            }
            else
            {
                // Every call allocates either its box (it suspended) or its result task (it completed synchronously), never both.
                Row(method).AddAllocation(allocation, tally, isCall: kind is AllocationKind.StateMachineBox or AllocationKind.Task);
            }
        }
        var plainMethods = AttributeBySite(bySite, source, unattributed);
        return ([.. unattributed.OrderByDescending(a => a.Bytes.Value).Take(MaxUnattributedRows)], plainMethods);
    }

    /// <summary>True when the type's name alone names the async method it belongs to: a box (its state machine is a type
    /// argument) or a closure the catalog ties to its member. Such a sample keeps its name's method whatever its stack says
    /// (a box is allocated where the method first suspends, which may be inside a framework call it awaits).</summary>
    private static bool NamedByType(AllocationClass allocationClass) =>
        allocationClass is { Kind: AllocationKind.StateMachineBox or AllocationKind.Closure, Method: not null };

    /// <summary>
    /// Charges samples read with their stacks to the innermost application method that made them: an async method (its
    /// MoveNext, or its own code) gets them on its row, a Task&lt;T&gt; its builder made being one call; a method that is not
    /// async gets them in the plain methods' list; a sample made by framework code alone stays unattributed.
    /// </summary>
    private List<PlainMethodAllocations> AttributeBySite(List<(TypeTally Tally, AllocationClass Class)> samples, FigureSource source, List<TypeAllocation> unattributed)
    {
        var asyncMethodOf = catalog.AsyncMethodFrames();
        var charged = new Dictionary<(string Maker, string Type, bool IsCall), (AsyncMethodName? Owner, AllocationKind Kind, TypeTally Tally)>();
        foreach (var (tally, allocationClass) in samples)
        {
            var site = tally.Site!.Value;
            var owner = site.Frame is null ? null : asyncMethodOf(site.Frame);
            // The class state machine of a Debug build or an async iterator is its own method's; an iterator's is not async.
            var kind = allocationClass.Kind == AllocationKind.StateMachine && (owner is null || allocationClass.Method?.MemberName != owner.MemberName || catalog.IsSynchronousIterator(tally.TypeName))
                ? AllocationKind.Other
                : allocationClass.Kind;
            var isCall = owner is not null && kind == AllocationKind.Task && site.ByAsyncBuilder;
            var key = (owner?.DisplayName ?? site.Frame ?? "", tally.TypeName, isCall);
            charged[key] = charged.TryGetValue(key, out var same) ? same with { Tally = Merged(same.Tally, tally) } : (owner, kind, tally);
        }
        var plain = new Dictionary<string, List<(TypeAllocation Allocation, TypeTally Tally)>>(StringComparer.Ordinal);
        foreach (var ((maker, _, isCall), (owner, kind, tally)) in charged)
        {
            var allocation = Allocation(tally, kind, source, []);
            if (owner is not null)
            {
                Row(owner).AddAllocation(allocation, tally, isCall);
            }
            else if (maker.Length == 0)
            {
                unattributed.Add(allocation);
            }
            else
            {
                (plain.TryGetValue(maker, out var list) ? list : plain[maker] = []).Add((allocation, tally));
            }
        }
        return [.. plain.Select(m => new PlainMethodAllocations
            {
                Method = m.Key,
                Bytes = Sampled(m.Value.Sum(a => a.Tally.Bytes), m.Value.Sum(a => a.Tally.BytesVariance), m.Value.Sum(a => a.Tally.Samples), source),
                Objects = Sampled(m.Value.Sum(a => a.Tally.Objects), m.Value.Sum(a => a.Tally.ObjectsVariance), m.Value.Sum(a => a.Tally.Samples), source),
                Allocations = [.. m.Value.Select(a => a.Allocation).OrderByDescending(a => a.Bytes.Value)],
            })
            .OrderByDescending(m => m.Bytes.Value)
            .ThenBy(m => m.Method, StringComparer.Ordinal)
            .Take(MaxUnattributedRows)];
    }

    /// <summary>One type's samples from two sites of the same maker: Horvitz–Thompson totals and variances add.</summary>
    private static TypeTally Merged(TypeTally a, TypeTally b) => new(a.TypeName, a.Site)
    {
        Samples = a.Samples + b.Samples,
        Bytes = a.Bytes + b.Bytes,
        BytesVariance = a.BytesVariance + b.BytesVariance,
        Objects = a.Objects + b.Objects,
        ObjectsVariance = a.ObjectsVariance + b.ObjectsVariance,
    };

    private static TypeAllocation Allocation(TypeTally tally, AllocationKind kind, FigureSource source, IReadOnlyList<string> candidates) => new()
    {
        TypeName = tally.TypeName,
        Kind = kind,
        Bytes = Sampled(tally.Bytes, tally.BytesVariance, tally.Samples, source),
        Objects = Sampled(tally.Objects, tally.ObjectsVariance, tally.Samples, source),
        CandidateMethods = candidates,
    };

    /// <summary>The allocation's class; a closure is charged to the member the catalog says allocates it, even when the
    /// allocation event printed its nested name alone ("&lt;&gt;c__DisplayClass5_0").</summary>
    private AllocationClass ClassifyClosureAware(string typeName)
    {
        var allocationClass = AllocationClassifier.Classify(typeName);
        return allocationClass.Kind is AllocationKind.Closure or AllocationKind.Other && catalog.ClosureOwner(typeName) is { } owner
            ? new AllocationClass(AllocationKind.Closure, owner)
            : allocationClass;
    }

    /// <summary>A Task&lt;T&gt; carries no method name: charge it to the only async method the trace (or the modules) name as
    /// returning it, if there is exactly one, and the framework's own methods do not return that type too.</summary>
    private AsyncMethodName? TaskOwner(string taskTypeName)
    {
        var candidates = catalog.MethodsReturning(taskTypeName);
        switch (candidates.Count)
        {
            case 1 when AllocationClassifier.IsFrameworkShapedTask(taskTypeName):
                _warnings.Add(new ReportWarning("task-unattributed", $"{taskTypeName} is left unattributed: {candidates[0].DisplayName} is the only async method of the trace returning it, but the framework's own async methods return it too (their code is not in the trace's method events)."));
                return null;
            case 1:
                _warnings.Add(new ReportWarning("task-attribution", $"{taskTypeName} is charged to {candidates[0].DisplayName}, the only async method returning it (a synchronously completed call allocates just this task)."));
                return candidates[0];
            case > 1:
                _warnings.Add(new ReportWarning("task-ambiguous", $"{taskTypeName} is returned by {candidates.Count} async methods ({string.Join(", ", candidates.Select(c => c.DisplayName))}): left unattributed."));
                return null;
            default:
                return null;
        }
    }

    /// <summary>
    /// (type, member ordinal) -> member, to charge a closure (<c>&lt;&gt;c__DisplayClassN_M</c>, N the member's ordinal) to the
    /// member that allocates it: from the state machines seen in events and in the modules (a method's, or its local
    /// functions' and lambdas', whose names carry the member's ordinal) and from the methods the trace named on closures
    /// and as local functions (a non-async member with an async local function allocates its closure on every call).
    /// </summary>
    private Dictionary<(string TypeKey, int Ordinal), AsyncMethodName> MemberOrdinals(IEnumerable<AsyncMethodName?> seen)
    {
        var map = new Dictionary<(string, int), AsyncMethodName>();
        foreach (var name in seen.Concat(catalog.AllStateMachines().Select(AsyncMethodName.Parse)).Concat(catalog.MembersByOrdinal()))
        {
            if (name is { Kind: not GeneratedTypeKind.Closure, MemberName: not null, MemberOrdinal: { } ordinal })
            {
                map.TryAdd((name.TypeKey, ordinal), name with { Kind = GeneratedTypeKind.StateMachine, LocalName = null, LambdaOrdinal = null });
            }
        }
        return map;
    }

    private void AttributeHops(PassResult pass, HopScale scale)
    {
        var hops = pass.Figures.Hops;
        if (hops.Overflowed)
        {
            _warnings.Add(new ReportWarning("hop-overflow", $"More than {HopComputer.MaxTrackedTasks:N0} tasks were pending at once: some hops went unattributed."));
        }
        if (hops.LateContinuations > 0)
        {
            _warnings.Add(new ReportWarning("late-continuations", string.Create(CultureInfo.InvariantCulture,
                $"{hops.LateContinuations:N0} continuation(s) ran from the thread pool only because they were registered after the async method they awaited had completed (a race the hop pass's own events widen): not counted as hops.")));
        }
        if (scale.Windowed)
        {
            var recorded = pass.Duration.TotalSeconds;
            _warnings.Add(new ReportWarning("hop-windows", string.Create(CultureInfo.InvariantCulture,
                $"The hop pass recorded {hops.Windows:N0} window(s), {recorded:N1} s of {recorded + pass.Unrecorded.TotalSeconds:N1} s: hop, call and wait counts are scaled ×{scale.Factor:N1} by the thread pool's completed work items, times blocked and elapsed ×{scale.Factor * scale.TimeCorrection:N1} by the pass's seconds over the windows' (tracing slows the process in the windows, so a time per work item there reads high), with ~95 % error bounds; other per-call figures come from the windows as recorded.")
                + (scale.WindowCost(pass) is { } cost ? string.Create(CultureInfo.InvariantCulture,
                    $" Its cost: the thread pool completed {cost.WindowRate:N0} work items/s inside the windows, {cost.BetweenRate:N0}/s between them ({cost.PassLoss:P0} of the pass's work lost to tracing, if the load stayed the same); --hop-duty 1 traces continuously.")
                    : "")));
        }
        else if (pass.Unrecorded > TimeSpan.Zero)
        {
            _warnings.Add(new ReportWarning("hop-windows-unscaled", "The hop pass recorded in windows but no thread-pool counter covered the time between them: its counts are the windows' own, not the whole pass's."));
        }
        var untimed = new List<string>();
        foreach (var method in hops.Results())
        {
            if (ResolveShortName(method.StateMachineName) is { } name)
            {
                var row = Row(name);
                row.AddHops(method);
                var began = method.PendingCalls + method.Elapsed.Count;
                if (!row.IsAsyncIterator && method.Elapsed.Count > 0 && method.PendingCalls > PendingShareWarned * began)
                {
                    untimed.Add(string.Create(CultureInfo.InvariantCulture, $"{row.DisplayName} ({method.PendingCalls:N0} of {began:N0} calls)"));
                }
            }
        }
        if (untimed.Count > 0)
        {
            _warnings.Add(new ReportWarning("elapsed-pending", $"Calls still pending at the end of a hop window (or of the recording) cannot be timed, and the longer a call, the likelier it is pending: the elapsed time per call is low for {string.Join("; ", untimed)}."));
        }
    }

    /// <summary>A user async method that ran but never suspended has no TPL event of its own: it gets its row all the same
    /// (no suspending call, its elapsed time not observable), never silence.</summary>
    private void AddMethodsThatNeverSuspended()
    {
        foreach (var method in catalog.AsyncMethodsThatRan().Where(m => MethodOrigins.Of(m.TypeKey, catalog.ModuleOf(m)).Origin == MethodOrigin.User))
        {
            Row(method);
        }
    }

    private void AttributeStackSamples(PassResult pass)
    {
        var cpu = pass.Figures.Cpu;
        if (cpu.IntervalMs is not { } interval)
        {
            _warnings.Add(new ReportWarning("no-stack-samples", "The CPU pass has no stack samples (a trace recorded without the sample profiler, or without stacks): no time per method."));
            return;
        }
        foreach (var method in cpu.Results())
        {
            Row(method.Method).AddStackSamples(method, interval);
        }
    }

    /// <summary>"&lt;GetAsync&gt;d__3" (TPL events and a class state machine's allocations give only the short name) -> the full
    /// name, from allocation rows or the catalog.</summary>
    private AsyncMethodName? ResolveShortName(string shortName)
    {
        var known = _rows.Values.Select(r => r.FullStateMachineName).Where(n => n is not null && n.EndsWith("+" + shortName, StringComparison.Ordinal)).Distinct().ToList();
        var candidates = known.Count > 0 ? known : [.. catalog.StateMachinesNamed(shortName)];
        if (candidates.Count > 1 && _ambiguousShortNames.Add(shortName))
        {
            _warnings.Add(new ReportWarning("hop-ambiguous", $"Several state machines are named {shortName} ({string.Join(", ", candidates)}): its hops and the allocations naming it alone are charged to the first."));
        }
        var full = candidates.FirstOrDefault();
        return full is not null ? AsyncMethodName.Parse(full) : AsyncMethodName.Parse(AsyncMethodName.UnknownType + "+" + shortName);
    }

    private MethodRow Row(AsyncMethodName name)
    {
        if (!_rows.TryGetValue(name.DisplayName, out var row))
        {
            row = new MethodRow(name, catalog.IsAsyncIterator(name.MethodKey));
            _rows.Add(name.DisplayName, row);
        }
        return row;
    }

    private static Figure Sampled(double value, double variance, long samples, FigureSource source)
        => new() { Value = value, ErrorBound = TypeTally.Bound(variance), Samples = samples, Sampled = true, Source = source };

    private static ProcessTotals Totals(PassResult? allocationPass, PassResult? hopPass, PassResult? cpuPass, HopScale? hopScale, IReadOnlyList<ThreadSwitches> threads, List<ReportWarning> warnings)
    {
        // Counters from the allocation pass when it ran: the hop pass's TPL tracing changes what the process does.
        var counterPass = new[] { allocationPass, hopPass, cpuPass }.FirstOrDefault(p => p is { Figures.Counters.Samples: > 0 });
        var counters = counterPass?.Figures.Counters;
        var counterSource = counterPass == hopPass ? FigureSource.HopPass : counterPass == cpuPass ? FigureSource.CpuPass : FigureSource.AllocationPass;
        // A counter payload reports the interval before it: the part of the recording after the last payload (up to one
        // interval per slice; most of a short launched run) is in no counter. A hop pass that saw every event counted every
        // dequeued work item itself.
        var uncovered = counterPass is null || counterPass.Unrecorded > TimeSpan.Zero ? 0 : counterPass.Duration.TotalSeconds - counters!.CoveredSeconds;
        var countersPartial = counterPass is not null && uncovered > Math.Max(0.05 * counterPass.Duration.TotalSeconds, 0.1);
        var hopPassCountedAll = hopPass is { Figures.EventsLost: 0, Unrecorded.Ticks: 0 } && hopPass.Figures.Hops.WorkItems > 0;
        if (countersPartial)
        {
            warnings.Add(new ReportWarning("counters-partial", string.Create(CultureInfo.InvariantCulture,
                $"The System.Runtime counters cover {counters!.CoveredSeconds:0.0} s of the {counterPass!.Duration.TotalSeconds:0.0} s recorded (the last payload comes up to an interval before the end): allocated bytes and lock contentions are low by what the last {uncovered:0.0} s did{(hopPassCountedAll ? "; work items are the hop pass's own count" : ", and so are work items")}.")));
        }
        Figure? allocated = counters?.AllocatedBytes is { } bytes ? Figure.Exact(bytes, counterSource) : null;
        if (allocated is null && allocationPass is not null)
        {
            var all = allocationPass.Figures.Allocations.Results();
            allocated = Sampled(all.Sum(t => t.Bytes), all.Sum(t => t.BytesVariance), all.Sum(t => t.Samples),
                allocationPass.Figures.SawTplEvents ? FigureSource.HopPass : FigureSource.AllocationPass);
        }
        return new ProcessTotals
        {
            AllocatedBytes = allocated,
            // A windowed hop pass keeps its whole-pass counters apart from its windows' figures: those, not the windows'
            // own dequeues, are the pass's work items (the scaled hops are counted against them).
            CompletedWorkItems = (counterPass is null || counterPass == hopPass) && hopScale is { Windowed: true } ? Figure.Exact(hopScale.TotalWorkItems, FigureSource.HopPass)
                : countersPartial && hopPassCountedAll ? Figure.Exact(hopPass!.Figures.Hops.WorkItems, FigureSource.HopPass)
                : counters?.CompletedWorkItems is { } items ? Figure.Exact(items, counterSource)
                : hopPass is not null ? Figure.Exact(hopPass.Figures.Hops.WorkItems, FigureSource.HopPass) : null,
            LockContentions = counters?.LockContentions is { } contentions ? Figure.Exact(contentions, counterSource) : null,
            MaxThreadPoolQueueLength = counters?.MaxQueueLength,
            MaxThreadPoolThreads = counters?.MaxThreadCount,
            Hops = hopPass is not null ? hopScale!.Count(hopPass.Figures.Hops.Hops, spread: null) : null,
            VoluntaryContextSwitches = threads.Count > 0 ? threads.Sum(t => t.Voluntary) : null,
            InvoluntaryContextSwitches = threads.Count > 0 ? threads.Sum(t => t.Involuntary) : null,
        };
    }

    /// <summary>Accumulates one method's figures from both passes.</summary>
    private sealed class MethodRow(AsyncMethodName name, bool isAsyncIterator)
    {
        public AsyncMethodName Name => name;

        private readonly List<TypeAllocation> _allocations = [];
        private readonly List<(TypeTally Tally, bool IsCall)> _tallies = [];
        private double _bytes, _bytesVariance, _objects, _objectsVariance, _calls, _callsVariance;
        private long _samples, _callSamples;
        private bool _completedSynchronously;
        private FigureSource _allocationSource;
        private MethodHops? _hops;
        private Figure? _cpuMilliseconds, _waitMilliseconds;

        public string? FullStateMachineName { get; private set; }

        public string DisplayName => name.DisplayName;

        /// <summary>An async iterator: one box per enumeration, one call per MoveNextAsync (counted only by the hop pass).</summary>
        public bool IsAsyncIterator => isAsyncIterator;

        /// <summary>Adds a type's samples; <paramref name="isCall"/> for a box or result task, one per call (see <see cref="PerSampledCall"/>).</summary>
        public void AddAllocation(TypeAllocation allocation, TypeTally tally, bool isCall)
        {
            _allocations.Add(allocation);
            _allocationSource = allocation.Bytes.Source;
            _bytes += tally.Bytes;
            _bytesVariance += tally.BytesVariance;
            _objects += tally.Objects;
            _objectsVariance += tally.ObjectsVariance;
            _samples += tally.Samples;
            _tallies.Add((tally, isCall));
            if (isCall)
            {
                _calls += tally.Objects;
                _callsVariance += tally.ObjectsVariance;
                _callSamples += tally.Samples;
                _completedSynchronously |= allocation.Kind == AllocationKind.Task;
            }
            if (allocation.Kind == AllocationKind.StateMachineBox && RuntimeTypeName.Parse(allocation.TypeName).Arguments.FirstOrDefault(a => AsyncMethodName.Parse(a.Name) is not null) is { } machine)
            {
                FullStateMachineName ??= machine.Name;
            }
        }

        public void AddHops(MethodHops hops) => _hops = hops;

        public void AddStackSamples(MethodSamples samples, double intervalMs)
        {
            _cpuMilliseconds = SampledTime(samples.Running, intervalMs);
            _waitMilliseconds = SampledTime(samples.Waiting, intervalMs);
        }

        /// <summary>n samples of one interval each: a Poisson count, ±1.96 √n intervals; none stands for fewer than 3 (95 %).</summary>
        private static Figure SampledTime(long samples, double intervalMs) => new()
        {
            Value = samples * intervalMs,
            ErrorBound = samples == 0 ? 3 * intervalMs : Figure.StandardErrors * Math.Sqrt(samples) * intervalMs,
            Samples = samples,
            Sampled = true,
            Source = FigureSource.CpuPass,
        };

        /// <summary>
        /// An async iterator's calls are its MoveNextAsync calls that suspended, which only the hop pass sees: per box (enumeration
        /// that suspended) as many as the hop pass counted, so the allocation pass's boxes scale to its own calls and bytes per
        /// call is bytes per such MoveNextAsync (an item, when each item awaits) from one process. Null without a hop pass.
        /// </summary>
        private double? CallsPerBox() => _hops is { Boxes: > 0 } hops ? (double)hops.SuspendingCalls / hops.Boxes : null;

        private static Figure? Scaled(Figure? figure, double? factor)
            => figure is null || factor is not { } k ? null : figure with { Value = figure.Value * k, ErrorBound = figure.ErrorBound * k };

        /// <param name="basis">What the row counts: one run, or each pass's own slice of time.</param>
        /// <param name="hopScale">How the hop pass's counts stand for the pass, null without one.</param>
        /// <param name="hopCountsComplete">True when the hop pass lost no events, so that it saw every call it counts.</param>
        /// <param name="origin">The method's assembly and whose code it is.</param>
        /// <returns>The row, and how its passes disagreed about its calls, if they did.</returns>
        /// <param name="stateMachine">Names a callee from its state machine's short name.</param>
        public (MethodCost Method, string? Disagreement) ToMethodCost(RowBasis basis, HopScale? hopScale, bool hopCountsComplete, (string? Assembly, MethodOrigin Origin) origin,
            Func<string, AsyncMethodName?> stateMachine)
        {
            var hasAllocations = _allocations.Count > 0;
            Figure? suspendingCalls = hopScale?.Count(_hops?.SuspendingCalls ?? 0, _hops?.CallSpread);
            // An async iterator's box serves one enumeration: its sampled calls are its boxes times the hop pass's calls per box.
            var callsPerBox = isAsyncIterator ? CallsPerBox() : 1;
            Figure? sampledCalls = _callSamples > 0 && callsPerBox is { } perBox ? Scaled(Sampled(_calls, _callsVariance, _callSamples, _allocationSource), perBox) : null;
            var hops = hopScale?.Count(_hops?.Hops ?? 0, _hops?.HopSpread);
            var bytesPerCall = Scaled(PerSampledCall(_bytes, t => t.BytesVariance), 1 / callsPerBox);
            var objectsPerCall = Scaled(PerSampledCall(_objects, t => t.ObjectsVariance, t => t.ObjectsVariance), 1 / callsPerBox);
            var row = RowCombination.Combine(basis, new MethodPassFigures(
                sampledCalls, suspendingCalls, hopCountsComplete, _completedSynchronously,
                hasAllocations ? Sampled(_bytes, _bytesVariance, _samples, _allocationSource) : null,
                hasAllocations ? Sampled(_objects, _objectsVariance, _samples, _allocationSource) : null,
                bytesPerCall, objectsPerCall));
            // An async iterator's box spans an enumeration, its consumer's time included, and so does any box seen serving
            // several calls (an iterator the trace did not name as one): not the time a call waited.
            var boxPerCall = !isAsyncIterator && _hops is { } timed && timed.SuspendingCalls <= timed.Boxes;
            // Timed in a windowed pass's windows, a call lasted longer than between them: the mean is the pass's (HopScale).
            var elapsedPerCall = boxPerCall ? hopScale!.PerCallTime(ElapsedTime.PerCall(_hops!.Elapsed, _hops.PendingCalls, _hops.PendingMs)) : null;
            return (new MethodCost
            {
                MethodKey = name.MethodKey,
                DisplayName = name.DisplayName,
                Assembly = origin.Assembly,
                Origin = origin.Origin,
                Calls = row.Calls,
                SampledCalls = sampledCalls,
                SuspendingCalls = suspendingCalls,
                Bytes = row.Bytes,
                Objects = row.Objects,
                BytesPerCall = bytesPerCall,
                ObjectsPerCall = objectsPerCall,
                Hops = hops,
                HopsPerCall = Figure.Ratio(hops, suspendingCalls),
                BlockingWaits = hopScale?.Count(_hops?.BlockingWaits ?? 0, spread: null),
                BlockedMilliseconds = hopScale?.Time(_hops?.BlockedMilliseconds ?? 0, _hops?.BlockedSquaredMilliseconds ?? 0, _hops?.BlockingWaits ?? 0),
                LongestBlockedMilliseconds = _hops is { BlockingWaits: > 0 } ? _hops.LongestBlockMilliseconds : null,
                ElapsedMilliseconds = ElapsedTime.Total(elapsedPerCall, suspendingCalls),
                ElapsedPerCallMilliseconds = elapsedPerCall,
                ElapsedDistribution = elapsedPerCall is null ? null : ElapsedTime.Distribution(_hops!.Elapsed, elapsedPerCall, hopScale!.Windowed ? hopScale.TimeCorrection : 1),
                CpuMilliseconds = _cpuMilliseconds,
                WaitMilliseconds = _waitMilliseconds,
                Allocations = [.. _allocations.OrderByDescending(a => a.Bytes.Value)],
                AwaitedCalls = _hops is null ? [] : AwaitedCalls(_hops, hopScale!, stateMachine),
            }, row.Disagreement);
        }

        /// <summary>The callees this method called, most time waited first, scaled like its own figures.</summary>
        private static List<AwaitedCall> AwaitedCalls(MethodHops hops, HopScale hopScale, Func<string, AsyncMethodName?> stateMachine)
        {
            // Timed in a windowed pass's windows, a time per run lasted longer than between them (HopScale).
            Figure? Expected(CallDurations perRun, Figure runs) => hopScale.PerCallTime(ElapsedTime.PerCall(perRun)) is { } scaled ? ElapsedTime.Expected(scaled, runs) : null;

            return [.. hops.Awaited.Values
                .Where(callee => callee.Runs + callee.Groups > 0 && stateMachine(callee.CalleeName) is not null)
                .Select(callee =>
                {
                    var name = stateMachine(callee.CalleeName)!;
                    var runs = hopScale.Count(callee.Runs, spread: null);
                    var groups = hopScale.Count(callee.Groups, spread: null);
                    var sequential = Expected(callee.Sequential, runs);
                    var together = Expected(callee.Together, groups);
                    return new AwaitedCall
                    {
                        MethodKey = name.MethodKey,
                        DisplayName = name.DisplayName,
                        Runs = runs,
                        CallsPerRun = callee.Runs > 0 ? (double)callee.Calls / callee.Runs : 0,
                        Groups = groups,
                        CallsPerGroup = callee.Groups > 0 ? (double)callee.CallsTogether / callee.Groups : 0,
                        SequentialMilliseconds = sequential,
                        TogetherMilliseconds = together,
                        WaitedMilliseconds = Figure.Sum([sequential, together])!,
                        SavingIfTogetherPerRunMilliseconds = hopScale.PerCallTime(ElapsedTime.PerCall(callee.SavingIfTogether)),
                        SavingIfTogetherMilliseconds = Expected(callee.SavingIfTogether, runs),
                        SavingIfOverlappingMilliseconds = Expected(callee.SavingIfOverlapping, runs),
                    };
                })
                .OrderByDescending(call => call.WaitedMilliseconds.Value)];
        }


        /// <summary>
        /// A total per sampled call, R = X / Y, X and Y estimated from the same samples. The ratio estimator's variance is
        /// Σ w (x − R·y)² / Y² over the samples (w = each sample's Horvitz–Thompson variance weight, y = 1 for a box or result
        /// task, 0 otherwise). Per type, with its objects of one size (true of boxes, tasks, closures and delegates), that sum is
        /// Var(x) − 2R·y·Cov(x, objects) + R²y²·Var(objects). When every sample is a call of one size the bound is zero.
        /// </summary>
        /// <param name="total">X.</param>
        /// <param name="variance">Var(x) of a type's tally.</param>
        /// <param name="covariance">Cov(x, objects) of a type's tally; by default √(Var(bytes)·Var(objects)), exact for one size.</param>
        private Figure? PerSampledCall(double total, Func<TypeTally, double> variance, Func<TypeTally, double>? covariance = null)
        {
            if (_callSamples == 0 || _calls <= 0)
            {
                return null;
            }
            covariance ??= t => Math.Sqrt(t.BytesVariance * t.ObjectsVariance);
            var ratio = total / _calls;
            var residuals = _tallies.Sum(t => t.IsCall
                ? variance(t.Tally) - (2 * ratio * covariance(t.Tally)) + (ratio * ratio * t.Tally.ObjectsVariance)
                : variance(t.Tally));
            var bound = Figure.StandardErrors * Math.Sqrt(Math.Max(residuals, 0)) / _calls;
            return new Figure { Value = ratio, ErrorBound = bound, Samples = _samples, Sampled = true, Source = _allocationSource };
        }
    }
}
