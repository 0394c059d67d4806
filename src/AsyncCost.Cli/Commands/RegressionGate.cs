using AsyncCost.Cli.Rendering;

namespace AsyncCost.Cli.Commands;

/// <summary>`compare --fail-on-regression`: the exit code a CI job fails on, one stderr line per regression, and optionally
/// the same as GitHub Actions annotations.</summary>
internal static class RegressionGate
{
    public static ExitCode Judge(Comparison comparison, bool githubAnnotations, TextWriter output, TextWriter error)
    {
        if (comparison.Basis == ComparisonBasis.PerSecond)
        {
            const string Message = "cannot judge a regression: the runs' operations are unknown, so they are compared per second, where a faster "
                + "run does more of everything. Give --operations N, or let each run print 'asynccost: N operations' (docs/cli.md).";
            error.WriteLine("dotnet-asynccost: " + Message);
            Annotate(githubAnnotations, output, "AsyncCost gate", Message);
            return ExitCode.NothingToJudge;
        }

        var lines = comparison.RegressionLines();
        if (lines.Count == 0)
        {
            return ExitCode.Success;
        }

        var heading = $"{Path.GetFileNameWithoutExtension(comparison.AfterName)} regressed against {Path.GetFileNameWithoutExtension(comparison.BeforeName)}";
        error.WriteLine($"dotnet-asynccost: {heading}:");
        foreach (var line in lines)
        {
            error.WriteLine("  " + line);
            Annotate(githubAnnotations, output, "AsyncCost regression", line);
        }

        return ExitCode.RegressionFound;
    }

    /// <summary>A GitHub Actions workflow command (::error title=...::message), its data escaped as the runner expects.</summary>
    private static void Annotate(bool enabled, TextWriter output, string title, string message)
    {
        if (enabled)
        {
            output.WriteLine($"::error title={Escape(title, property: true)}::{Escape(message, property: false)}");
        }
    }

    private static string Escape(string text, bool property)
    {
        var escaped = text.Replace("%", "%25", StringComparison.Ordinal).Replace("\r", "%0D", StringComparison.Ordinal).Replace("\n", "%0A", StringComparison.Ordinal);
        return property ? escaped.Replace(":", "%3A", StringComparison.Ordinal).Replace(",", "%2C", StringComparison.Ordinal) : escaped;
    }
}
