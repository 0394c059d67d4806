using System.Globalization;

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

    /// <summary>Machine-readable: plain invariant number, empty for a missing figure.</summary>
    public static string Raw(double? value) => value?.ToString("R", CultureInfo.InvariantCulture) ?? "";

    public static string Duration(TimeSpan duration) => duration.ToString(@"hh\:mm\:ss\.f", CultureInfo.InvariantCulture);
}
