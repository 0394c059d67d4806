using AsyncCost.Cli.Rendering;
using AsyncCost.Cli.Terminal;
using AsyncCost.Findings;
using AsyncCost.Report;

namespace AsyncCost.Cli.Commands;

/// <summary>
/// Where a report goes: always stdout, and with -o also a file. -o names a base path: the report is written to
/// "&lt;base&gt;.&lt;format extension&gt;" and a collected trace to "&lt;base&gt;.nettrace" (one file per pass:
/// "&lt;base&gt;.allocations.nettrace", "&lt;base&gt;.hops.nettrace"). An existing directory is a place, not a name: the
/// files go inside it as "&lt;dir&gt;/asynccost.*". The report file is created before recording starts, so an
/// unwritable path fails at once instead of after a long session. Beside a report in a text format, -o also keeps
/// "&lt;base&gt;.json", so a run can be compared with another later ('compare'). A report file that was never
/// completed (nothing gathered, or a second Ctrl+C) is deleted rather than left empty.
/// With --sarif findings, each format shows them ranked by the measured costs.
/// </summary>
internal sealed class ReportOutput : IDisposable
{
    private static readonly string[] KnownExtensions = [ReportWriter.SpeedscopeExtension, ".nettrace", ".txt", ".md", ".json", ".csv", ".html"];

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
    public string? TracePath => BasePath is null ? null : BasePath + ".nettrace";

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

        var extension = KnownExtensions.FirstOrDefault(e => fullPath.EndsWith(e, StringComparison.OrdinalIgnoreCase));
        var basePath = extension is null ? fullPath : fullPath[..^extension.Length];
        var reportPath = basePath + ReportWriter.FileExtension(view.Format);
        try
        {
            var output = new ReportOutput(view, basePath, new FileStream(reportPath, FileMode.Create, FileAccess.Write, FileShare.Read), findings);
            RemoveEarlierReports(basePath, view.Format);
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
    private static void RemoveEarlierReports(string basePath, ReportFormat format)
    {
        foreach (var other in Enum.GetValues<ReportFormat>().Where(f => f != format))
        {
            File.Delete(basePath + ReportWriter.FileExtension(other));
        }
    }

    /// <summary>Writes the report (for the speedscope format: the cpu pass's stacks) to stdout and to the -o file.</summary>
    public void Write(AsyncCostReport report, StackProfile? stacks = null)
    {
        var hot = _findings is null ? null : HotFindingsRanker.Rank(_findings, report);
        ReportWriter.Write(report, hot, _view, Console.Out, isTerminal: !Console.IsOutputRedirected, stacks, OutputWidth.StandardOutput(_view.Wide));
        lock (_gate)
        {
            if (_file is not null)
            {
                using (var writer = new StreamWriter(_file))
                {
                    ReportWriter.Write(report, hot, _view, writer, isTerminal: false, stacks);
                }

                _file = null;
                if (_view.Format != ReportFormat.Json)
                {
                    using var json = new StreamWriter(BasePath + ReportWriter.FileExtension(ReportFormat.Json));
                    ReportWriter.Write(report, hot, new ReportView(ReportFormat.Json), json, isTerminal: false);
                }
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
