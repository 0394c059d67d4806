using System.Collections.Immutable;
using AsyncCost.Analyzers.Tests.Verification;
using Microsoft.CodeAnalysis;
using Verify = AsyncCost.Analyzers.Tests.Verification.AnalyzerVerifier<AsyncCost.Analyzers.Rules.AC0006BlockingOnTaskAnalyzer>;

namespace AsyncCost.Analyzers.Tests;

/// <summary>
/// Issue 46 item 2: where static evidence is missing, a measured cost the project lists (an AdditionalFiles item written
/// by 'collect --sarif -o base', base.costs.tsv) decides: at or above the threshold a warning saying what it cost and
/// where; measured at zero on a path that ran, a suggestion; not in the file, the evidence's own severity.
/// </summary>
public class MeasuredCostsTests
{
    // Line 8: a delegate's task (no evidence: a suggestion by itself); line 9: Task.Run (evidence: a warning by itself);
    // line 10: a delegate's task the file does not name.
    private const string Source = """
        using System;
        using System.Threading.Tasks;
        namespace Shop;
        public sealed class Checkout
        {
            private readonly Func<Task<int>> _price = () => Task.FromResult(1);
            private readonly Func<Task<int>> _stock = () => Task.FromResult(2);
            public int Price() => _price().[|Result|];
            public int Tax() => Task.Run(() => 7).[|Result|];
            public int Stock() => _stock().[|Result|];
        }
        """;

    private static string Costs(string lines) =>
        "# asynccost measured costs 1\n# measured: dotnet Shop.dll (pid 42), 2026-11-29 05:50 UTC, 12 s\n# rule\tfile\tline\tmethod\tverdict\tms\tlower_ms\tper\tbasis\n" + lines;

    // An application's code (no package published): the waits are AC0006.
    private static TestOptions Listing(string path, string text) => TestOptions.Default.WithBuildProperty("AsyncCostPublishesPackage", "false") with { AdditionalFiles = [(path, text)] };

    private static async Task<ImmutableArray<Diagnostic>> Analyze(TestOptions options)
    {
        await Verify.VerifyAsync(Source, options);
        return (await Verify.GetDiagnosticsAsync(Source, options)).OrderBy(d => d.Location.SourceSpan.Start).ToImmutableArray();
    }

    [Fact]
    public async Task A_finding_measured_above_the_threshold_is_a_warning_saying_what_it_cost_and_where()
    {
        var options = Listing("/repo/artifacts/run1.costs.tsv", Costs(
            "AC0006\tTest0.cs\t8\tShop.Checkout.Price\tmeasured\t1362.4\t1171.9\tsecond\tTimeBlocked\n"
            + "AC0006\tTest0.cs\t9\tShop.Checkout.Tax\tmeasured\t0\t0\toperation\tTimeBlocked\n"));
        var diagnostics = await Analyze(options);
        Assert.Equal([DiagnosticSeverity.Warning, DiagnosticSeverity.Info, DiagnosticSeverity.Info], diagnostics.Select(d => d.Severity));
        var message = diagnostics[0].GetMessage(System.Globalization.CultureInfo.InvariantCulture);
        // Never an exponent (1.36E+03): the figure reads as the report prints it.
        Assert.Contains("measured 1362 ms per second (at least 1172 ms; TimeBlocked) in dotnet Shop.dll (pid 42), 2026-11-29 05:50 UTC, 12 s", message, StringComparison.Ordinal);
        // Measured at zero on a path that ran: a suggestion, although Task.Run is evidence of a pending task.
        Assert.Contains("measured 0 ms per operation", diagnostics[1].GetMessage(System.Globalization.CultureInfo.InvariantCulture), StringComparison.Ordinal);
        // Not in the file: its own severity and message.
        Assert.DoesNotContain("measured", diagnostics[2].GetMessage(System.Globalization.CultureInfo.InvariantCulture), StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_threshold_is_the_teams_and_a_moved_line_joins_by_method()
    {
        var options = Listing("run1.costs.tsv", Costs("AC0006\tTest0.cs\t80\tShop.Checkout.Price\tmeasured\t0.4\t0.3\toperation\tTimeBlocked\n"))
            .WithEditorConfig("asynccost.measured_cost_warning_ms", "0.25");
        var diagnostics = await Analyze(options);
        Assert.Equal(DiagnosticSeverity.Warning, diagnostics[0].Severity);
        // At the default threshold (1 ms) the same measurement decides nothing: the evidence's severity (none: a suggestion).
        var defaults = await Analyze(Listing("run1.costs.tsv", Costs("AC0006\tTest0.cs\t80\tShop.Checkout.Price\tmeasured\t0.4\t0.3\toperation\tTimeBlocked\n")));
        Assert.Equal(DiagnosticSeverity.Info, defaults[0].Severity);
        Assert.Contains("measured 0.4 ms per operation", defaults[0].GetMessage(System.Globalization.CultureInfo.InvariantCulture), StringComparison.Ordinal);
    }

    // A build never reads what it was not given, and a file that is not ours, or a malformed line, changes nothing.
    [Theory]
    [InlineData("notes.costs.tsv", "rule\tfile\nAC0006\tTest0.cs\t8\tShop.Checkout.Price\tmeasured\t16\t15\toperation\tTimeBlocked\n")]
    [InlineData("run1.costs.tsv", "# asynccost measured costs 1\nAC0006\tTest0.cs\tline eight\nAC0006\tTest0.cs\t8\tShop.Checkout.Price\tmeasured\tmany\t15\toperation\tTimeBlocked\n")]
    [InlineData("run1.json", "{}")]
    public async Task Anything_but_a_well_formed_costs_file_leaves_the_evidence_to_decide(string path, string text)
    {
        var diagnostics = await Analyze(Listing(path, text));
        Assert.Equal([DiagnosticSeverity.Info, DiagnosticSeverity.Warning, DiagnosticSeverity.Info], diagnostics.Select(d => d.Severity));
    }
}
