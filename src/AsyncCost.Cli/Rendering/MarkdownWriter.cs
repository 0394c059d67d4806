namespace AsyncCost.Cli.Rendering;

/// <summary>Writes a <see cref="TextDocument"/> as GitHub-flavoured markdown (for PR comments and docs).</summary>
internal static class MarkdownWriter
{
    public static void Write(TextDocument document, TextWriter output)
    {
        output.WriteLine("# " + document.Title);
        output.WriteLine();
        foreach (var line in document.Lines)
        {
            output.WriteLine("- " + Escape(line));
        }

        foreach (var table in document.Tables)
        {
            output.WriteLine();
            WriteTable(table, output);
        }

        if (document.Conclusion is not null)
        {
            output.WriteLine();
            output.WriteLine("**" + Escape(document.Conclusion) + "**");
        }
    }

    public static void WriteTable(TextTable table, TextWriter output)
    {
        output.WriteLine("## " + table.Title);
        output.WriteLine();
        output.WriteLine("| " + string.Join(" | ", table.Columns.Select(c => Escape(c.Header))) + " |");
        output.WriteLine("|" + string.Join("|", table.Columns.Select(c => c.Alignment == ColumnAlignment.Right ? " ---: " : " --- ")) + "|");
        foreach (var row in table.Rows)
        {
            output.WriteLine("| " + string.Join(" | ", row.Select(Escape)) + " |");
        }

        if (table.Note is not null)
        {
            output.WriteLine();
            output.WriteLine(Escape(table.Note));
        }
    }

    // Generic names (Cache<T>) and pipes would otherwise be read as HTML or as cell borders.
    private static string Escape(string text) =>
        text.Replace("|", "\\|", StringComparison.Ordinal)
            .Replace("<", "&lt;", StringComparison.Ordinal)
            .Replace(">", "&gt;", StringComparison.Ordinal);
}
