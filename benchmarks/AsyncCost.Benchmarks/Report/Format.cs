using System.Globalization;

namespace AsyncCost.Benchmarks.Report;

/// <summary>Number formatting for the results document and the cost model (invariant culture, 3 significant digits).</summary>
public static class Format
{
    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    /// <summary>3 significant digits, thousands separated: 0.000352, 0.0353, 2.74, 5,215.</summary>
    public static string Number(double value)
    {
        if (double.IsNaN(value) || double.IsInfinity(value))
            return "n/a";
        if (value == 0)
            return "0";
        var magnitude = (int)Math.Floor(Math.Log10(Math.Abs(value)));
        var decimals = Math.Clamp(2 - magnitude, 0, 6);
        return Math.Round(value, decimals).ToString("N" + decimals.ToString(Invariant), Invariant);
    }

    public static string Number(double? value) => value is { } v ? Number(v) : "n/a";

    /// <summary>Here ÷ published, as "×0.42"; "n/a" when either side is missing or the published figure is zero.</summary>
    public static string Ratio(double? here, double? published) =>
        here is { } h && published is { } p && p != 0 ? "×" + Number(h / p) : "n/a";

    /// <summary>"yes" when here and published are within a factor of 2 of each other.</summary>
    public static string WithinTwo(double? here, double? published) =>
        here is { } h && published is { } p && p != 0 && h != 0 ? (Math.Abs(Math.Log2(h / p)) <= 1 ? "yes" : "no") : "n/a";

    public static bool IsWithinTwo(double here, double published) =>
        published != 0 && here != 0 && Math.Abs(Math.Log2(here / published)) <= 1;

    /// <summary>Bytes as the analyzer messages quote them: "~96 B", "~33 KB".</summary>
    public static string ApproximateBytes(double bytes) =>
        bytes >= 1024 ? "~" + Number(bytes / 1024) + " KB" : "~" + Math.Round(bytes).ToString(Invariant) + " B";

    /// <summary>Microseconds as the analyzer messages quote them: "~0.35 µs", "~4.9 µs".</summary>
    public static string ApproximateMicroseconds(double microseconds)
    {
        var magnitude = (int)Math.Floor(Math.Log10(Math.Abs(microseconds)));
        var decimals = Math.Clamp(1 - magnitude, 0, 6); // 2 significant digits
        return "~" + Math.Round(microseconds, decimals).ToString("N" + decimals.ToString(Invariant), Invariant) + " µs";
    }

    public static string Percent(double fraction) => Number(fraction * 100) + " %";
}
