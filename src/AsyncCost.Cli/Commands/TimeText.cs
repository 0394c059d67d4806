using System.Globalization;

namespace AsyncCost.Cli.Commands;

/// <summary>
/// The one reading of a time a user types: a number of seconds (5, 2.5), a number with a unit (500ms, 5s, 2m, 1h), or
/// dotnet-trace's [dd:]hh:mm:ss[.fff]. The tool's --duration and the samples' --duration/--round-trip share it
/// (the samples compile this file too), so a time that works for one works for the other.
/// </summary>
internal static class TimeText
{
    /// <summary>What the forms look like, for messages and help.</summary>
    public const string Examples = "5, 5s, 500ms, 2m or 00:00:05";

    public static bool TryParse(string text, out TimeSpan time)
    {
        text = text.Trim();
        (string number, double secondsPerUnit) = text switch
        {
            _ when text.EndsWith("ms", StringComparison.OrdinalIgnoreCase) => (text[..^2], 0.001),
            _ when text.EndsWith('s') || text.EndsWith('S') => (text[..^1], 1.0),
            _ when text.EndsWith('m') || text.EndsWith('M') => (text[..^1], 60.0),
            _ when text.EndsWith('h') || text.EndsWith('H') => (text[..^1], 3600.0),
            _ when !text.Contains(':', StringComparison.Ordinal) => (text, 1.0),
            _ => (string.Empty, 0.0),
        };

        if (secondsPerUnit > 0)
        {
            // A bare number is seconds, never TimeSpan's days.
            var isNumber = double.TryParse(number, NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out double amount)
                && amount * secondsPerUnit <= TimeSpan.MaxValue.TotalSeconds / 2;
            time = isNumber ? TimeSpan.FromSeconds(amount * secondsPerUnit) : TimeSpan.Zero;
            return isNumber;
        }

        return TimeSpan.TryParseExact(text, [@"h\:mm\:ss", @"h\:mm\:ss\.FFFFFFF", @"d\:hh\:mm\:ss", @"d\:hh\:mm\:ss\.FFFFFFF"], CultureInfo.InvariantCulture, out time)
            && time >= TimeSpan.Zero;
    }
}
