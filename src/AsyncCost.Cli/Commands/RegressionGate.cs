using AsyncCost.Cli.Rendering;
using AsyncCost.Cli.Terminal;

namespace AsyncCost.Cli.Commands;

/// <summary>Where a gate's failures are also written as CI annotations (--annotations).</summary>
internal enum AnnotationStyle
{
    /// <summary>None: stderr only.</summary>
    None,

    /// <summary>GitHub Actions workflow commands (::error title=...::message).</summary>
    GitHub,

    /// <summary>Azure Pipelines logging commands (##vso[task.logissue type=error]message).</summary>
    Azure,
}

/// <summary>`compare --fail-on-regression`: the exit code a CI job fails on, one stderr line per regression, and optionally
/// the same as GitHub Actions or Azure Pipelines annotations. The stderr lines fit <c>width</c>; an annotation stays one
/// line, as the runner reads it.</summary>
internal static class RegressionGate
{
    private const string Indent = "  ";

    public static ExitCode Judge(Comparison comparison, AnnotationStyle annotations, TextWriter output, TextWriter error, int width)
    {
        if (comparison.Basis == ComparisonBasis.PerSecond)
        {
            const string Message = "cannot judge a regression: the runs' operations are unknown, so they are compared per second, where a faster "
                + "run does more of everything. Give --operations N, or let each run print 'asynccost: N operations' (docs/cli.md).";
            error.WriteLine(ErrorOutput.Fit("dotnet-asynccost: " + Message, width));
            Annotate(annotations, output, "AsyncCost gate", Message);
            return ExitCode.NothingToJudge;
        }

        if (comparison.SameReport)
        {
            var same = $"cannot judge a regression: {comparison.BeforeName} and {comparison.AfterName} are the same report, and a run compared with itself "
                + "passes any gate. Give the report of the other run.";
            error.WriteLine(ErrorOutput.Fit("dotnet-asynccost: " + same, width));
            Annotate(annotations, output, "AsyncCost gate", same);
            return ExitCode.NothingToJudge;
        }

        if (comparison.UnheldLimits.Count > 0)
        {
            var message = $"cannot hold {Path.GetFileNameWithoutExtension(comparison.AfterName)} to {Path.GetFileNameWithoutExtension(comparison.BeforeName)}: "
                + string.Join("; ", comparison.UnheldLimits.Select(f => $"the budget limits {f.Name}, " + (f.Unmeasured
                    ?? "which the run has no figure for (the pass that measures it did not run: collect runs allocations and hops unless --passes says otherwise)")))
                + ".";
            error.WriteLine(ErrorOutput.Fit("dotnet-asynccost: " + message, width));
            Annotate(annotations, output, "AsyncCost gate", message);
            return ExitCode.NothingToJudge;
        }

        var lines = comparison.RegressionLines();
        if (lines.Count == 0)
        {
            return ExitCode.Success;
        }

        var heading = $"{Path.GetFileNameWithoutExtension(comparison.AfterName)} regressed against {Path.GetFileNameWithoutExtension(comparison.BeforeName)}";
        error.WriteLine(ErrorOutput.Fit($"dotnet-asynccost: {heading}:", width));
        foreach (var line in lines)
        {
            // Each regression under the heading, its own later lines indented under it.
            error.WriteLine(string.Join(Environment.NewLine, ErrorOutput.Fit(line, width - Indent.Length).Split(Environment.NewLine).Select(l => Indent + l)));
            Annotate(annotations, output, "AsyncCost regression", line);
        }

        return ExitCode.RegressionFound;
    }

    /// <summary>One failure as the CI's annotation: a GitHub Actions workflow command (::error title=...::message) or an Azure
    /// Pipelines logging command (##vso[task.logissue type=error]title: message), its data escaped as each runner expects.</summary>
    private static void Annotate(AnnotationStyle style, TextWriter output, string title, string message)
    {
        switch (style)
        {
            case AnnotationStyle.GitHub:
                output.WriteLine($"::error title={GitHubEscape(title, property: true)}::{GitHubEscape(message, property: false)}");
                break;
            case AnnotationStyle.Azure:
                output.WriteLine($"##vso[task.logissue type=error]{AzureEscape(title + ": " + message)}");
                break;
        }
    }

    private static string GitHubEscape(string text, bool property)
    {
        var escaped = text.Replace("%", "%25", StringComparison.Ordinal).Replace("\r", "%0D", StringComparison.Ordinal).Replace("\n", "%0A", StringComparison.Ordinal);
        return property ? escaped.Replace(":", "%3A", StringComparison.Ordinal).Replace(",", "%2C", StringComparison.Ordinal) : escaped;
    }

    // Azure Pipelines reads %AZP25 as '%', and %0D, %0A as line breaks, in a logging command's message.
    private static string AzureEscape(string text) =>
        text.Replace("%", "%AZP25", StringComparison.Ordinal).Replace("\r", "%0D", StringComparison.Ordinal).Replace("\n", "%0A", StringComparison.Ordinal);
}
