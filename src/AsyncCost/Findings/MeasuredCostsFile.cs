using System.Globalization;
using System.Text;
using AsyncCost.Report;

namespace AsyncCost.Findings;

/// <summary>
/// What each analyzer finding measurably cost, in the small tab-separated form the analyzer reads back when a project
/// lists it as an <c>AdditionalFiles</c> item (the analyzer is netstandard2.0 with no JSON reader, and a build must stay
/// cheap): a finding measured above the team's threshold is printed as a warning saying what it cost and where it was
/// measured; one measured at zero on a path that ran stays a suggestion. One line per finding:
/// rule, file name, line, method key, verdict, milliseconds, lower bound, per, basis. Files are named by their name alone,
/// so a file measured on one machine joins a build on another.
/// </summary>
public static class MeasuredCostsFile
{
    /// <summary>The first line, which the analyzer checks before it reads a file as this one.</summary>
    public const string Header = "# asynccost measured costs 1";

    /// <summary>What a file written beside a report (-o base) is called: &lt;base&gt;.costs.tsv.</summary>
    public const string Extension = ".costs.tsv";

    /// <summary>The file's text for ranked findings, with where they were measured on its second line.</summary>
    public static string Write(HotFindingsReport hot)
    {
        ArgumentNullException.ThrowIfNull(hot);
        var text = new StringBuilder();
        text.Append(Header).Append('\n');
        text.Append("# measured: ").Append(Where(hot)).Append('\n');
        text.Append("# rule\tfile\tline\tmethod\tverdict\tms\tlower_ms\tper\tbasis\n");
        foreach (var ranked in hot.Findings)
        {
            var finding = ranked.Finding;
            var time = ranked.Time;
            text.AppendJoin('\t',
                Clean(finding.RuleId),
                Clean(finding.FilePath is null ? "" : Path.GetFileName(finding.FilePath)),
                finding.Line?.ToString(CultureInfo.InvariantCulture) ?? "",
                Clean(finding.MethodKey ?? ""),
                ranked.Verdict switch { FindingVerdict.Measured => "measured", FindingVerdict.NotObservable => "not-observable", _ => "not-exercised" },
                Number(time.Milliseconds?.Value),
                Number(time.Milliseconds is null ? null : time.LowerBound),
                time.Per switch { TimeUnit.Operation => PassBasis.OperationNoun(hot.Measured), TimeUnit.SecondOfRecording => "second", _ => "recording" },
                Clean(time.Basis.ToString()));
            text.Append('\n');
        }
        return text.ToString();
    }

    // "dotnet WebShop.dll (pid 4242), 2026-11-29 05:50 UTC, 12 s": what a developer needs to find the run again.
    private static string Where(HotFindingsReport hot)
    {
        var source = hot.Measured.Source;
        var what = source.CommandLine ?? source.ProcessName ?? string.Join(", ", source.TraceFiles.Select(Path.GetFileName));
        var pid = source.ProcessId is { } id ? $" (pid {id.ToString(CultureInfo.InvariantCulture)})" : "";
        return Clean($"{what}{pid}, {hot.Measured.StartedAt.UtcDateTime.ToString("yyyy-MM-dd HH:mm", CultureInfo.InvariantCulture)} UTC, "
            + $"{hot.Measured.Duration.TotalSeconds.ToString("0.#", CultureInfo.InvariantCulture)} s");
    }

    private static string Number(double? value) => value?.ToString("G6", CultureInfo.InvariantCulture) ?? "";

    // Tabs and line breaks would split a field.
    private static string Clean(string value) => value.Replace('\t', ' ').Replace('\n', ' ').Replace('\r', ' ');
}
