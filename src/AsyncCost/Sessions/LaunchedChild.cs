using System.ComponentModel;
using System.Diagnostics;
using AsyncCost.Os;
using Microsoft.Diagnostics.NETCore.Client;

namespace AsyncCost.Sessions;

/// <summary>A command launched suspended on its diagnostic port: starting it, finding the runtime it starts, resuming it, ending it.</summary>
internal static class LaunchedChild
{
    /// <summary>The runtime knob that makes the default diagnostic port wait for a ResumeRuntime command at start-up.</summary>
    private const string SuspendVariable = "DOTNET_DefaultDiagnosticPortSuspend";

    /// <param name="command">What to launch.</param>
    /// <param name="observeLine">Sees each line of redirected output before the command's own handler (the printed operation count).</param>
    internal static Process Start(LaunchCommand command, Action<string>? observeLine = null)
    {
        var start = new ProcessStartInfo(command.FileName)
        {
            UseShellExecute = false,
            RedirectStandardOutput = command.StandardOutput is not null,
            RedirectStandardError = command.StandardError is not null,
            WorkingDirectory = command.WorkingDirectory ?? Environment.CurrentDirectory,
        };
        foreach (var argument in command.Arguments)
        {
            start.ArgumentList.Add(argument);
        }
        foreach (var (name, value) in command.Environment)
        {
            start.Environment[name] = value;
        }
        start.Environment[SuspendVariable] = "1";
        var child = new Process { StartInfo = start };
        // Drain redirected output continuously: a child blocked on a full pipe never exits (diagnostics#1900).
        if (command.StandardOutput is { } stdout)
        {
            child.OutputDataReceived += (_, e) => { if (e.Data is not null) { observeLine?.Invoke(e.Data); stdout(e.Data); } };
        }
        if (command.StandardError is { } stderr)
        {
            child.ErrorDataReceived += (_, e) => { if (e.Data is not null) { observeLine?.Invoke(e.Data); stderr(e.Data); } };
        }
        try
        {
            child.Start();
        }
        catch (Win32Exception e)
        {
            child.Dispose();
            throw new CommandNotFoundException(command.FileName, e);
        }
        if (start.RedirectStandardOutput)
        {
            child.BeginOutputReadLine();
        }
        if (start.RedirectStandardError)
        {
            child.BeginErrorReadLine();
        }
        return child;
    }

    /// <summary>
    /// `dotnet app.dll` with no such file: the muxer would hand "app.dll" to the SDK as a command, and the SDK's own runtime
    /// (not the app) would be measured until it gave up. Refused before anything starts.
    /// </summary>
    internal static void EnsureAppExists(LaunchCommand command)
    {
        if (Path.GetFileNameWithoutExtension(command.FileName) != "dotnet" || command.Arguments.Count == 0
            || !command.Arguments[0].EndsWith(".dll", StringComparison.OrdinalIgnoreCase))
        {
            return;
        }
        var app = Path.Combine(command.WorkingDirectory ?? Environment.CurrentDirectory, command.Arguments[0]);
        if (!File.Exists(app))
        {
            throw new CommandNotFoundException(command.Arguments[0], why: $"{command.Arguments[0]} does not exist ({Path.GetFullPath(app)}): "
                + "'dotnet' was given an app that is not there, so nothing was launched.");
        }
    }

    /// <summary>Lets a child whose stream ended finish exiting (the runtime closes EventPipe before the process is gone).
    /// A child still running (recording stopped early, or it did not exit in time) is asked to stop with SIGTERM, so its
    /// runtime removes its diagnostic socket and debugger pipes, and killed with what it started if it does not; whatever a
    /// killed runtime left in the temp directory is removed.</summary>
    internal static async Task EndAsync(Process child, int? runtimeProcess, bool waitForExit)
    {
        if (waitForExit && await ExitsWithinAsync(child, TimeSpan.FromSeconds(10)).ConfigureAwait(false))
        {
            return;
        }
        if (!child.HasExited)
        {
            Signals.Terminate(runtimeProcess ?? child.Id);
            if (runtimeProcess is { } runtime && runtime != child.Id)
            {
                Signals.Terminate(child.Id);
            }
            if (!await ExitsWithinAsync(child, TimeSpan.FromSeconds(3)).ConfigureAwait(false))
            {
                child.Kill(entireProcessTree: true);
            }
        }
        await child.WaitForExitAsync(CancellationToken.None).ConfigureAwait(false);
        DiagnosticEndpoints.RemoveLeftovers(runtimeProcess ?? child.Id);
    }

    private static async Task<bool> ExitsWithinAsync(Process child, TimeSpan timeout)
    {
        using var grace = new CancellationTokenSource(timeout);
        try
        {
            await child.WaitForExitAsync(grace.Token).ConfigureAwait(false);
            return true;
        }
        catch (OperationCanceledException)
        {
            return false;
        }
    }

    /// <summary>Waits until the child (or, for a launcher script, its first .NET descendant) publishes its diagnostics endpoint.</summary>
    // ValueTask (AC0002): the endpoint is usually published by the first poll, and the one caller awaits once.
    internal static async ValueTask<int> WaitForRuntimeAsync(Process child, TimeSpan timeout, CancellationToken cancellationToken)
    {
        var clock = Stopwatch.StartNew();
        while (true)
        {
            cancellationToken.ThrowIfCancellationRequested();
            foreach (var published in DiagnosticEndpoints.Published())
            {
                if (IsSelfOrDescendant(published, child.Id))
                {
                    return published;
                }
            }
            if (child.HasExited)
            {
                throw new NotDotNetProcessException(
                    $"{child.StartInfo.FileName} exited with code {child.ExitCode} before a .NET runtime started in it: nothing was measured.")
                { CommandExitCode = child.ExitCode };
            }
            if (clock.Elapsed > timeout)
            {
                throw new NotDotNetProcessException($"{child.StartInfo.FileName} did not start a .NET runtime within {timeout.TotalSeconds:0} s.");
            }
            await Task.Delay(20, cancellationToken).ConfigureAwait(false);
        }
    }

    private static bool IsSelfOrDescendant(int processId, int ancestor)
    {
        for (var (current, depth) = (processId, 0); depth < 8; depth++)
        {
            if (current == ancestor)
            {
                return true;
            }
            if (ProcFs.ParentOf(current) is not { } parent || parent <= 1)
            {
                return false;
            }
            current = parent;
        }
        return false;
    }

    /// <summary>Lets the suspended runtime run, after telling it not to pass the suspension on to processes it starts (diagnostics#5501).</summary>
    internal static void Resume(DiagnosticsClient client)
    {
        try
        {
            client.SetEnvironmentVariable(SuspendVariable, "0");
        }
        catch (Exception e) when (e is ServerErrorException or UnsupportedCommandException)
        {
            // Older runtimes lack the command: grandchildren would still inherit the suspension.
        }
        client.ResumeRuntime();
    }
}
