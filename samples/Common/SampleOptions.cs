using System.Globalization;

namespace AsyncCost.Samples;

/// <summary>What a sample runs with when the command line says nothing else.</summary>
internal sealed record SampleDefaults(long Operations, TimeSpan RoundTrip);

/// <summary>
/// The options every sample takes: how long it runs (<c>--operations N</c> or <c>--duration TIME</c>) and how long
/// one simulated remote round trip takes (<c>--round-trip TIME</c>; 0 answers on another thread at once, without a
/// timer, which lets a traced run do many operations).
/// </summary>
internal sealed record SampleOptions(RunBudget Budget, TimeSpan RoundTrip)
{
    public const string Usage = "[--operations N | --duration TIME] [--round-trip TIME]   (TIME like 500ms, 5s, 2m, 00:00:05; round trip may be 0)";

    /// <summary>Reads the options; <paramref name="error"/> says what is wrong when it returns false.</summary>
    public static bool TryParse(IReadOnlyList<string> args, SampleDefaults defaults, out SampleOptions options, out string? error)
    {
        RunBudget budget = RunBudget.ForOperations(defaults.Operations);
        TimeSpan roundTrip = defaults.RoundTrip;
        options = new SampleOptions(budget, roundTrip);
        error = null;
        for (int i = 0; i < args.Count; i++)
        {
            string option = args[i];
            if (option is not ("--operations" or "--duration" or "--round-trip"))
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
            switch (option)
            {
                case "--operations" when long.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out long operations) && operations >= 1:
                    budget = RunBudget.ForOperations(operations);
                    break;
                case "--operations":
                    error = $"'--operations' takes a whole number of at least 1, not '{value}'";
                    return false;
                case "--duration" when TryParseTime(value, out TimeSpan duration) && duration > TimeSpan.Zero:
                    budget = RunBudget.ForDuration(duration);
                    break;
                case "--duration":
                    error = $"'--duration' takes a positive time such as 500ms, 5s, 2m or 00:00:05, not '{value}'";
                    return false;
                case "--round-trip" when TryParseTime(value, out TimeSpan time):
                    roundTrip = time;
                    break;
                default:
                    error = $"'--round-trip' takes a time such as 0, 1ms or 00:00:00.001, not '{value}'";
                    return false;
            }
        }

        options = new SampleOptions(budget, roundTrip);
        return true;
    }

    // dotnet-trace style hh:mm:ss, or a number with a unit (ms, s, m); a bare 0 is zero.
    private static bool TryParseTime(string text, out TimeSpan time)
    {
        (string number, double secondsPerUnit) = text switch
        {
            "0" => ("0", 1.0),
            _ when text.EndsWith("ms", StringComparison.Ordinal) => (text[..^2], 0.001),
            _ when text.EndsWith('s') => (text[..^1], 1.0),
            _ when text.EndsWith('m') => (text[..^1], 60.0),
            _ => (string.Empty, 0.0),
        };

        if (secondsPerUnit > 0
            && double.TryParse(number, NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out double amount))
        {
            time = TimeSpan.FromSeconds(amount * secondsPerUnit);
        }
        else if (!TimeSpan.TryParse(text, CultureInfo.InvariantCulture, out time))
        {
            return false;
        }

        return time >= TimeSpan.Zero;
    }
}
