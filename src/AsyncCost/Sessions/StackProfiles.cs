using AsyncCost.Attribution;
using AsyncCost.Computers;
using AsyncCost.Events;
using AsyncCost.Report;
using Microsoft.Diagnostics.Tracing;

namespace AsyncCost.Sessions;

/// <summary>Reads the cpu pass's stacks out of saved traces, for a flame graph.</summary>
internal static class StackProfiles
{
    public static Task<StackProfile> ReadAsync(IReadOnlyList<string> traceFiles, CancellationToken cancellationToken)
    {
        SavedTraces.CheckFilesExist(traceFiles);
        return Task.Run(() => Read(traceFiles, cancellationToken), cancellationToken);
    }

    private static StackProfile Read(IReadOnlyList<string> traceFiles, CancellationToken cancellationToken)
    {
        // One catalog for all the files, as a report reads them: a later slice names the methods an earlier one loaded.
        var methods = new MethodCatalog();
        var stacks = new StackProfileComputer();
        var sampled = new List<string>();
        foreach (var file in traceFiles.Distinct(StringComparer.Ordinal))
        {
            var reader = new EventReader(methods);
            try
            {
                using var source = new EventPipeEventSource(file);
                reader.Process(source);
            }
            catch (Exception e) when (e is not OperationCanceledException and not OutOfMemoryException)
            {
                throw new TraceFileInvalidException($"Cannot read {file} as a .nettrace: {e.Message}", e);
            }
            cancellationToken.ThrowIfCancellationRequested();
            if (reader.StackSamples > 0)
            {
                StackSampleReader.Read(file, stacks, methods, cancellationToken: cancellationToken);
                sampled.Add(file);
            }
        }
        return stacks.Samples > 0 ? stacks.Result(sampled)
            : throw new TraceFileInvalidException($"{string.Join(", ", traceFiles)}: no stack samples, so no flame graph. Record the cpu pass ('collect --passes cpu -o <base>') and give its <base>.cpu.nettrace.");
    }
}
