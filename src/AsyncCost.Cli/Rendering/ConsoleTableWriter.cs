using Spectre.Console;
using Spectre.Console.Rendering;

namespace AsyncCost.Cli.Rendering;

/// <summary>
/// Writes a <see cref="TextDocument"/> as aligned tables (Spectre.Console). Colour and terminal width only when the
/// output is a terminal; redirected output gets plain text, wide enough that rows never wrap.
/// </summary>
internal static class ConsoleTableWriter
{
    private const int MinimumTextWidth = 32;

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
                // A number split over two lines reads as two numbers: only text columns wrap.
                NoWrap = column.Alignment == ColumnAlignment.Right,
            });
        }

        // The row's name (first column: method, type, figure) in colour; a console without colour (redirected) drops it.
        var nameStyle = new Style(foreground: Color.Aqua);
        foreach (var row in table.Rows)
        {
            // Text, not Markup: generic names contain [ ] and < > that markup would interpret.
            rendered.AddRow(row.Select((cell, i) => (IRenderable)new Text(cell, i == 0 && table.Columns[0].Alignment == ColumnAlignment.Left ? nameStyle : Style.Plain)));
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
            // A narrow terminal squeezes the text columns (down to MinimumTextWidth); beyond that, lines run past the edge.
            var terminal = AnsiConsole.Create(new AnsiConsoleSettings { Out = new AnsiConsoleOutput(output) });
            terminal.Profile.Width = Math.Max(terminal.Profile.Width, tables.Select(CompactWidth).DefaultIfEmpty(0).Max());
            write(terminal);
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
    private static int NaturalWidth(TextTable table) => ColumnWidths(table).Sum(width => width + 3) + 4;

    /// <summary>The width at which numbers keep their natural width and text columns wrap at <see cref="MinimumTextWidth"/>.</summary>
    private static int CompactWidth(TextTable table) =>
        ColumnWidths(table).Select((width, i) => table.Columns[i].Alignment == ColumnAlignment.Left ? Math.Min(width, MinimumTextWidth) : width).Sum(width => width + 3) + 4;

    private static IEnumerable<int> ColumnWidths(TextTable table) =>
        table.Columns.Select((column, i) => table.Rows.Select(row => row[i].Length).Append(column.Header.Length).Max());
}
