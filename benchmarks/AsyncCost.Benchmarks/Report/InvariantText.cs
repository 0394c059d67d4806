using System.Globalization;
using System.Text;

namespace AsyncCost.Benchmarks.Report;

/// <summary>Interpolated text in the invariant culture: the documents read the same on every machine.</summary>
public static class InvariantText
{
    public static StringBuilder Line(this StringBuilder builder, FormattableString text) =>
        builder.AppendLine(text.ToString(CultureInfo.InvariantCulture));

    public static StringBuilder Text(this StringBuilder builder, FormattableString text) =>
        builder.Append(text.ToString(CultureInfo.InvariantCulture));
}
