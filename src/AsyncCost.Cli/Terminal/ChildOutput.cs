using AsyncCost.Cli.Commands;

namespace AsyncCost.Cli.Terminal;

/// <summary>
/// Where a launched command's output lines go: never this tool's stdout (that is the report, e.g. `--format json > costs.json`).
/// By default each line goes to stderr on a line of its own, clearing the status line first; with --child-output, to a file.
/// The lines are read as they come, so a chatty command never blocks on a full pipe.
/// </summary>
internal sealed class ChildOutput : IDisposable
{
    private readonly StatusLine _status;
    private readonly StreamWriter? _file;
    private readonly Lock _gate = new();
    private bool _closed;

    private ChildOutput(StatusLine status, StreamWriter? file)
    {
        _status = status;
        _file = file;
    }

    /// <exception cref="CliException">The file cannot be created (exit code 17, before anything is launched).</exception>
    public static ChildOutput Open(string? path, StatusLine status)
    {
        if (path is null)
        {
            return new ChildOutput(status, null);
        }
        try
        {
            return new ChildOutput(status, new StreamWriter(path, append: false) { AutoFlush = true });
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException)
        {
            throw new CliException(ExitCode.OutputNotWritable, $"Cannot write the command's output file: {path} ({e.Message})");
        }
    }

    /// <summary>One line of the command's stdout or stderr (called from the process's reader threads).</summary>
    public void WriteLine(string line)
    {
        if (_file is null)
        {
            _status.WriteLine(line);
            return;
        }
        lock (_gate)
        {
            // A line can still arrive while the session winds down after the command exited.
            if (!_closed)
            {
                _file.WriteLine(line);
            }
        }
    }

    public void Dispose()
    {
        lock (_gate)
        {
            _closed = true;
            _file?.Dispose();
        }
    }
}
