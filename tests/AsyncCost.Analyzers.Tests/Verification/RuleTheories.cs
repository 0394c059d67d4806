using Microsoft.CodeAnalysis.Diagnostics;

namespace AsyncCost.Analyzers.Tests.Verification;

/// <summary>
/// The three theories every rule's tests run: must-flag and must-not-flag markup cases, and broken code the
/// rule must survive. A derived class supplies static <c>MustFlag</c>, <c>MustNotFlag</c> (name, members) and
/// <c>BrokenCode</c> (members) data, and how members become a file.
/// </summary>
// xunit resolves MemberData on the class that runs the test (the derived rule class), which the analyzer cannot see.
#pragma warning disable xUnit1015
public abstract class RuleTheories<TAnalyzer>
    where TAnalyzer : DiagnosticAnalyzer, new()
{
    /// <summary>Members (markup allowed) to a compilable file.</summary>
    protected virtual string Wrap(string members) => Snippet.InClass(members);

    [Theory]
    [MemberData("MustFlag")]
    public Task Flags(string name, string members)
    {
        _ = name;
        return AnalyzerVerifier<TAnalyzer>.VerifyAsync(Wrap(members));
    }

    [Theory]
    [MemberData("MustNotFlag")]
    public Task Does_not_flag(string name, string members)
    {
        _ = name;
        return AnalyzerVerifier<TAnalyzer>.VerifyAsync(Wrap(members));
    }

    [Theory]
    [MemberData("BrokenCode")]
    public Task Survives_broken_code(string members) => AnalyzerVerifier<TAnalyzer>.VerifyNoCrashAsync(Wrap(members));
}
