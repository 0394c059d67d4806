using Spectre.Console;
using Spectre.Console.Rendering;

namespace AsyncCost.Cli.Rendering;

/// <summary>
/// Writes a <see cref="TextDocument"/> as aligned tables (Spectre.Console). Colour and terminal width only when the
/// output is a terminal; redirected output gets plain text, wide enough that rows never wrap.
/// </summary>
internal static class ConsoleTableWriter
{
    public static void Write(TextDocument document, TextWriter output, bool isTerminal) =>
        Render(output, isTerminal, document.Tables, console =>
        {
            console.Write(new Text(document.Title + Environment.NewLine, new Style(decoration: Decoration.Bold)));
            foreach (var line in document.Lines)
            {
                console.Write(new Text("  " + line + Environment.NewLine));
            }

            foreach (var table in document.Tables)
            {
                console.WriteLine();
                console.Write(ToRenderable(table));
            }
        });

    public static void WriteTable(TextTable table, TextWriter output, bool isTerminal) =>
        Render(output, isTerminal, [table], console => console.Write(ToRenderable(table)));

    /// <summary>The table as a Spectre renderable (also used by the live monitor display).</summary>
    public static IRenderable ToRenderable(TextTable table)
    {
        var rendered = new Table { Border = TableBorder.Simple };
        foreach (var column in table.Columns)
        {
            rendered.AddColumn(new TableColumn(new Text(column.Header, new Style(decoration: Decoration.Bold)))
            {
                Alignment = column.Alignment == ColumnAlignment.Right ? Justify.Right : Justify.Left,
            });
        }

        foreach (var row in table.Rows)
        {
            // Text, not Markup: generic names contain [ ] and < > that markup would interpret.
            rendered.AddRow(row.Select(cell => (IRenderable)new Text(cell)));
        }

        // The title as a plain left-aligned line: Spectre centres table titles over the full width.
        var title = new Text(table.Title, new Style(decoration: Decoration.Bold));
        return table.Note is null
            ? new Rows(title, rendered)
            : new Rows(title, rendered, new Text("  " + table.Note + Environment.NewLine, new Style(decoration: Decoration.Italic)));
    }

    private static void Render(TextWriter output, bool isTerminal, IReadOnlyList<TextTable> tables, Action<IAnsiConsole> write)
    {
        if (isTerminal)
        {
            write(AnsiConsole.Create(new AnsiConsoleSettings { Out = new AnsiConsoleOutput(output) }));
            return;
        }

        // Redirected: no colour, and exactly as wide as the widest table so rows never wrap (Spectre would assume
        // 80 columns) and no line carries padding to the right.
        using var buffer = new StringWriter();
        var console = AnsiConsole.Create(new AnsiConsoleSettings
        {
            Out = new AnsiConsoleOutput(buffer),
            Ansi = AnsiSupport.No,
            ColorSystem = ColorSystemSupport.NoColors,
            Interactive = InteractionSupport.No,
        });
        console.Profile.Width = Math.Max(80, tables.Select(NaturalWidth).Concat(tables.Select(t => (t.Note?.Length ?? 0) + 2)).DefaultIfEmpty(0).Max());
        write(console);
        foreach (var line in buffer.ToString().TrimEnd().Split('\n'))
        {
            output.WriteLine(line.TrimEnd());
        }
    }

    /// <summary>The width of a table whose cells never wrap: widest cell per column, plus Spectre's padding and borders.</summary>
    private static int NaturalWidth(TextTable table) =>
        table.Columns.Select((column, i) => table.Rows.Select(row => row[i].Length).Append(column.Header.Length).Max() + 3).Sum() + 4;
}
