using System.Runtime.InteropServices;

namespace AsyncCost.Cli.Terminal;

/// <summary>
/// Turns Ctrl+C (SIGINT), SIGTERM and a key press into one cancellation, so a session stops cleanly and still reports
/// what it gathered. A second Ctrl+C is not intercepted: it ends the tool at once, as users expect, after the
/// <c>onForcedExit</c> clean-up (e.g. removing a report file that will never be written).
/// On a terminal the key is read raw (Enter, or 'q' for monitor); with stdin redirected a line stands for the key press,
/// so scripts and tests can stop a recording by writing a newline.
/// </summary>
internal sealed class StopSignal : IDisposable
{
    private readonly CancellationTokenSource _stop = new();
    private readonly PosixSignalRegistration[] _registrations;
    private readonly char _stopKey;
    private readonly Action? _onForcedExit;

    public StopSignal(char stopKey, Action? onForcedExit = null)
    {
        _stopKey = stopKey;
        _onForcedExit = onForcedExit;
        _registrations =
        [
            PosixSignalRegistration.Create(PosixSignal.SIGINT, OnSignal),
            PosixSignalRegistration.Create(PosixSignal.SIGTERM, OnSignal),
        ];
        var watcher = new Thread(Console.IsInputRedirected ? WatchRedirectedInput : WatchKeys) { IsBackground = true, Name = "stop-key" };
        watcher.Start();
    }

    public CancellationToken Token => _stop.Token;

    public bool IsStopRequested => _stop.IsCancellationRequested;

    /// <summary>How to stop, for the status line.</summary>
    public string Hint => _stopKey == '\n' ? "Enter or Ctrl+C to stop" : $"'{_stopKey}' or Ctrl+C to quit";

    public void Dispose()
    {
        foreach (var registration in _registrations)
        {
            registration.Dispose();
        }

        _stop.Dispose();
    }

    private void OnSignal(PosixSignalContext context)
    {
        // First signal: stop cleanly. A repeated one falls through to the default action (terminate).
        if (_stop.IsCancellationRequested)
        {
            _onForcedExit?.Invoke();
            return;
        }

        context.Cancel = true;
        Stop();
    }

    private void Stop()
    {
        try
        {
            _stop.Cancel();
        }
        catch (ObjectDisposedException)
        {
            // The command already finished.
        }
    }

    private void WatchKeys()
    {
        try
        {
            while (!_stop.IsCancellationRequested)
            {
                if (!Console.KeyAvailable)
                {
                    Thread.Sleep(100);
                    continue;
                }

                var key = Console.ReadKey(intercept: true);
                if (_stopKey == '\n' ? key.Key == ConsoleKey.Enter : char.ToUpperInvariant(key.KeyChar) == char.ToUpperInvariant(_stopKey))
                {
                    Stop();
                }
            }
        }
        catch (InvalidOperationException)
        {
            // No usable console (e.g. running in the background): Ctrl+C and SIGTERM still work.
        }
    }

    private void WatchRedirectedInput()
    {
        // End of input (stdin is /dev/null or a closed pipe) is not a request to stop.
        while (Console.In.ReadLine() is { } line)
        {
            if (_stopKey == '\n' || line.Trim().Equals(_stopKey.ToString(), StringComparison.OrdinalIgnoreCase))
            {
                Stop();
                return;
            }
        }
    }
}
