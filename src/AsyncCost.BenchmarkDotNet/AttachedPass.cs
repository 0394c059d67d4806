using AsyncCost.Report;
using AsyncCost.Sessions;

namespace AsyncCost.BenchmarkDotNet;

/// <summary>One pass of the runtime library's session attached to a benchmark process, from a host signal to the next.</summary>
internal sealed class AttachedPass : IDisposable
{
    /// <summary>How long to wait for a session to record before letting the benchmark go on without it.</summary>
    private static readonly TimeSpan StartLimit = TimeSpan.FromSeconds(30);

    private readonly CancellationTokenSource _stop = new();
    private readonly Task<AsyncCostReport> _session;

    private AttachedPass(int processId, MeasurementPasses pass)
    {
        var recording = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        // Continuous: the hop pass counts every event (a benchmark process runs for the measurement alone).
        var options = new SessionOptions { Passes = pass, HopDutyCycle = 1, Progress = new OnProgress(recording) };
        _session = Task.Run(() => AsyncCostSession.AttachAsync(processId, options, _stop.Token));
        // The benchmark waits for this signal's acknowledgment: it goes on once the session records (its first progress).
        Task.WaitAny([recording.Task, _session], StartLimit);
    }

    /// <summary>Attaches and returns once the session records (or failed, or <see cref="StartLimit"/> passed).</summary>
    public static AttachedPass Start(int processId, MeasurementPasses pass) => new(processId, pass);

    /// <summary>Stops the session and returns its report; null when it could not attach or record.</summary>
    public async Task<AsyncCostReport?> StopAsync()
    {
        await _stop.CancelAsync().ConfigureAwait(false);
        try
        {
            return await _session.ConfigureAwait(false);
        }
        catch (AsyncCostException)
        {
            return null;
        }
    }

    public void Dispose() => _stop.Dispose();

    private sealed class OnProgress(TaskCompletionSource recording) : IProgress<SessionProgress>
    {
        public void Report(SessionProgress value) => recording.TrySetResult();
    }
}
