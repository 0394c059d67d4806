using System.Globalization;
using AsyncCost.Cli.Commands;

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
    public const string Usage = "[--operations N | --duration TIME] [--round-trip TIME]   (TIME like 500ms, 5s, 2m, 00:00:05 or seconds; round trip may be 0)";

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
                case "--duration" when TimeText.TryParse(value, out TimeSpan duration) && duration > TimeSpan.Zero:
                    budget = RunBudget.ForDuration(duration);
                    break;
                case "--duration":
                    error = $"'--duration' takes a positive time such as 500ms, 5s, 2m or 00:00:05, not '{value}'";
                    return false;
                case "--round-trip" when TimeText.TryParse(value, out TimeSpan time):
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
}
