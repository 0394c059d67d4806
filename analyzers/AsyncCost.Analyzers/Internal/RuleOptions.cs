using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;

namespace AsyncCost.Analyzers.Internal;

/// <summary>Reads the rules' .editorconfig options (<c>asynccost.ACxxxx.name = value</c>) and MSBuild properties.</summary>
internal static class RuleOptions
{
    /// <summary>The value of <c>asynccost.{ruleId}.{name}</c> for the file, or null when not set.</summary>
    public static string? Get(AnalyzerOptions options, SyntaxTree tree, string ruleId, string name)
    {
        var key = "asynccost." + ruleId + "." + name;
        return options.AnalyzerConfigOptionsProvider.GetOptions(tree).TryGetValue(key, out var value)
            ? value.Trim()
            : null;
    }

    /// <summary>An MSBuild property made visible to the compiler by the package's build props (CompilerVisibleProperty).</summary>
    public static string? BuildProperty(AnalyzerOptions options, string name) =>
        options.AnalyzerConfigOptionsProvider.GlobalOptions.TryGetValue("build_property." + name, out var value) && value.Length > 0
            ? value
            : null;
}
