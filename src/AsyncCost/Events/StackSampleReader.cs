using AsyncCost.Attribution;
using AsyncCost.Computers;
using Microsoft.Diagnostics.Tracing;
using Microsoft.Diagnostics.Tracing.Etlx;

namespace AsyncCost.Events;

/// <summary>
/// Reads the events of a saved .nettrace that need their stacks: the sample profiler's, fed to a <see cref="CpuComputer"/>
/// (time per async method) or a <see cref="StackProfileComputer"/> (the stacks themselves, for a flame graph), and the
/// allocation samples, tallied per (type, site) in an <see cref="AllocationComputer"/>. The stacks are addresses: TraceLog
/// turns them into methods from the trace's own method load and rundown events, which needs the whole file, so such a
/// pass is read once its recording has ended (the live session spools it to a file as it arrives).
/// </summary>
internal static class StackSampleReader
{
    /// <summary>Frames of these namespaces are the framework's (or, unnamed, the runtime's): never an allocation's maker.</summary>
    private static readonly string[] FrameworkNamespaces = ["System.", "Microsoft.", "Internal.", "Interop."];

    /// <summary>What an async method's builder runs to make the Task&lt;T&gt; of a call that completed synchronously
    /// (AsyncTaskMethodBuilder`1.SetResult, the Task.FromResult it calls, AsyncMethodBuilderCore.Start, the Task`1 constructor).</summary>
    private static readonly string[] AsyncBuilderFrames = ["System.Runtime.CompilerServices.Async", "System.Threading.Tasks.Task`1", "System.Threading.Tasks.Task."];

    /// <summary>
    /// Reads what of a saved stream needs its stacks into the reader that read the stream: its stack samples, and its
    /// allocation samples again, with their sites, in place of the same samples tallied by type name. When the allocation
    /// samples carry no stacks or the file cannot be read, the name-only tallies stay and say why
    /// (<see cref="AllocationComputer.StacksMissing"/>).
    /// </summary>
    /// <exception cref="TraceFileInvalidException">The trace has stack samples and cannot be read as one.</exception>
    public static void ReadInto(string nettracePath, EventReader reader, MethodCatalog catalog, CancellationToken cancellationToken = default)
    {
        var sink = reader.StackSamples > 0 ? reader.Cpu : null;
        var withSites = reader.Allocations.EventKind == "AllocationSampled" ? new AllocationComputer() : null;
        if (sink is null && withSites is null)
        {
            return;
        }
        try
        {
            Read(nettracePath, sink, catalog, withSites, cancellationToken);
        }
        catch (TraceFileInvalidException e) when (sink is null)
        {
            reader.Allocations.StacksMissing = e.Message;
            return;
        }
        if (withSites is null)
        {
            return;
        }
        if (withSites.SamplesWithStacks > 0)
        {
            reader.UseAllocationsWithSites(withSites);
        }
        else
        {
            reader.Allocations.StacksMissing = $"the allocation samples of {nettracePath} carry no stacks (recorded without stack walks)";
        }
    }

    /// <summary>Reads the stack samples into <paramref name="sink"/> and, when <paramref name="allocations"/> is given, the
    /// allocation samples with their sites into it (an empty computer: the same samples the stream reader tallied by name).</summary>
    /// <exception cref="TraceFileInvalidException">The trace cannot be read as one.</exception>
    public static void Read(string nettracePath, IStackSampleSink? sink, MethodCatalog catalog, AllocationComputer? allocations = null, CancellationToken cancellationToken = default)
    {
        var etlx = Path.Combine(Path.GetTempPath(), $"asynccost-{Guid.NewGuid():N}.etlx");
        try
        {
            TraceLog.CreateFromEventPipeDataFile(nettracePath, etlx);
            using var log = new TraceLog(etlx);
            var asyncMethodOf = catalog.AsyncMethodFrames();
            foreach (var e in log.Events)
            {
                cancellationToken.ThrowIfCancellationRequested();
                if (sink is not null && e.ProviderName == KnownEvents.SampleProfilerProvider && State(e) is { } state)
                {
                    sink.OnSample(e.ThreadID, e.TimeStampRelativeMSec, state, [.. Frames(e.CallStack())], asyncMethodOf);
                }
                else if (allocations is not null && (int)e.ID == KnownEvents.AllocationSampledId && e.ProviderName == KnownEvents.RuntimeProvider
                    && e.PayloadByName("TypeName") is string type)
                {
                    var stack = e.CallStack();
                    allocations.OnAllocationSampled(type, Convert.ToInt64(e.PayloadByName("ObjectSize"), System.Globalization.CultureInfo.InvariantCulture),
                        stack is null ? null : SiteOf(Frames(stack)));
                }
            }
        }
        catch (Exception e) when (e is not OperationCanceledException and not OutOfMemoryException)
        {
            throw new TraceFileInvalidException($"Cannot read the stack samples of {nettracePath}: {e.Message}", e);
        }
        finally
        {
            File.Delete(etlx);
        }
    }

    /// <summary>The innermost application frame of an allocation's stack (leaf first), and whether only the async method
    /// builder ran between it and the allocation.</summary>
    internal static AllocationSite SiteOf(IEnumerable<string> frames)
    {
        var byAsyncBuilder = true;
        foreach (var frame in frames)
        {
            if (!FrameworkNamespaces.Any(space => frame.StartsWith(space, StringComparison.Ordinal)))
            {
                return new AllocationSite(frame, byAsyncBuilder);
            }
            byAsyncBuilder &= AsyncBuilderFrames.Any(prefix => frame.StartsWith(prefix, StringComparison.Ordinal));
        }
        return new AllocationSite(null, false);
    }

    /// <summary>ThreadSample's Type: 1 External, 2 Managed (0, a failed sample, is skipped).</summary>
    private static SampledThreadState? State(TraceEvent e) => e.PayloadByName("Type")?.ToString() switch
    {
        "Managed" or "2" => SampledThreadState.Managed,
        "External" or "1" => SampledThreadState.External,
        _ => null,
    };

    /// <summary>Leaf first, "Ns.Type.Method" without the signature; frames TraceLog could not name are skipped.</summary>
    private static IEnumerable<string> Frames(TraceCallStack? stack)
    {
        for (; stack is not null; stack = stack.Caller)
        {
            var name = stack.CodeAddress.FullMethodName;
            var open = name.IndexOf('(', StringComparison.Ordinal);
            if (open != 0 && name.Length > 0)
            {
                yield return open > 0 ? name[..open] : name;
            }
        }
    }
}
