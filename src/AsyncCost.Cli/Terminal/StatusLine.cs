using System.Globalization;
using AsyncCost.Sessions;

namespace AsyncCost.Cli.Terminal;

/// <summary>
/// The one status line shown while recording, on stderr so stdout stays the report: rewritten in place on a terminal,
/// a plain line every few seconds (and at each new pass) when stderr is redirected to a file or pipe.
/// </summary>
internal sealed class StatusLine : IProgress<SessionProgress>
{
    private static readonly TimeSpan RedirectedInterval = TimeSpan.FromSeconds(5);

    private readonly TextWriter _writer;
    private readonly bool _inPlace;
    private readonly string _hint;
    private readonly Lock _gate = new();
    private SessionProgress? _lastWritten;
    private bool _lineOpen;

    public StatusLine(TextWriter writer, bool inPlace, string hint)
    {
        _writer = writer;
        _inPlace = inPlace;
        _hint = hint;
    }

    /// <summary>The status line on this process's stderr, in place when stderr is a terminal.</summary>
    public static StatusLine ForStandardError(string hint) => new(Console.Error, !Console.IsErrorRedirected, hint);

    public void Report(SessionProgress value)
    {
        lock (_gate)
        {
            if (_inPlace)
            {
                var text = Format(value) + "  (" + _hint + ")";
                var width = SafeWindowWidth();
                if (text.Length >= width)
                {
                    text = text[..(width - 1)];
                }

                // \r returns to column 0; ESC[K clears what a longer previous line left behind.
                _writer.Write("\r" + text + "\u001b[K");
                _lineOpen = true;
            }
            else if (_lastWritten is null || _lastWritten.PassNumber != value.PassNumber || value.Elapsed - _lastWritten.Elapsed >= RedirectedInterval)
            {
                _writer.WriteLine(Format(value));
                _lastWritten = value;
            }

            _writer.Flush();
        }
    }

    /// <summary>A message on its own line (e.g. "Attached to ..."), leaving the status line intact below it.</summary>
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
        var megabytes = (progress.Bytes / (1024.0 * 1024.0)).ToString("0.0", CultureInfo.InvariantCulture);
        return string.Create(CultureInfo.InvariantCulture, $"Recording pass {progress.PassNumber}/{progress.PassCount} ({pass})  {elapsed}  {progress.Events:N0} events  {megabytes} MB");
    }

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
