using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeActions;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Text;

namespace AsyncCost.Analyzers.Tests.Verification;

/// <summary>
/// Asserts that the markup's diagnostics are reported, that applying the fix (one at a time, or Fix All)
/// gives the expected code, and that the fixed code compiles.
/// </summary>
public static class CodeFixVerifier<TAnalyzer, TCodeFix>
    where TAnalyzer : DiagnosticAnalyzer, new()
    where TCodeFix : CodeFixProvider, new()
{
    public static Task VerifyFixAsync(string markup, string fixedSource) =>
        VerifyFixAsync(markup, fixedSource, TestOptions.Default);

    public static async Task VerifyFixAsync(string markup, string fixedSource, TestOptions options, string? equivalenceKey = null)
    {
        await AnalyzerVerifier<TAnalyzer>.VerifyAsync(markup, options);
        var (source, _) = TestMarkup.Parse(markup);
        var document = CreateDocument(source, options);
        var fix = new TCodeFix();

        // One fix at a time, re-analyzing after each, as a user applying the light bulb would.
        for (var applied = 0; applied < 100; applied++)
        {
            var diagnostic = (await AnalyzeAsync(document, options)).FirstOrDefault(d => fix.FixableDiagnosticIds.Contains(d.Id));
            if (diagnostic is null)
            {
                break;
            }
            var action = await GetActionAsync(fix, document, diagnostic, equivalenceKey)
                ?? throw new InvalidOperationException($"No code action was offered for {diagnostic}.");
            document = await ApplyAsync(action, document);
        }
        await AssertFixedAsync(document, fixedSource, options);
    }

    /// <summary>
    /// The source after applying every fix offered, one at a time and re-analyzing after each, as a user taking each
    /// light bulb in turn would (diagnostics without a fix are left), and how many were applied.
    /// </summary>
    public static async Task<(string Source, int Applied)> ApplyEveryFixAsync(string source, TestOptions options)
    {
        var document = CreateDocument(source, options);
        var fix = new TCodeFix();
        var applied = 0;
        for (; applied < 100; applied++)
        {
            CodeAction? action = null;
            foreach (var diagnostic in (await AnalyzeAsync(document, options)).Where(d => fix.FixableDiagnosticIds.Contains(d.Id)))
            {
                if ((action = await GetActionAsync(fix, document, diagnostic, null)) is not null)
                {
                    break;
                }
            }
            if (action is null)
            {
                break;
            }
            document = await ApplyAsync(action, document);
        }
        TestCompilation.AssertCompiles((await document.Project.GetCompilationAsync())!);
        return ((await document.GetTextAsync()).ToString(), applied);
    }

    /// <summary>The markup's diagnostics are reported and the fix offers no action for any of them.</summary>
    public static async Task VerifyNoFixOfferedAsync(string markup, TestOptions? options = null)
    {
        options ??= TestOptions.Default;
        await AnalyzerVerifier<TAnalyzer>.VerifyAsync(markup, options);
        var document = CreateDocument(TestMarkup.Parse(markup).Source, options);
        var fix = new TCodeFix();
        foreach (var diagnostic in (await AnalyzeAsync(document, options)).Where(d => fix.FixableDiagnosticIds.Contains(d.Id)))
        {
            Assert.Null(await GetActionAsync(fix, document, diagnostic, null));
        }
    }

    /// <summary>Fix All in the document, through the provider's FixAllProvider.</summary>
    public static async Task VerifyFixAllAsync(string markup, string fixedSource, TestOptions? options = null, string? equivalenceKey = null)
    {
        options ??= TestOptions.Default;
        await AnalyzerVerifier<TAnalyzer>.VerifyAsync(markup, options);
        var (source, _) = TestMarkup.Parse(markup);
        var document = CreateDocument(source, options);
        var fix = new TCodeFix();
        var fixAllProvider = fix.GetFixAllProvider() ?? throw new InvalidOperationException("The fix has no FixAllProvider.");
        // As dotnet format does: the key of the first diagnostic's action, null when that diagnostic has no fix.
        var first = (await AnalyzeAsync(document, options)).First(d => fix.FixableDiagnosticIds.Contains(d.Id));
        var key = equivalenceKey ?? (await GetActionAsync(fix, document, first, null))?.EquivalenceKey;
        var context = new FixAllContext(
            document, fix, FixAllScope.Document, key, fix.FixableDiagnosticIds,
            new AnalyzerDiagnosticProvider(options), CancellationToken.None);
        var action = await fixAllProvider.GetFixAsync(context) ?? throw new InvalidOperationException("Fix All offered nothing.");
        await AssertFixedAsync(await ApplyAsync(action, document), fixedSource, options);
    }

    private static async Task AssertFixedAsync(Document document, string fixedSource, TestOptions options)
    {
        var actual = (await document.GetTextAsync()).ToString();
        Assert.Equal(Normalize(fixedSource), Normalize(actual));
        var compilation = (await document.Project.GetCompilationAsync())!;
        TestCompilation.AssertCompiles(compilation);
        _ = options;
    }

    private static Document CreateDocument(string source, TestOptions options)
    {
        var workspace = new AdhocWorkspace();
        var project = workspace.AddProject(ProjectInfo.Create(
            ProjectId.CreateNewId(), VersionStamp.Default, "TestProject", "TestProject", LanguageNames.CSharp,
            compilationOptions: new CSharpCompilationOptions(options.OutputKind, nullableContextOptions: NullableContextOptions.Enable),
            parseOptions: TestCompilation.ParseOptions,
            metadataReferences: TestCompilation.References));
        var index = 1;
        foreach (var additional in options.AdditionalSources)
        {
            project = workspace.AddDocument(project.Id, $"Test{index++}.cs", SourceText.From(additional)).Project;
        }
        return workspace.AddDocument(project.Id, "Test0.cs", SourceText.From(source));
    }

    private static async Task<ImmutableArray<Diagnostic>> AnalyzeAsync(Document document, TestOptions options)
    {
        var compilation = (await document.Project.GetCompilationAsync())!;
        var tree = await document.GetSyntaxTreeAsync();
        var diagnostics = await TestCompilation.AnalyzeAsync(compilation, new TAnalyzer(), options, allowCompilerErrors: true);
        return diagnostics.Where(d => d.Location.SourceTree == tree).ToImmutableArray();
    }

    private static async Task<CodeAction?> GetActionAsync(CodeFixProvider fix, Document document, Diagnostic diagnostic, string? equivalenceKey)
    {
        var actions = new List<CodeAction>();
        var context = new CodeFixContext(document, diagnostic, (action, _) => actions.Add(action), CancellationToken.None);
        await fix.RegisterCodeFixesAsync(context);
        return actions.FirstOrDefault(a => equivalenceKey is null || a.EquivalenceKey == equivalenceKey);
    }

    private static async Task<Document> ApplyAsync(CodeAction action, Document document)
    {
        var operations = await action.GetOperationsAsync(CancellationToken.None);
        var solution = operations.OfType<ApplyChangesOperation>().Single().ChangedSolution;
        return solution.GetDocument(document.Id)!;
    }

    private static string Normalize(string text) => text.Replace("\r\n", "\n", StringComparison.Ordinal).TrimEnd();

    private sealed class AnalyzerDiagnosticProvider(TestOptions options) : FixAllContext.DiagnosticProvider
    {
        public override Task<IEnumerable<Diagnostic>> GetAllDiagnosticsAsync(Project project, CancellationToken cancellationToken) =>
            GetProjectDiagnosticsAsync(project, cancellationToken);

        public override async Task<IEnumerable<Diagnostic>> GetDocumentDiagnosticsAsync(Document document, CancellationToken cancellationToken) =>
            await AnalyzeAsync(document, options);

        public override async Task<IEnumerable<Diagnostic>> GetProjectDiagnosticsAsync(Project project, CancellationToken cancellationToken)
        {
            var compilation = (await project.GetCompilationAsync(cancellationToken))!;
            return await TestCompilation.AnalyzeAsync(compilation, new TAnalyzer(), options, allowCompilerErrors: true);
        }
    }
}
