using System.Collections.Immutable;
using AsyncCost.Analyzers.Tests.Verification;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Tests;

/// <summary>The markup verifier itself: a wrong verifier would make every rule test meaningless.</summary>
public class VerifierTests
{
    private const string TwoAwaits = """
        using System.Threading.Tasks;
        class C
        {
            async Task M()
            {
                [|await Task.Yield()|];
                {|TEST01:await Task.Delay(1)|};
            }
        }
        """;

    [Fact]
    public async Task Marked_spans_that_are_reported_pass()
    {
        await AnalyzerVerifier<EveryAwaitAnalyzer>.VerifyAsync(TwoAwaits);
    }

    [Fact]
    public async Task A_reported_span_without_markup_fails()
    {
        var unmarked = TwoAwaits.Replace("[|", "", StringComparison.Ordinal).Replace("|]", "", StringComparison.Ordinal);
        await Assert.ThrowsAnyAsync<Exception>(() => AnalyzerVerifier<EveryAwaitAnalyzer>.VerifyAsync(unmarked));
    }

    [Fact]
    public async Task A_snippet_that_does_not_compile_fails_unless_allowed()
    {
        const string broken = "class C { void M() { int x = ; } }";
        await Assert.ThrowsAsync<InvalidOperationException>(() => AnalyzerVerifier<EveryAwaitAnalyzer>.VerifyAsync(broken));
        await AnalyzerVerifier<EveryAwaitAnalyzer>.VerifyNoCrashAsync(broken);
    }

    [Fact]
    public async Task An_analyzer_exception_fails_as_AD0001()
    {
        await Assert.ThrowsAsync<InvalidOperationException>(() => AnalyzerVerifier<ThrowingAnalyzer>.VerifyAsync("class C { }"));
    }

    [Fact]
    public void Markup_is_removed_from_the_source()
    {
        var (source, spans) = TestMarkup.Parse("a[|bc|]d{|X1:ef|}g");
        Assert.Equal("abcdefg", source);
        Assert.Equal([new ExpectedSpan(new(1, 2), null), new ExpectedSpan(new(4, 2), "X1")], spans);
    }

    [DiagnosticAnalyzer(LanguageNames.CSharp)]
    private sealed class EveryAwaitAnalyzer : DiagnosticAnalyzer
    {
        private static readonly DiagnosticDescriptor Rule = new("TEST01", "await", "await", "Test", DiagnosticSeverity.Warning, true);

        public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics => [Rule];

        public override void Initialize(AnalysisContext context) =>
            context.RegisterOperationAction(c => c.ReportDiagnostic(Diagnostic.Create(Rule, ((IAwaitOperation)c.Operation).Syntax.GetLocation())), OperationKind.Await);
    }

    [DiagnosticAnalyzer(LanguageNames.CSharp)]
    private sealed class ThrowingAnalyzer : DiagnosticAnalyzer
    {
        private static readonly DiagnosticDescriptor Rule = new("TEST02", "t", "t", "Test", DiagnosticSeverity.Warning, true);

        public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics => [Rule];

        public override void Initialize(AnalysisContext context) =>
            context.RegisterSyntaxTreeAction(_ => throw new InvalidOperationException("boom"));
    }
}
