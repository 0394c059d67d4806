using System.Collections.Immutable;
using AsyncCost.Analyzers.Tests.Verification;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Diagnostics;

namespace AsyncCost.Analyzers.Tests;

/// <summary>
/// Every AC rule over every C# file of this repository, in one compilation that lacks most of their references
/// (xunit, BenchmarkDotNet, TraceEvent…), so it is full of unresolved symbols: no rule may throw (AD0001).
/// </summary>
public class RepositorySourcesRobustnessTests
{
    [Fact]
    public async Task No_rule_throws_on_any_file_of_the_repository()
    {
        var root = CatalogTests.RepositoryRoot();
        var trees = Directory.EnumerateFiles(root, "*.cs", SearchOption.AllDirectories)
            .Where(path => !path.Contains($"{Path.DirectorySeparatorChar}bin{Path.DirectorySeparatorChar}", StringComparison.Ordinal)
                && !path.Contains($"{Path.DirectorySeparatorChar}obj{Path.DirectorySeparatorChar}", StringComparison.Ordinal))
            .Select(path => CSharpSyntaxTree.ParseText(File.ReadAllText(path), TestCompilation.ParseOptions, path))
            .ToList();
        Assert.True(trees.Count > 50, $"only {trees.Count} files found under {root}");
        var compilation = CSharpCompilation.Create("Repository", trees, TestCompilation.References, new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary));
        var analyzers = typeof(Descriptors).Assembly.GetTypes()
            .Where(t => !t.IsAbstract && typeof(DiagnosticAnalyzer).IsAssignableFrom(t))
            .Select(t => (DiagnosticAnalyzer)Activator.CreateInstance(t)!)
            .ToImmutableArray();
        Assert.NotEmpty(analyzers);

        // All rules in one pass (one binding of the compilation); any exception is collected, as is any AD0001.
        var exceptions = new System.Collections.Concurrent.ConcurrentBag<string>();
        var options = new CompilationWithAnalyzersOptions(
            new AnalyzerOptions(ImmutableArray<AdditionalText>.Empty, TestOptions.Default.CreateProvider()),
            onAnalyzerException: (exception, analyzer, _) => exceptions.Add($"{analyzer.GetType().Name}: {exception}"),
            concurrentAnalysis: true,
            logAnalyzerExecutionTime: false);
        var diagnostics = await compilation.WithAnalyzers(analyzers, options).GetAnalyzerDiagnosticsAsync();

        Assert.Empty(exceptions);
        Assert.DoesNotContain(diagnostics, d => d.Id == "AD0001");
    }
}
