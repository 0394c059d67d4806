using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Diagnostics;

namespace AsyncCost.Analyzers.Tests.Verification;

/// <summary>Builds test compilations against the running .NET's own assemblies and runs analyzers on them.</summary>
public static class TestCompilation
{
    public static readonly CSharpParseOptions ParseOptions = new(LanguageVersion.Latest);

    // The test host's trusted platform assemblies: every framework assembly a test snippet may use.
    public static readonly ImmutableArray<MetadataReference> References =
        ((string)AppContext.GetData("TRUSTED_PLATFORM_ASSEMBLIES")!)
            .Split(Path.PathSeparator)
            .Where(path => Path.GetFileName(path).StartsWith("System.", StringComparison.Ordinal)
                || Path.GetFileName(path) is "mscorlib.dll" or "netstandard.dll")
            .Select(path => (MetadataReference)MetadataReference.CreateFromFile(path))
            .ToImmutableArray();

    public static CSharpCompilation Create(IEnumerable<string> sources, OutputKind outputKind, ImmutableArray<string> referencedProjects = default) =>
        CSharpCompilation.Create(
            "TestProject",
            sources.Select((source, index) => CSharpSyntaxTree.ParseText(source, ParseOptions, path: $"Test{index}.cs")),
            References.AddRange(referencedProjects.IsDefault ? [] : referencedProjects.Select(Compiled)),
            new CSharpCompilationOptions(outputKind, nullableContextOptions: NullableContextOptions.Enable, allowUnsafe: true));

    // Another project of the solution, as the one under test sees it: an assembly, with no source.
    private static MetadataReference Compiled(string source, int index)
    {
        var project = CSharpCompilation.Create(
            "ReferencedProject" + index,
            [CSharpSyntaxTree.ParseText(source, ParseOptions, path: $"Referenced{index}.cs")],
            References,
            new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary, nullableContextOptions: NullableContextOptions.Enable));
        AssertCompiles(project);
        using var image = new MemoryStream();
        project.Emit(image);
        return MetadataReference.CreateFromImage(image.ToArray());
    }

    /// <summary>
    /// The analyzer's diagnostics, sorted by position. Throws when the analyzer threw (AD0001 is a bug) and,
    /// unless <paramref name="allowCompilerErrors"/>, when the snippet itself does not compile.
    /// </summary>
    public static async Task<ImmutableArray<Diagnostic>> AnalyzeAsync(
        Compilation compilation, DiagnosticAnalyzer analyzer, TestOptions options, bool allowCompilerErrors = false)
    {
        if (!allowCompilerErrors)
        {
            AssertCompiles(compilation);
        }

        var exceptions = new List<Exception>();
        var analyzerOptions = new CompilationWithAnalyzersOptions(
            new AnalyzerOptions(options.CreateAdditionalTexts(), options.CreateProvider()),
            onAnalyzerException: (exception, _, _) => exceptions.Add(exception),
            concurrentAnalysis: true,
            logAnalyzerExecutionTime: false);
        var diagnostics = await compilation
            .WithAnalyzers(ImmutableArray.Create(analyzer), analyzerOptions)
            .GetAnalyzerDiagnosticsAsync();

        if (exceptions.Count > 0 || diagnostics.Any(d => d.Id == "AD0001"))
        {
            throw new InvalidOperationException(
                "The analyzer threw (AD0001):\n" + string.Join("\n", exceptions.Select(e => e.ToString()).Concat(diagnostics.Where(d => d.Id == "AD0001").Select(d => d.ToString()))));
        }
        return diagnostics.OrderBy(d => d.Location.SourceSpan.Start).ThenBy(d => d.Id, StringComparer.Ordinal).ToImmutableArray();
    }

    public static void AssertCompiles(Compilation compilation)
    {
        var errors = compilation.GetDiagnostics().Where(d => d.Severity == DiagnosticSeverity.Error).ToList();
        if (errors.Count > 0)
        {
            throw new InvalidOperationException("The test source does not compile:\n" + string.Join("\n", errors));
        }
    }
}
