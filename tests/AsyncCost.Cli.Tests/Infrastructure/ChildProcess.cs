using System.Diagnostics;
using System.Text;

namespace AsyncCost.Cli.Tests.Infrastructure;

/// <summary>What a finished child process left behind.</summary>
internal sealed record ProcessResult(int ExitCode, string StandardOutput, string StandardError)
{
    public IReadOnlyList<string> ErrorLines => StandardError.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);

    public override string ToString() => $"exit {ExitCode}\n--- stdout\n{StandardOutput}\n--- stderr\n{StandardError}";
}

/// <summary>
/// A real child process with stdin, stdout and stderr redirected (stdin stays open until disposed, so "Enter" can be sent).
/// Waits are bounded by a generous timeout that only guards against hangs; nothing is asserted about time.
/// </summary>
internal sealed class ChildProcess : IDisposable
{
    public static readonly TimeSpan HangGuard = TimeSpan.FromMinutes(2);

    private readonly Process _process;
    private readonly StringBuilder _stdout = new();
    private readonly StringBuilder _stderr = new();
    private readonly List<(Func<string, bool> Match, TaskCompletionSource<string> Seen)> _watches = [];
    private readonly Lock _gate = new();

    private ChildProcess(Process process)
    {
        _process = process;
        _process.OutputDataReceived += (_, e) => OnLine(_stdout, e.Data);
        _process.ErrorDataReceived += (_, e) => OnLine(_stderr, e.Data);
        _process.BeginOutputReadLine();
        _process.BeginErrorReadLine();
    }

    public int Id => _process.Id;

    public bool HasExited => _process.HasExited;

    public string IdText => Id.ToString(System.Globalization.CultureInfo.InvariantCulture);

    /// <summary>Starts the tool's build output: dotnet dotnet-asynccost.dll args.</summary>
    public static ChildProcess StartTool(params string[] args) => Start("dotnet", [Repository.ToolDll, .. args]);

    /// <summary>Starts the ground-truth workload: dotnet AsyncCost.Workload.dll args.</summary>
    public static ChildProcess StartWorkload(IReadOnlyDictionary<string, string>? environment, params string[] args) =>
        Start("dotnet", [Repository.WorkloadDll, .. args], environment);

    /// <summary>Starts the workload's endless Task.Yield loop and waits until it runs (its first RESULT line); <see cref="StopLoopAsync"/> ends it.</summary>
    public static async Task<ChildProcess> StartYieldLoopAsync()
    {
        var workload = StartWorkload(null, "yield", "100000", "--loop");
        await workload.WaitForLineAsync(l => l.StartsWith("RESULT", StringComparison.Ordinal));
        return workload;
    }

    /// <summary>Ends a looping workload the way it expects (end of its input) and waits for it.</summary>
    public async Task<ProcessResult> StopLoopAsync()
    {
        CloseInput();
        return await WaitForExitAsync();
    }

    public static ChildProcess Start(string fileName, IReadOnlyList<string> args, IReadOnlyDictionary<string, string>? environment = null)
    {
        var info = new ProcessStartInfo(fileName)
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var arg in args)
        {
            info.ArgumentList.Add(arg);
        }

        foreach (var (name, value) in environment ?? new Dictionary<string, string>())
        {
            info.Environment[name] = value;
        }

        return new ChildProcess(Process.Start(info) ?? throw new InvalidOperationException("Could not start " + fileName));
    }

    /// <summary>Runs the tool to completion.</summary>
    public static async Task<ProcessResult> RunToolAsync(params string[] args)
    {
        using var tool = StartTool(args);
        return await tool.WaitForExitAsync();
    }

    /// <summary>Waits for a line on stdout or stderr that matches, and returns it.</summary>
    public async Task<string> WaitForLineAsync(Func<string, bool> match)
    {
        var seen = new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously);
        lock (_gate)
        {
            var existing = (_stdout + "\n" + _stderr).Split('\n').FirstOrDefault(match);
            if (existing is not null)
            {
                return existing;
            }

            _watches.Add((match, seen));
        }

        var exited = _process.WaitForExitAsync();
        var first = await Task.WhenAny(seen.Task, exited).WaitAsync(HangGuard);
        if (first != seen.Task)
        {
            // Output events may still be draining after exit.
            _process.WaitForExit();
            lock (_gate)
            {
                return (_stdout + "\n" + _stderr).Split('\n').FirstOrDefault(match)
                    ?? throw new InvalidOperationException($"Process exited before the expected line.\n{Snapshot()}");
            }
        }

        return await seen.Task;
    }

    public void SendLine(string line)
    {
        _process.StandardInput.WriteLine(line);
        _process.StandardInput.Flush();
    }

    public void CloseInput() => _process.StandardInput.Close();

    /// <summary>Sends a POSIX signal ("INT", "TERM") with kill(1).</summary>
    public void Signal(string signal)
    {
        using var kill = Process.Start("kill", ["-" + signal, Id.ToString(System.Globalization.CultureInfo.InvariantCulture)]);
        kill.WaitForExit();
    }

    public async Task<ProcessResult> WaitForExitAsync()
    {
        try
        {
            await _process.WaitForExitAsync().WaitAsync(HangGuard);
        }
        catch (TimeoutException)
        {
            _process.Kill(entireProcessTree: true);
            throw new TimeoutException($"Process {Id} hung.\n{Snapshot()}");
        }

        _process.WaitForExit(); // drains the asynchronous output readers
        return Snapshot();
    }

    public void Dispose()
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
            _process.WaitForExit();
        }

        _process.Dispose();
    }

    private ProcessResult Snapshot()
    {
        lock (_gate)
        {
            return new ProcessResult(_process.HasExited ? _process.ExitCode : -1, _stdout.ToString(), _stderr.ToString());
        }
    }

    private void OnLine(StringBuilder buffer, string? line)
    {
        if (line is null)
        {
            return;
        }

        lock (_gate)
        {
            buffer.Append(line).Append('\n');
            foreach (var watch in _watches.Where(w => w.Match(line)).ToList())
            {
                watch.Seen.TrySetResult(line);
                _watches.Remove(watch);
            }
        }
    }
}
