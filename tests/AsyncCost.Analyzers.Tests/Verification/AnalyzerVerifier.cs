using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;

namespace AsyncCost.Analyzers.Tests.Verification;

/// <summary>
/// Asserts that an analyzer reports exactly the marked spans of a markup source, and nothing else.
/// A source without markup asserts silence: that is how must-not-flag cases are written.
/// </summary>
public static class AnalyzerVerifier<TAnalyzer>
    where TAnalyzer : DiagnosticAnalyzer, new()
{
    public static Task VerifyAsync(string markup) => VerifyAsync(markup, TestOptions.Default);

    public static async Task VerifyAsync(string markup, TestOptions options)
    {
        var diagnostics = await GetDiagnosticsAsync(markup, options);
        var (_, expected) = TestMarkup.Parse(markup);
        AssertMatches(expected, diagnostics, DefaultId());
    }

    /// <summary>The analyzer's diagnostics on a clean source, for tests that inspect messages or properties.</summary>
    public static async Task<ImmutableArray<Diagnostic>> GetDiagnosticsAsync(string markup, TestOptions? options = null, bool allowCompilerErrors = false)
    {
        options ??= TestOptions.Default;
        var (source, _) = TestMarkup.Parse(markup);
        var compilation = TestCompilation.Create(options.AdditionalSources.Prepend(source), options.OutputKind, options.ReferencedProjects);
        var diagnostics = await TestCompilation.AnalyzeAsync(compilation, new TAnalyzer(), options, allowCompilerErrors);
        // Only the marked file (the first tree) is under test.
        return diagnostics.Where(d => d.Location.SourceTree == compilation.SyntaxTrees.First()).ToImmutableArray();
    }

    /// <summary>Runs the analyzer on code that does not compile: it must not throw, whatever it reports.</summary>
    public static Task VerifyNoCrashAsync(string brokenSource) =>
        GetDiagnosticsAsync(brokenSource, TestOptions.Default with { }, allowCompilerErrors: true);

    internal static string DefaultId() => new TAnalyzer().SupportedDiagnostics[0].Id;

    internal static void AssertMatches(IReadOnlyList<ExpectedSpan> expected, IReadOnlyList<Diagnostic> actual, string defaultId)
    {
        var expectedText = expected
            .Select(e => $"{e.Id ?? defaultId} at {e.Span}")
            .OrderBy(s => s, StringComparer.Ordinal);
        var actualText = actual
            .Select(d => $"{d.Id} at {d.Location.SourceSpan}")
            .OrderBy(s => s, StringComparer.Ordinal);
        var missing = expectedText.Except(actualText).ToList();
        var unexpected = actualText.Except(expectedText).ToList();
        if (missing.Count > 0 || unexpected.Count > 0)
        {
            var details = actual.Select(d => $"  {d.Id} {d.Location.SourceSpan} \"{d.Location.SourceTree?.GetText().ToString(d.Location.SourceSpan)}\": {d.GetMessage(System.Globalization.CultureInfo.InvariantCulture)}");
            Assert.Fail(
                "Diagnostics differ from the markup.\n" +
                $"Missing: {string.Join(", ", missing)}\nUnexpected: {string.Join(", ", unexpected)}\nReported:\n{string.Join("\n", details)}");
        }
    }
}
