using System.Collections.Immutable;
using AsyncCost.Analyzers;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;

namespace AsyncCost.Benchmarks.Analyzers;

/// <summary>
/// Every AC rule in the analyzer assembly, found by reflection, so a rule added later is measured without
/// touching the benchmark.
/// </summary>
public static class AsyncCostRules
{
    public static ImmutableArray<DiagnosticAnalyzer> All() =>
        typeof(Descriptors).Assembly.GetTypes()
            .Where(t => t is { IsAbstract: false } && typeof(DiagnosticAnalyzer).IsAssignableFrom(t) && t.GetConstructor(Type.EmptyTypes) is not null)
            .Select(t => (DiagnosticAnalyzer)Activator.CreateInstance(t)!)
            .Where(a => a.SupportedDiagnostics.Any(d => d.Id.StartsWith("AC", StringComparison.Ordinal)))
            .OrderBy(Id, StringComparer.Ordinal)
            .ToImmutableArray();

    public static string Id(DiagnosticAnalyzer analyzer) => string.Join("+", analyzer.SupportedDiagnostics.Select(d => d.Id).Distinct());

    /// <summary>Options for a measured run: sequential (so each rule's time is its own) and telemetry on.</summary>
    public static CompilationWithAnalyzersOptions Options(bool logExecutionTime) =>
        new(new AnalyzerOptions(ImmutableArray<AdditionalText>.Empty), onAnalyzerException: null, concurrentAnalysis: false, logAnalyzerExecutionTime: logExecutionTime);
}
