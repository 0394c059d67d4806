using AsyncCost.Cli.Rendering;
using AsyncCost.Report;

namespace AsyncCost.Cli.Commands;

/// <summary>
/// Where a report goes: always stdout, and with -o also a file. -o names a base path: the report is written to
/// "&lt;base&gt;.&lt;format extension&gt;" and a collected trace to "&lt;base&gt;.nettrace" (one file per pass:
/// "&lt;base&gt;.allocations.nettrace", "&lt;base&gt;.hops.nettrace"). The report file is created before recording starts,
/// so an unwritable path fails at once instead of after a long session.
/// </summary>
internal sealed class ReportOutput : IDisposable
{
    private static readonly string[] KnownExtensions = [".nettrace", ".txt", ".md", ".json", ".csv"];

    private readonly ReportFormat _format;
    private FileStream? _file;
    private bool _written;

    private ReportOutput(ReportFormat format, string? basePath, FileStream? file)
    {
        _format = format;
        BasePath = basePath;
        _file = file;
        ReportPath = file?.Name;
    }

    public string? BasePath { get; }

    public string? ReportPath { get; }

    /// <summary>The .nettrace path for the library, when -o was given.</summary>
    public string? TracePath => BasePath is null ? null : BasePath + ".nettrace";

    /// <exception cref="CliException">The report file cannot be created.</exception>
    public static ReportOutput Open(ReportFormat format, string? outputOption)
    {
        if (outputOption is null)
        {
            return new ReportOutput(format, null, null);
        }

        var fullPath = Path.GetFullPath(outputOption);
        var extension = Path.GetExtension(fullPath);
        var basePath = KnownExtensions.Contains(extension, StringComparer.OrdinalIgnoreCase) ? fullPath[..^extension.Length] : fullPath;
        var reportPath = basePath + ReportWriter.FileExtension(format);
        try
        {
            return new ReportOutput(format, basePath, new FileStream(reportPath, FileMode.Create, FileAccess.Write, FileShare.Read));
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw new CliException(ExitCode.OutputNotWritable, $"Cannot write output file: {reportPath} ({e.Message})");
        }
    }

    /// <summary>Writes the report to stdout and to the -o file.</summary>
    public void Write(AsyncCostReport report)
    {
        ReportWriter.Write(report, _format, Console.Out, isTerminal: !Console.IsOutputRedirected);
        if (_file is not null)
        {
            using var writer = new StreamWriter(_file);
            ReportWriter.Write(report, _format, writer, isTerminal: false);
            _file = null;
        }

        _written = true;
    }

    public void Dispose()
    {
        // Nothing was gathered: don't leave an empty report file behind.
        if (_file is not null && !_written)
        {
            var path = _file.Name;
            _file.Dispose();
            File.Delete(path);
        }
    }
}
