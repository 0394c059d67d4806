using System.Reflection;
using Microsoft.CodeAnalysis;

namespace AsyncCost.Analyzers.Tests;

/// <summary>The descriptor catalog is the one place ids, help links and release tracking agree.</summary>
public class CatalogTests
{
    private static readonly DiagnosticDescriptor[] All = typeof(Descriptors)
        .GetFields(BindingFlags.Public | BindingFlags.Static)
        .Where(f => f.FieldType == typeof(DiagnosticDescriptor))
        .Select(f => (DiagnosticDescriptor)f.GetValue(null)!)
        .ToArray();

    private static readonly string[] RuleIdValues = typeof(RuleIds)
        .GetFields(BindingFlags.Public | BindingFlags.Static)
        .Select(f => (string)f.GetRawConstantValue()!)
        .ToArray();

    [Fact]
    public void Every_rule_id_has_exactly_one_descriptor()
    {
        Assert.Equal(RuleIdValues.OrderBy(id => id), All.Select(d => d.Id).OrderBy(id => id));
    }

    [Fact]
    public void No_rule_ships_a_placeholder_help_link_and_each_has_its_page()
    {
        // No public address exists for the rule pages yet: no link beats a fake one printed on every warning.
        Assert.All(All, d => Assert.Equal(string.Empty, d.HelpLinkUri));
        Assert.All(All, d => Assert.True(File.Exists(Path.Combine(RepositoryRoot(), "docs", "rules", d.Id + ".md")), d.Id));
    }

    [Fact]
    public void Every_rule_says_what_it_costs_in_one_SARIF_tag()
    {
        Assert.All(All, d => Assert.Single(d.CustomTags, tag => tag.StartsWith(CostKindTag.Prefix, StringComparison.Ordinal)));
    }

    [Fact]
    public void Release_tracking_lists_every_rule_with_its_default_severity()
    {
        var unshipped = File.ReadAllText(Path.Combine(RepositoryRoot(), "analyzers", "AsyncCost.Analyzers", "AnalyzerReleases.Unshipped.md"));
        Assert.All(All, d => Assert.Contains($"{d.Id} | {d.Category} | {d.DefaultSeverity} |", unshipped, StringComparison.Ordinal));
    }

    [Fact]
    public void Documented_defaults_and_the_raise_all_switch_cover_every_rule()
    {
        var root = RepositoryRoot();
        var rulesReadme = File.ReadAllText(Path.Combine(root, "docs", "rules", "README.md"));
        var packageReadme = File.ReadAllText(Path.Combine(root, "analyzers", "AsyncCost.Analyzers.Package", "README.md"));
        var raiseAll = File.ReadAllText(Path.Combine(root, "analyzers", "AsyncCost.Analyzers.Package", "build", "AsyncCost.Analyzers.All.globalconfig"));
        var notAsErrors = File.ReadAllText(Path.Combine(root, "analyzers", "AsyncCost.Analyzers.Package", "build", "AsyncCost.Analyzers.targets"));
        Assert.All(All, d =>
        {
            var shown = d.DefaultSeverity == DiagnosticSeverity.Warning ? "warning" : "suggestion";
            Assert.Matches($@"\| \[{d.Id}\]\({d.Id}\.md\) \|[^|]*\| \**{shown}\** \|", rulesReadme);
            Assert.Matches($@"\| {d.Id} \|[^|]*\| {shown} \|", packageReadme);
            Assert.Contains($"dotnet_diagnostic.{d.Id}.severity = warning", raiseAll, StringComparison.Ordinal);
            Assert.Contains($";{d.Id}", notAsErrors, StringComparison.Ordinal); // kept out of warnings-as-errors on first install
        });
    }

    internal static string RepositoryRoot()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            if (File.Exists(Path.Combine(dir.FullName, "AsyncCost.sln")))
            {
                return dir.FullName;
            }
        }
        throw new InvalidOperationException("AsyncCost.sln not found above " + AppContext.BaseDirectory);
    }
}
