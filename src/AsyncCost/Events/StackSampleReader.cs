using AsyncCost.Attribution;
using AsyncCost.Computers;
using Microsoft.Diagnostics.Tracing;
using Microsoft.Diagnostics.Tracing.Etlx;

namespace AsyncCost.Events;

/// <summary>
/// Feeds a saved .nettrace's sample-profiler events, with their stacks, to a <see cref="CpuComputer"/> (time per async
/// method) or a <see cref="StackProfileComputer"/> (the stacks themselves, for a flame graph). The stacks are
/// addresses: TraceLog turns them into methods from the trace's own method load and rundown events, which needs the whole
/// file, so a CPU pass is read once its recording has ended (the live session spools it to a file as it arrives).
/// </summary>
internal static class StackSampleReader
{
    /// <exception cref="TraceFileInvalidException">The trace cannot be read as one.</exception>
    public static void Read(string nettracePath, IStackSampleSink sink, MethodCatalog catalog, CancellationToken cancellationToken = default)
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
                if (e.ProviderName == KnownEvents.SampleProfilerProvider && State(e) is { } state)
                {
                    sink.OnSample(e.ThreadID, e.TimeStampRelativeMSec, state, [.. Frames(e.CallStack())], asyncMethodOf);
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
