using System.Diagnostics;
using System.Globalization;

namespace AsyncCost.Samples;

/// <summary>
/// How long a sample runs: a fixed number of operations (so a sample and its Fixed twin do the same work and print
/// the same result line) or a wall-clock duration (for tracing a steady workload).
/// </summary>
internal sealed class RunBudget
{
    // Reading the clock every operation would add its own cost to cheap operations: look every 64.
    private const long ClockCheckInterval = 64;

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

    /// <summary>Reads <c>--operations N</c> or <c>--duration 5s</c>; <paramref name="error"/> says what is wrong.</summary>
    public static bool TryParse(IReadOnlyList<string> args, long defaultOperations, out RunBudget budget, out string? error)
    {
        budget = ForOperations(defaultOperations);
        error = null;
        for (int i = 0; i < args.Count; i++)
        {
            string option = args[i];
            if (option is not ("--operations" or "--duration"))
            {
                error = $"unknown option '{option}'";
                return false;
            }

            if (i + 1 == args.Count)
            {
                error = $"'{option}' needs a value";
                return false;
            }

            string value = args[++i];
            if (option == "--operations")
            {
                if (!long.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out long operations) || operations < 1)
                {
                    error = $"'--operations' takes a whole number of at least 1, not '{value}'";
                    return false;
                }

                budget = ForOperations(operations);
            }
            else
            {
                if (!TryParseDuration(value, out TimeSpan duration))
                {
                    error = $"'--duration' takes a positive time such as 500ms, 5s, 2m or 00:00:05, not '{value}'";
                    return false;
                }

                budget = ForDuration(duration);
            }
        }

        return true;
    }

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

    private static bool TryParseDuration(string text, out TimeSpan duration)
    {
        (string number, double secondsPerUnit) = text switch
        {
            _ when text.EndsWith("ms", StringComparison.Ordinal) => (text[..^2], 0.001),
            _ when text.EndsWith('s') => (text[..^1], 1.0),
            _ when text.EndsWith('m') => (text[..^1], 60.0),
            _ => (string.Empty, 0.0),
        };

        if (secondsPerUnit > 0
            && double.TryParse(number, NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out double amount))
        {
            duration = TimeSpan.FromSeconds(amount * secondsPerUnit);
        }
        else if (!TimeSpan.TryParse(text, CultureInfo.InvariantCulture, out duration))
        {
            return false;
        }

        return duration > TimeSpan.Zero;
    }
}
