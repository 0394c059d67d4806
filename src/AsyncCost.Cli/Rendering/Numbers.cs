using System.Globalization;
using AsyncCost.Report;

namespace AsyncCost.Cli.Rendering;

/// <summary>How figures read in text: invariant culture, thousands separators, binary units for totals.</summary>
internal static class Numbers
{
    private static readonly string[] ByteUnits = ["B", "KB", "MB", "GB", "TB"];

    public static string Count(double value) => Math.Round(value).ToString("N0", CultureInfo.InvariantCulture);

    /// <summary>Per-call figures: one decimal below 100, whole numbers above.</summary>
    public static string PerCall(double? value) => value switch
    {
        null => "-",
        < 100 => value.Value.ToString("0.0", CultureInfo.InvariantCulture),
        _ => Count(value.Value),
    };

    public static string Bytes(double bytes)
    {
        var unit = 0;
        while (Math.Abs(bytes) >= 1024 && unit < ByteUnits.Length - 1)
        {
            bytes /= 1024;
            unit++;
        }

        return unit == 0 ? Count(bytes) + " B" : bytes.ToString("0.0", CultureInfo.InvariantCulture) + " " + ByteUnits[unit];
    }

    public static string Percent(double? fraction) =>
        fraction is null ? "-" : (fraction.Value * 100).ToString("0.0", CultureInfo.InvariantCulture) + " %";

    /// <summary>A relative error bound, e.g. "±2.1 %".</summary>
    public static string Bound(double relative) => "±" + Percent(relative);

    /// <summary>
    /// A figure as it reads: an exact one as it is ("4,344"); an estimate marked "~" and followed by its relative bound
    /// ("~8,870 ±25%"), or, when it saw nothing, as less than its bound ("&lt;1.5 KB"). "-" for a missing figure.
    /// </summary>
    public static string Figure(Figure? figure, Func<double, string> format)
    {
        if (figure is null)
        {
            return "-";
        }
        if (!figure.Sampled)
        {
            return format(figure.Value);
        }
        // An estimate of zero (no sample) has no relative bound: its absolute one says how much it may hide, unless it is too
        // small to print (300 KB unsampled over 39 M operations), where "<0 B" would read as a negative.
        return figure.Value != 0 ? "~" + format(figure.Value) + " " + CompactBound(figure.RelativeError)
            : format(figure.ErrorBound) is var bound && bound != format(0) ? "<" + bound : "~" + bound;
    }

    /// <summary>A time in milliseconds ("~1,234 ms ±3%"); an estimate held to three significant digits.</summary>
    public static string Milliseconds(Figure? figure) => Figure(figure, value => Count(SignificantDigits(value, 3)) + " ms");

    /// <summary>A time given in milliseconds, in the unit its size reads best in ("41.2 µs", "3.05 ms", "1.20 s"), about three significant digits.</summary>
    public static string Time(double milliseconds)
    {
        if (milliseconds == 0)
        {
            return "0 ms";
        }
        var (scale, unit) = TimeUnit(milliseconds);
        return TimeDigits(milliseconds * scale) + " " + unit;
    }

    /// <summary>A span of times in milliseconds, in the unit of its larger end ("13.2–15.6 ms", "0.80–1.20 s").</summary>
    public static string TimeRange(double lowMilliseconds, double highMilliseconds)
    {
        var (scale, unit) = TimeUnit(highMilliseconds);
        return $"{TimeDigits(lowMilliseconds * scale)}–{TimeDigits(highMilliseconds * scale)} {unit}";
    }

    /// <summary>The unit a time in milliseconds reads best in, and the factor to it.</summary>
    private static (double Scale, string Unit) TimeUnit(double milliseconds) => Math.Abs(milliseconds) switch
    {
        >= 1000 => (1.0 / 1000, "s"),
        >= 1 => (1.0, "ms"),
        >= 0.001 => (1000.0, "µs"),
        _ => (1_000_000.0, "ns"),
    };

    /// <summary>About three significant digits.</summary>
    private static string TimeDigits(double value) =>
        value.ToString(Math.Abs(value) >= 100 ? "#,##0" : Math.Abs(value) >= 10 ? "0.0" : "0.00", CultureInfo.InvariantCulture);

    /// <summary>A time figure given in milliseconds ("~41.2 µs ±12%"), as <see cref="Figure(Report.Figure?, Func{double, string})"/> marks it;
    /// a zero with no bound (no call suspended) reads "0 ms".</summary>
    public static string Time(Figure? milliseconds) => milliseconds is { Value: 0, ErrorBound: 0 } ? Time(0) : Figure(milliseconds, Time);

    /// <summary>A count figure with thousands separators; an estimate held to three significant digits, as its bound is rarely tighter.</summary>
    public static string Count(Figure? figure) => Figure(figure, figure is { Sampled: true } ? value => Count(SignificantDigits(value, 3)) : Count);

    /// <summary>A row's calls; "not observable" when no pass could count them (never a 0 it did not see).</summary>
    public static string Calls(Figure? calls) => calls is null ? NotObservable : Count(calls);

    /// <summary>What a cell says for a count EventPipe cannot see.</summary>
    public const string NotObservable = "not observable";

    /// <summary>A per-call figure (one decimal below 100).</summary>
    public static string PerCall(Figure? figure) => Figure(figure, value => PerCall((double?)value));

    /// <summary>Milliseconds per call: one decimal from 1 ms (whole numbers from 100), two significant digits below.</summary>
    public static string MillisecondsPerCall(double value) => Fraction(value) + " ms";

    /// <summary>A count per call or per operation: one decimal from 1 (whole numbers from 100), two significant digits below.</summary>
    public static string Fraction(double value)
        => value < 1 ? SignificantDigits(value, 2).ToString("0.#####", CultureInfo.InvariantCulture) : PerCall((double?)value);

    /// <summary>A milliseconds-per-call figure.</summary>
    public static string MillisecondsPerCall(Figure? figure) => Figure(figure, MillisecondsPerCall);

    /// <summary>A byte figure (binary units).</summary>
    public static string Bytes(Figure? figure) => Figure(figure, Bytes);

    /// <summary>"±0.4%", "±14%", "±113%": one decimal below 10 %, whole percents above, no space, to keep cells narrow.</summary>
    public static string CompactBound(double relative)
    {
        var percent = relative * 100;
        return "±" + percent.ToString(percent < 9.95 ? "0.0" : "0", CultureInfo.InvariantCulture) + "%";
    }

    private static double SignificantDigits(double value, int digits)
    {
        if (value == 0 || double.IsNaN(value) || double.IsInfinity(value))
        {
            return value;
        }
        var scale = Math.Pow(10, digits - 1 - (int)Math.Floor(Math.Log10(Math.Abs(value))));
        return scale >= 1 ? value : Math.Round(value * scale) / scale;
    }

    /// <summary>Machine-readable: plain invariant number, empty for a missing figure.</summary>
    public static string Raw(double? value) => value?.ToString("R", CultureInfo.InvariantCulture) ?? "";

    public static string Duration(TimeSpan duration) => duration.ToString(@"hh\:mm\:ss\.f", CultureInfo.InvariantCulture);
}
