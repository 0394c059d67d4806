using System.Globalization;
using System.Text;

namespace AsyncCost.Benchmarks.Report;

/// <summary>A labelled group of bars (one per series); a null value is drawn as "n/a".</summary>
public sealed record BarGroup(string Label, IReadOnlyList<Bar> Bars);

public sealed record Bar(string Series, double? Value);

/// <summary>
/// Small hand-written SVG charts (no plotting library is served here): grouped horizontal bars on a log scale, and a
/// heat map. Plain SVG 1.1 with inline styles, readable on GitHub.
/// </summary>
public static class SvgCharts
{
    private static readonly string[] SeriesColors = ["#9aa5b1", "#3e7cb1", "#e07a1f", "#4caf50"];
    private static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

    /// <summary>Grouped horizontal bars, log10 x axis spanning the positive values.</summary>
    public static string HorizontalBars(string title, string axisLabel, IReadOnlyList<BarGroup> groups)
    {
        const int labelWidth = 220, plotWidth = 520, barHeight = 12, groupGap = 14, top = 60, right = 150;
        var values = groups.SelectMany(g => g.Bars).Select(b => b.Value).OfType<double>().Where(v => v > 0).ToList();
        var minExponent = Math.Floor(Math.Log10(values.Min()));
        var maxExponent = Math.Ceiling(Math.Log10(values.Max()));
        if (maxExponent <= minExponent)
            maxExponent = minExponent + 1;
        double X(double value) => labelWidth + (Math.Log10(value) - minExponent) / (maxExponent - minExponent) * plotWidth;

        var series = groups[0].Bars.Select(b => b.Series).ToList();
        var groupHeight = series.Count * barHeight + groupGap;
        var height = top + groups.Count * groupHeight + 40;
        var width = labelWidth + plotWidth + right;
        var svg = Start(width, height, title);

        for (var exponent = minExponent; exponent <= maxExponent; exponent++)
        {
            var x = X(Math.Pow(10, exponent));
            svg.Append(Invariant, $"<line x1=\"{x:0.#}\" y1=\"{top - 6}\" x2=\"{x:0.#}\" y2=\"{height - 34}\" stroke=\"#ddd\"/>");
            svg.Append(Invariant, $"<text x=\"{x:0.#}\" y=\"{height - 20}\" font-size=\"11\" text-anchor=\"middle\">{Number(Math.Pow(10, exponent))}</text>");
        }
        svg.Append(Invariant, $"<text x=\"{labelWidth + plotWidth / 2}\" y=\"{height - 5}\" font-size=\"11\" text-anchor=\"middle\">{Escape(axisLabel)}</text>");
        for (var s = 0; s < series.Count; s++)
        {
            var x = labelWidth + s * 200;
            svg.Append(Invariant, $"<rect x=\"{x}\" y=\"32\" width=\"12\" height=\"12\" fill=\"{SeriesColors[s % SeriesColors.Length]}\"/>");
            svg.Append(Invariant, $"<text x=\"{x + 16}\" y=\"42\" font-size=\"11\">{Escape(series[s])}</text>");
        }
        for (var g = 0; g < groups.Count; g++)
        {
            var y0 = top + g * groupHeight;
            svg.Append(Invariant, $"<text x=\"{labelWidth - 8}\" y=\"{y0 + series.Count * barHeight / 2 + 4}\" font-size=\"12\" text-anchor=\"end\">{Escape(groups[g].Label)}</text>");
            for (var b = 0; b < groups[g].Bars.Count; b++)
            {
                var y = y0 + b * barHeight;
                var value = groups[g].Bars[b].Value;
                if (value is not { } v || v <= 0)
                {
                    svg.Append(Invariant, $"<text x=\"{labelWidth + 4}\" y=\"{y + 10}\" font-size=\"10\" fill=\"#666\">{(value is null ? "n/a" : "0")}</text>");
                    continue;
                }
                var end = X(v);
                svg.Append(Invariant, $"<rect x=\"{labelWidth}\" y=\"{y}\" width=\"{Math.Max(end - labelWidth, 1):0.#}\" height=\"{barHeight - 2}\" fill=\"{SeriesColors[b % SeriesColors.Length]}\"/>");
                svg.Append(Invariant, $"<text x=\"{end + 4:0.#}\" y=\"{y + 9}\" font-size=\"10\">{Number(v)}</text>");
            }
        }
        return End(svg);
    }

    /// <summary>A heat map of <paramref name="values"/>[row, column] around <paramref name="neutral"/>: green above
    /// (better), red below, white at neutral; intensity by log distance, saturating at 4× either way.</summary>
    public static string HeatMap(
        string title, string rowAxis, IReadOnlyList<string> rows, string columnAxis, IReadOnlyList<string> columns, double?[,] values, double neutral)
    {
        const int left = 130, top = 80, cell = 64;
        var width = left + columns.Count * cell + 40;
        var height = top + rows.Count * cell + 60;
        var svg = Start(width, height, title);
        svg.Append(Invariant, $"<text x=\"{left + columns.Count * cell / 2}\" y=\"{top - 30}\" font-size=\"12\" text-anchor=\"middle\">{Escape(columnAxis)}</text>");
        svg.Append(Invariant, $"<text x=\"20\" y=\"{top + rows.Count * cell / 2}\" font-size=\"12\" text-anchor=\"middle\" transform=\"rotate(-90 20 {top + rows.Count * cell / 2})\">{Escape(rowAxis)}</text>");
        for (var c = 0; c < columns.Count; c++)
            svg.Append(Invariant, $"<text x=\"{left + c * cell + cell / 2}\" y=\"{top - 8}\" font-size=\"12\" text-anchor=\"middle\">{Escape(columns[c])}</text>");
        for (var r = 0; r < rows.Count; r++)
        {
            svg.Append(Invariant, $"<text x=\"{left - 8}\" y=\"{top + r * cell + cell / 2 + 4}\" font-size=\"12\" text-anchor=\"end\">{Escape(rows[r])}</text>");
            for (var c = 0; c < columns.Count; c++)
            {
                var value = values[r, c];
                var x = left + c * cell;
                var y = top + r * cell;
                svg.Append(Invariant, $"<rect x=\"{x}\" y=\"{y}\" width=\"{cell}\" height=\"{cell}\" fill=\"{HeatColor(value, neutral)}\" stroke=\"#fff\"/>");
                svg.Append(Invariant, $"<text x=\"{x + cell / 2}\" y=\"{y + cell / 2 + 5}\" font-size=\"14\" text-anchor=\"middle\">{(value is { } v ? Math.Round(v).ToString(Invariant) : "n/a")}</text>");
            }
        }
        svg.Append(Invariant, $"<text x=\"{left}\" y=\"{height - 20}\" font-size=\"11\">green: async faster (above {neutral:0}); red: threads faster</text>");
        return End(svg);
    }

    private static string HeatColor(double? value, double neutral)
    {
        if (value is not { } v || v <= 0)
            return "#eeeeee";
        var t = Math.Clamp(Math.Log2(v / neutral) / 2, -1, 1); // ±1 at 4×
        var (r, g, b) = t >= 0
            ? (Lerp(255, 76, t), Lerp(255, 175, t), Lerp(255, 80, t))
            : (Lerp(255, 229, -t), Lerp(255, 83, -t), Lerp(255, 75, -t));
        return $"#{r:x2}{g:x2}{b:x2}";

        static int Lerp(int from, int to, double t) => (int)Math.Round(from + (to - from) * t);
    }

    private static StringBuilder Start(int width, int height, string title)
    {
        var svg = new StringBuilder();
        svg.Append(Invariant, $"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\">");
        svg.Append(Invariant, $"<rect width=\"{width}\" height=\"{height}\" fill=\"#fff\"/>");
        svg.Append(Invariant, $"<text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">{Escape(title)}</text>");
        return svg;
    }

    private static string End(StringBuilder svg) => svg.Append("</svg>\n").ToString();

    private static string Number(double value) => Format.Number(value);

    private static string Escape(string text) =>
        text.Replace("&", "&amp;", StringComparison.Ordinal).Replace("<", "&lt;", StringComparison.Ordinal).Replace(">", "&gt;", StringComparison.Ordinal);
}
