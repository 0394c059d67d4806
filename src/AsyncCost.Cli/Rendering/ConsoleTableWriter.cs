using Spectre.Console;
using Spectre.Console.Rendering;

namespace AsyncCost.Cli.Rendering;

/// <summary>
/// Writes a <see cref="TextDocument"/> as aligned tables (Spectre.Console). Colour and terminal width only when the
/// output is a terminal (and no colour or other styling when NO_COLOR is set, https://no-color.org); redirected output gets plain text,
/// wide enough that rows never wrap. A table wider than the terminal is laid out to fit: long names are shortened in the
/// middle (the method name at the end stays), and when even that leaves too little room, each name gets a line of its
/// own with its figures on the next, the columns still aligned.
/// </summary>
internal static class ConsoleTableWriter
{
    /// <summary>Below this many characters a shortened name says too little: it moves to a line of its own instead.</summary>
    private const int MinimumNameWidth = 24;

    private const string Gap = "  ";
    private const string Indent = "  ";

    public static void Write(TextDocument document, TextWriter output, bool isTerminal, int? width = null) =>
        Render(output, isTerminal, width, document.Tables, document.Conclusion?.Length ?? 0, (console, fit) =>
        {
            console.Write(new Text(document.Title + Environment.NewLine, new Style(decoration: Decoration.Bold)));
            foreach (var line in document.Lines)
            {
                console.Write(new Text(Indent + line + Environment.NewLine));
            }

            foreach (var table in document.Tables)
            {
                console.WriteLine();
                console.Write(fit(table));
            }

            if (document.Conclusion is not null)
            {
                console.Write(new Text(document.Conclusion + Environment.NewLine, new Style(decoration: Decoration.Bold)));
            }
        });

    public static void WriteTable(TextTable table, TextWriter output, bool isTerminal) =>
        Render(output, isTerminal, null, [table], 0, (console, fit) => console.Write(fit(table)));

    /// <summary>True unless NO_COLOR is set to a non-empty value.</summary>
    public static bool ColorAllowed => string.IsNullOrEmpty(Environment.GetEnvironmentVariable("NO_COLOR"));

    /// <summary>The table as a Spectre renderable (also used by the live monitor display).</summary>
    public static IRenderable ToRenderable(TextTable table)
    {
        var rendered = new Table { Border = TableBorder.Simple };
        foreach (var column in table.Columns)
        {
            rendered.AddColumn(new TableColumn(new Text(column.Header, HeaderStyle))
            {
                Alignment = column.Alignment == ColumnAlignment.Right ? Justify.Right : Justify.Left,
                // A number split over two lines reads as two numbers: only text columns wrap.
                NoWrap = column.Alignment == ColumnAlignment.Right,
            });
        }

        foreach (var row in table.Rows)
        {
            // Text, not Markup: generic names contain [ ] and < > that markup would interpret.
            rendered.AddRow(row.Select((cell, i) => (IRenderable)new Text(cell, CellStyle(table, i))));
        }

        return Framed(table, rendered);
    }

    /// <summary>The table laid out for <paramref name="width"/> columns (see the class summary).</summary>
    internal static IRenderable Fitted(TextTable table, int width)
    {
        var widths = ColumnWidths(table).ToArray();
        var figuresWidth = widths.Skip(1).Sum(w => w + Gap.Length);
        var nameWidth = width - Indent.Length - figuresWidth;
        var ownLine = nameWidth < Math.Min(MinimumNameWidth, widths[0]);
        nameWidth = Math.Min(nameWidth, widths[0]);
        // Blank lines above and below, as Spectre's tables have.
        var lines = new List<Paragraph> { new(" ") };
        if (ownLine)
        {
            // Names on their own line, full width; figures on the next line, indented under them.
            nameWidth = Indent.Length;
            lines.Add(Line((table.Columns[0].Header, HeaderStyle)));
            lines.Add(Line([(new string(' ', nameWidth), Style.Plain), .. FigureCells(table, table.Columns.Select(c => c.Header).ToList(), widths, HeaderStyle)]));
        }
        else
        {
            lines.Add(Line([(Pad(table.Columns[0].Header, nameWidth, table.Columns[0].Alignment), HeaderStyle), .. FigureCells(table, table.Columns.Select(c => c.Header).ToList(), widths, HeaderStyle)]));
        }

        lines.Add(new Paragraph(new string('─', Math.Min(width, Indent.Length + nameWidth + figuresWidth))));
        foreach (var row in table.Rows)
        {
            if (ownLine)
            {
                lines.Add(Line((ShortenMiddle(row[0], width - Indent.Length), CellStyle(table, 0))));
                lines.Add(Line([(new string(' ', nameWidth), Style.Plain), .. FigureCells(table, row, widths, Style.Plain)]));
            }
            else
            {
                lines.Add(Line([(Pad(ShortenMiddle(row[0], nameWidth), nameWidth, table.Columns[0].Alignment), CellStyle(table, 0)), .. FigureCells(table, row, widths, Style.Plain)]));
            }
        }

        lines.Add(new Paragraph(" "));
        return Framed(table, new Rows(lines));
    }

    /// <summary>
    /// "Contoso.Pri….GetPriceAsync": the start says where, the end says which method. Generic arguments go first
    /// ("ProcessRequests&lt;…&gt;"), then the middle, keeping as many whole names at the end (namespace tail, type, method)
    /// as leave a few leading characters; a last name too long even for that is cut a third / two thirds.
    /// </summary>
    internal static string ShortenMiddle(string text, int width)
    {
        if (text.Length <= width || width < 2)
        {
            return text;
        }

        var name = WithoutGenericArguments(text);
        if (name.Length <= width)
        {
            return name;
        }

        const int minimumHead = 4;
        var tail = -1;
        for (var i = name.Length - 1; i > 0; i--)
        {
            if (name[i] == '.' && name.Length - i <= width - 1 - minimumHead)
            {
                tail = i;
            }
        }

        return tail > 0
            ? string.Concat(name.AsSpan(0, width - 1 - (name.Length - tail)), "…", name.AsSpan(tail))
            : string.Concat(name.AsSpan(0, (width - 1) / 3), "…", name.AsSpan(name.Length - (width - 1 - ((width - 1) / 3))));
    }

    /// <summary>"Cache&lt;Ns.Key, Ns.Value&gt;.GetAsync" → "Cache&lt;…&gt;.GetAsync"; dots inside the arguments are not name separators.</summary>
    private static string WithoutGenericArguments(string name)
    {
        var shortened = new System.Text.StringBuilder(name.Length);
        var depth = 0;
        foreach (var c in name)
        {
            if (c == '>' && --depth == 0)
            {
                shortened.Append('…');
            }

            if (depth == 0)
            {
                shortened.Append(c);
            }

            if (c == '<')
            {
                depth++;
            }
        }

        return depth == 0 ? shortened.ToString() : name;
    }

    private static Style HeaderStyle => new(decoration: Decoration.Bold);

    // The row's name (first column: method, type, figure) in colour; a console without colour (redirected, NO_COLOR) drops it.
    private static Style CellStyle(TextTable table, int column) =>
        column == 0 && table.Columns[0].Alignment == ColumnAlignment.Left ? new Style(foreground: Color.Aqua) : Style.Plain;

    private static IEnumerable<(string Text, Style Style)> FigureCells(TextTable table, IReadOnlyList<string> cells, int[] widths, Style style) =>
        cells.Skip(1).Select((cell, i) => (Gap + Pad(cell, widths[i + 1], table.Columns[i + 1].Alignment), style));

    private static string Pad(string cell, int width, ColumnAlignment alignment) =>
        alignment == ColumnAlignment.Right ? cell.PadLeft(width) : cell.PadRight(width);

    private static Paragraph Line(params IEnumerable<(string Text, Style Style)> segments)
    {
        var line = new Paragraph();
        var pieces = segments.Prepend((Text: Indent, Style: Style.Plain)).ToList();
        // No padding at the end of a line.
        pieces[^1] = (pieces[^1].Text.TrimEnd(), pieces[^1].Style);
        foreach (var (text, style) in pieces)
        {
            line.Append(text, style);
        }

        return line;
    }

    private static Rows Framed(TextTable table, IRenderable body)
    {
        // The title as a plain left-aligned line: Spectre centres table titles over the full width.
        var title = new Text(table.Title, HeaderStyle);
        return table.Note is null
            ? new Rows(title, body)
            : new Rows(title, body, new Text(Indent + table.Note + Environment.NewLine, new Style(decoration: Decoration.Italic)));
    }

    /// <param name="longestText">The longest line of free text (the conclusion), which redirected output must not wrap either.</param>
    private static void Render(TextWriter output, bool isTerminal, int? width, IReadOnlyList<TextTable> tables, int longestText, Action<IAnsiConsole, Func<TextTable, IRenderable>> write)
    {
        if (isTerminal)
        {
            // NO_COLOR: plain text, bold and italics included (they are escape sequences too).
            var terminal = AnsiConsole.Create(new AnsiConsoleSettings
            {
                Out = new AnsiConsoleOutput(output),
                Ansi = ColorAllowed ? AnsiSupport.Detect : AnsiSupport.No,
                ColorSystem = ColorAllowed ? ColorSystemSupport.Detect : ColorSystemSupport.NoColors,
            });
            if (width is { } columns)
            {
                terminal.Profile.Width = columns;
            }

            var available = terminal.Profile.Width;
            write(terminal, table => NaturalWidth(table) <= available ? ToRenderable(table) : Fitted(table, available));
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
        console.Profile.Width = Math.Max(Math.Max(80, longestText), tables.Select(NaturalWidth).Concat(tables.Select(t => (t.Note?.Length ?? 0) + 2)).DefaultIfEmpty(0).Max());
        write(console, ToRenderable);
        foreach (var line in buffer.ToString().TrimEnd().Split('\n'))
        {
            output.WriteLine(line.TrimEnd());
        }
    }

    /// <summary>The width of a table whose cells never wrap: widest cell per column, plus Spectre's padding and borders.</summary>
    private static int NaturalWidth(TextTable table) => ColumnWidths(table).Sum(width => width + 3) + 4;

    private static IEnumerable<int> ColumnWidths(TextTable table) =>
        table.Columns.Select((column, i) => table.Rows.Select(row => row[i].Length).Append(column.Header.Length).Max());
}
