using System.Globalization;
using AsyncCost.Cli.Rendering;
using AsyncCost.Sessions;

namespace AsyncCost.Cli.Terminal;

/// <summary>
/// The one status line shown while recording or reading saved traces, on stderr so stdout stays the report: rewritten in place on a terminal,
/// a plain line every few seconds (and at each new pass or trace) when stderr is redirected to a file or pipe.
/// </summary>
internal sealed class StatusLine : IProgress<SessionProgress>, IProgress<TraceReadProgress>
{
    private static readonly TimeSpan RedirectedInterval = TimeSpan.FromSeconds(5);
    private static readonly TimeSpan ReadingShownAfter = TimeSpan.FromSeconds(1);

    private readonly TextWriter _writer;
    private readonly bool _inPlace;
    private readonly string _hint;
    private readonly Lock _gate = new();
    private string? _lastStage;
    private TimeSpan _lastWrittenAt;
    private bool _lineOpen;

    public StatusLine(TextWriter writer, bool inPlace, string hint)
    {
        _writer = writer;
        _inPlace = inPlace;
        _hint = hint;
    }

    /// <summary>The status line on this process's stderr, in place when stderr is a terminal.</summary>
    public static StatusLine ForStandardError(string hint) => new(Console.Error, !Console.IsErrorRedirected, hint);

    public void Report(SessionProgress value) =>
        Show(Format(value), value.Elapsed, $"pass {value.PassNumber}");

    /// <summary>Reading saved traces: shown only once the reading has taken a second, so quick reads stay silent.</summary>
    public void Report(TraceReadProgress value)
    {
        if (value.Elapsed >= ReadingShownAfter)
        {
            Show(Format(value), value.Elapsed, $"file {value.FileNumber}");
        }
    }

    /// <param name="text">The status text.</param>
    /// <param name="elapsed">Time since the work began.</param>
    /// <param name="stage">What is being worked on (a new stage gets a new line when redirected).</param>
    private void Show(string text, TimeSpan elapsed, string stage)
    {
        lock (_gate)
        {
            if (_inPlace)
            {
                text += "  (" + _hint + ")";
                var width = SafeWindowWidth();
                if (text.Length >= width)
                {
                    text = text[..(width - 1)];
                }

                // \r returns to column 0; ESC[K clears what a longer previous line left behind.
                _writer.Write("\r" + text + "\u001b[K");
                _lineOpen = true;
            }
            else if (_lastStage != stage || elapsed - _lastWrittenAt >= RedirectedInterval)
            {
                _writer.WriteLine(text);
                (_lastStage, _lastWrittenAt) = (stage, elapsed);
            }

            _writer.Flush();
        }
    }

    /// <summary>The tool's own message (e.g. "Attaching to ..."), fitted to stderr's width, on its own lines.</summary>
    public void WriteMessage(string message) => WriteLine(ErrorOutput.Fit(message, ErrorOutput.Width));

    /// <summary>A line as it is (a launched command's output) on its own line, leaving the status line intact below it.</summary>
    public void WriteLine(string message)
    {
        lock (_gate)
        {
            EndLine();
            _writer.WriteLine(message);
            _writer.Flush();
        }
    }

    /// <summary>Ends the in-place line so what follows starts on a fresh line.</summary>
    public void Finish()
    {
        lock (_gate)
        {
            EndLine();
            _writer.Flush();
        }
    }

    internal static string Format(SessionProgress progress)
    {
        var pass = progress.Pass.ToString().ToLowerInvariant();
        var elapsed = progress.Elapsed.ToString(@"hh\:mm\:ss", CultureInfo.InvariantCulture);
        // Parsing more than a chunk behind the stream (event-heavy code, or the backlog after the stop): say how far it has got.
        var behind = progress.BytesReceived - progress.Bytes > (1 << 20);
        var size = behind ? $"{Megabytes(progress.Bytes)}/{Megabytes(progress.BytesReceived)} MB read" : $"{Megabytes(progress.BytesReceived)} MB";
        return string.Create(CultureInfo.InvariantCulture, $"Recording pass {progress.PassNumber}/{progress.PassCount} ({pass})  {elapsed}  {progress.Events:N0} events  {size}");
    }

    internal static string Format(TraceReadProgress progress)
    {
        var elapsed = progress.Elapsed.ToString(@"hh\:mm\:ss", CultureInfo.InvariantCulture);
        var percent = progress.FileBytes > 0 ? 100 * progress.BytesRead / progress.FileBytes : 100;
        var figures = string.Create(CultureInfo.InvariantCulture,
            $" ({progress.FileNumber}/{progress.FileCount})  {elapsed}  {progress.Events:N0} events  {percent} % of {Megabytes(progress.FileBytes)} MB");
        const string reading = "Reading ";
        // A long file name is shortened in the middle, so the line fits a redirected stderr's 80 columns.
        return reading + ConsoleTableWriter.ShortenMiddle(Path.GetFileName(progress.File), Math.Max(12, LineWidth - reading.Length - figures.Length)) + figures;
    }

    /// <summary>The widest line written when stderr is redirected (a terminal's line is cut to its width).</summary>
    internal const int LineWidth = 80;

    // A tenth only while it says something (under 100 MB), so the widest line still fits 80 columns.
    private static string Megabytes(long bytes) => (bytes / (1024.0 * 1024.0)) is var megabytes && megabytes < 100
        ? megabytes.ToString("0.0", CultureInfo.InvariantCulture)
        : megabytes.ToString("0", CultureInfo.InvariantCulture);

    private void EndLine()
    {
        if (_lineOpen)
        {
            _writer.Write("\r\u001b[K");
            _lineOpen = false;
        }
    }

    private static int SafeWindowWidth()
    {
        try
        {
            return Console.WindowWidth > 10 ? Console.WindowWidth : 80;
        }
        catch (IOException)
        {
            return 80;
        }
    }
}
