namespace AsyncCost.Cli.Rendering;

/// <summary>Writes one <see cref="TextTable"/> as RFC 4180 CSV: a header row, then one row per line, CRLF-free (\n) for Unix tools.</summary>
internal static class CsvWriter
{
    public static void Write(TextTable table, TextWriter output)
    {
        output.WriteLine(string.Join(",", table.Columns.Select(c => Quote(c.Header))));
        foreach (var row in table.Rows)
        {
            output.WriteLine(string.Join(",", row.Select(Quote)));
        }
    }

    private static string Quote(string cell) =>
        cell.AsSpan().IndexOfAny(",\"\n\r") >= 0 ? "\"" + cell.Replace("\"", "\"\"", StringComparison.Ordinal) + "\"" : cell;
}
