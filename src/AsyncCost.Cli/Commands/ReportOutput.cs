using AsyncCost.Cli.Rendering;
using AsyncCost.Cli.Terminal;
using AsyncCost.Findings;
using AsyncCost.Report;

namespace AsyncCost.Cli.Commands;

/// <summary>
/// Where a report goes: to stdout, or with -o to a file instead (never both: a file is not also printed).
/// -o names the report file when it ends in a report's extension (.txt, .md, .json, .csv, .html, .speedscope.json):
/// the report is written to exactly that file, whatever --format. Otherwise -o is a base name and the report goes to
/// "&lt;base&gt;.&lt;format extension&gt;". Either way the base (the name without its extension) names what else is kept:
/// a collected trace as "&lt;base&gt;.nettrace" (one file per pass: "&lt;base&gt;.allocations.nettrace", …) and, beside a
/// report in another format than JSON, "&lt;base&gt;.json" for 'compare' ("&lt;base&gt;.report.json" when the report file
/// itself took that name: a flame graph written as flame.json). An existing directory is a place, not a name: the
/// files go inside it as "&lt;dir&gt;/asynccost.*". The report file is created before recording starts, so an
/// unwritable path fails at once instead of after a long session. A report file that was never completed (nothing
/// gathered, or a second Ctrl+C) is deleted rather than left empty. With --sarif findings, each format shows them
/// ranked by the measured costs, and "&lt;base&gt;.costs.tsv" keeps what each cost for the analyzer (docs/rules/README.md).
/// </summary>
internal sealed class ReportOutput : IDisposable
{
    /// <summary>The extensions that make -o a report file's own name (the longest first: .speedscope.json before .json).</summary>
    private static readonly string[] ReportExtensions = [ReportWriter.SpeedscopeExtension, ".txt", ".md", ".json", ".csv", ".html"];

    private const string TraceExtension = ".nettrace";

    /// <summary>The JSON for 'compare' when the report file itself is &lt;base&gt;.json (a flame graph named flame.json).</summary>
    private const string CompareJsonSuffix = ".report.json";

    /// <summary>The base name of the files -o writes inside an existing directory.</summary>
    public const string NameInDirectory = "asynccost";

    private readonly Lock _gate = new();

    private readonly ReportView _view;
    private readonly IReadOnlyList<AnalyzerFinding>? _findings;
    private FileStream? _file;
    private bool _written;

    private ReportOutput(ReportView view, string? basePath, FileStream? file, IReadOnlyList<AnalyzerFinding>? findings)
    {
        _view = view;
        _findings = findings;
        BasePath = basePath;
        _file = file;
        ReportPath = file?.Name;
    }

    public string? BasePath { get; }

    public string? ReportPath { get; }

    /// <summary>The .nettrace path for the library, when -o was given.</summary>
    public string? TracePath => BasePath is null ? null : BasePath + TraceExtension;

    /// <exception cref="CliException">The report file cannot be created.</exception>
    public static ReportOutput Open(ReportView view, string? outputOption, IReadOnlyList<AnalyzerFinding>? findings = null)
    {
        if (outputOption is null)
        {
            return new ReportOutput(view, null, null, findings);
        }

        var fullPath = Path.GetFullPath(outputOption);
        if (Directory.Exists(fullPath))
        {
            fullPath = Path.Combine(fullPath, NameInDirectory);
        }

        var reportExtension = ReportExtensions.FirstOrDefault(e => fullPath.EndsWith(e, StringComparison.OrdinalIgnoreCase));
        string basePath, reportPath;
        if (reportExtension is not null)
        {
            basePath = fullPath[..^reportExtension.Length];
            reportPath = fullPath;
        }
        else
        {
            basePath = fullPath.EndsWith(TraceExtension, StringComparison.OrdinalIgnoreCase) ? fullPath[..^TraceExtension.Length] : fullPath;
            reportPath = basePath + ReportWriter.FileExtension(view.Format);
        }

        try
        {
            var output = new ReportOutput(view, basePath, new FileStream(reportPath, FileMode.Create, FileAccess.Write, FileShare.Read), findings);
            RemoveEarlierReports(basePath, reportPath);
            return output;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw new CliException(ExitCode.OutputNotWritable, $"Cannot write output file: {reportPath} ({e.Message})");
        }
    }

    /// <summary>An -o reused (a folder's asynccost.*, or the same base name) must not leave an earlier run's report in another
    /// format beside this run's, where it would read as this run's. The JSON kept beside a text report is written again once
    /// this run has a report; until then, none is better than the last run's.</summary>
    private static void RemoveEarlierReports(string basePath, string reportPath)
    {
        foreach (var other in Enum.GetValues<ReportFormat>().Select(f => basePath + ReportWriter.FileExtension(f)).Append(basePath + CompareJsonSuffix).Append(basePath + MeasuredCostsFile.Extension))
        {
            if (!string.Equals(other, reportPath, StringComparison.Ordinal))
            {
                File.Delete(other);
            }
        }
    }

    /// <summary>Where the JSON report for 'compare' goes beside a report in another format.</summary>
    private string? CompareJsonPath()
    {
        if (_view.Format == ReportFormat.Json || BasePath is null)
        {
            return null;
        }

        var json = BasePath + ReportWriter.FileExtension(ReportFormat.Json);
        return string.Equals(json, ReportPath, StringComparison.Ordinal) ? BasePath + CompareJsonSuffix : json;
    }

    /// <summary>Writes the report (for the speedscope format: the cpu pass's stacks) to the -o file, or to stdout without -o,
    /// and says on stderr which files it wrote.</summary>
    public void Write(AsyncCostReport report, StackProfile? stacks = null)
    {
        if (_findings is not null && HotFindingsRanker.NoneInTrace(_findings, report) is { } unmatched)
        {
            ErrorOutput.WriteLine("dotnet-asynccost: warning: " + unmatched.Message);
            report = report with { Warnings = [.. report.Warnings, unmatched] };
        }

        var hot = _findings is null ? null : HotFindingsRanker.Rank(_findings, report);
        lock (_gate)
        {
            if (ReportPath is null)
            {
                ReportWriter.Write(report, hot, _view, Console.Out, isTerminal: !Console.IsOutputRedirected, stacks, OutputWidth.StandardOutput(_view.Wide));
            }
            else if (_file is not null)
            {
                using (var writer = new StreamWriter(_file))
                {
                    ReportWriter.Write(report, hot, _view, writer, isTerminal: false, stacks);
                }

                _file = null;
                var jsonPath = CompareJsonPath();
                if (jsonPath is not null)
                {
                    using var json = new StreamWriter(jsonPath);
                    ReportWriter.Write(report, hot, new ReportView(ReportFormat.Json), json, isTerminal: false);
                }

                // The findings' measured costs, for the analyzer: a project lists the file as an AdditionalFiles item.
                var costsPath = hot is null ? null : BasePath + MeasuredCostsFile.Extension;
                if (costsPath is not null)
                {
                    File.WriteAllText(costsPath, MeasuredCostsFile.Write(hot!));
                }

                ErrorOutput.WriteLine($"Report written to {ReportPath}" + (jsonPath is null ? "" : $" (for 'compare': {Path.GetFileName(jsonPath)})")
                    + (costsPath is null ? "" : $"; the findings' measured costs for the analyzer: {Path.GetFileName(costsPath)}"));
            }

            _written = true;
        }
    }

    /// <summary>Deletes the report file unless a report was written to it: the tool is ending without one.</summary>
    public void DiscardUnwritten()
    {
        // Not under the lock: a second Ctrl+C while the report is being written must not wait for the write.
        if (_file is { } file && !_written)
        {
            File.Delete(file.Name);
        }
    }

    public void Dispose()
    {
        lock (_gate)
        {
            // Nothing was gathered: don't leave an empty report file behind.
            if (_file is not null && !_written)
            {
                var path = _file.Name;
                _file.Dispose();
                _file = null;
                File.Delete(path);
            }
        }
    }
}
