using System.Diagnostics;

namespace AsyncCost.Samples;

/// <summary>
/// How long a sample runs: a fixed number of operations (so a sample and its Fixed twin do the same work and print
/// the same result line) or a wall-clock duration (for tracing a steady workload).
/// </summary>
internal sealed class RunBudget
{
    // Reading the clock every operation would add its own cost to cheap operations: look every 16.
    private const long ClockCheckInterval = 16;

    private readonly long _operations;
    private readonly TimeSpan _duration;
    private readonly Stopwatch _clock = new();

    private RunBudget(long operations, TimeSpan duration)
    {
        _operations = operations;
        _duration = duration;
    }

    /// <summary>Time since <see cref="Start"/>.</summary>
    public TimeSpan Elapsed => _clock.Elapsed;

    public static RunBudget ForOperations(long operations) => new(operations, TimeSpan.Zero);

    public static RunBudget ForDuration(TimeSpan duration) => new(long.MaxValue, duration);

    public void Start() => _clock.Restart();

    /// <summary>True while another operation fits; <paramref name="completed"/> is how many have finished.</summary>
    public bool ShouldContinue(long completed)
    {
        if (completed >= _operations)
        {
            return false;
        }

        return _duration == TimeSpan.Zero || completed % ClockCheckInterval != 0 || _clock.Elapsed < _duration;
    }
}
