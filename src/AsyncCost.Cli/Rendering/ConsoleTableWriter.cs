using Spectre.Console;
using Spectre.Console.Rendering;

namespace AsyncCost.Cli.Rendering;

/// <summary>
/// Writes a <see cref="TextDocument"/> as aligned tables (Spectre.Console), at most <c>width</c> characters wide (null: as wide
/// as the widest row, for files and --wide). Colour only on a terminal (and no colour or other styling when NO_COLOR is set,
/// https://no-color.org). A table wider than that is laid out to fit, as dotnet-counters does: the details a column marks
/// <see cref="ColumnFit.Drop"/> are left out (rightmost first, named under the table), the name column is shortened in the
/// middle (the method name at the end stays), free text (<see cref="ColumnFit.Wrap"/>) is wrapped under its row, and when
/// a shortened name would say too little, each name gets a line of its own with its figures on the next, still aligned.
/// </summary>
internal static class ConsoleTableWriter
{
    /// <summary>Below this many characters a shortened name says too little: it moves to a line of its own instead.</summary>
    private const int MinimumNameWidth = 24;

    private const string Gap = "  ";
    private const string Indent = "  ";

    public static void Write(TextDocument document, TextWriter output, bool isTerminal, int? width = null) =>
        Render(output, isTerminal, width, document.Tables, document.Conclusion?.Length ?? 0, (console, fit, columns) =>
        {
            console.Write(new Text(document.Title + Environment.NewLine, new Style(decoration: Decoration.Bold)));
            foreach (var line in document.Lines)
            {
                // A long line (the traces' paths) goes on under itself, indented further.
                var wrapped = Wrap(line, columns - Indent.Length - Indent.Length).ToList();
                console.Write(new Text(string.Concat(wrapped.Select((l, i) => Indent + (i > 0 ? Indent : "") + l + Environment.NewLine))));
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

    public static void WriteTable(TextTable table, TextWriter output, bool isTerminal, int? width = null) =>
        Render(output, isTerminal, width, [table], 0, (console, fit, _) => console.Write(fit(table)));

    /// <summary>True unless NO_COLOR is set to a non-empty value.</summary>
    public static bool ColorAllowed => string.IsNullOrEmpty(Environment.GetEnvironmentVariable("NO_COLOR"));

    /// <summary>The table as a Spectre renderable (also used by the live monitor display); its note wrapped, indented, at
    /// <paramref name="width"/> when given.</summary>
    public static IRenderable ToRenderable(TextTable table, int? width = null)
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

        return Framed(table, rendered, width);
    }

    /// <summary>The table laid out for <paramref name="width"/> columns (see the class summary).</summary>
    internal static IRenderable Fitted(TextTable table, int width)
    {
        if (NaturalWidth(table) <= width)
        {
            return ToRenderable(table, width);
        }

        table = WithoutDetails(table, width);
        var widths = ColumnWidths(table).ToArray();
        var wrapped = Array.FindIndex(table.Columns.ToArray(), c => c.Fit == ColumnFit.Wrap);
        var name = NameColumn(table);
        var others = Enumerable.Range(0, widths.Length).Where(i => i != name && i != wrapped).ToList();
        // Every cell but the line's first has a gap before it.
        var othersWidth = others.Sum(i => widths[i] + Gap.Length) - (name < 0 ? Gap.Length : 0);
        var nameWidth = name < 0 ? 0 : Math.Min(widths[name], width - Indent.Length - othersWidth);
        var ownLine = name >= 0 && nameWidth < Math.Min(MinimumNameWidth, widths[name]);
        // Blank lines above and below, as Spectre's tables have.
        var lines = new List<Paragraph> { new(" ") };
        var headers = table.Columns.Select(c => c.Header).ToList();
        if (ownLine)
        {
            lines.Add(Line((headers[name], HeaderStyle)));
        }

        lines.Add(Line(Cells(table, headers, widths, name, ownLine ? null : nameWidth, HeaderStyle)));
        lines.Add(new Paragraph(new string('─', Math.Min(width, Indent.Length + (ownLine ? 0 : nameWidth + Gap.Length) + othersWidth))));
        foreach (var row in table.Rows)
        {
            if (ownLine)
            {
                lines.Add(Line((ShortenMiddle(row[name], width - Indent.Length), CellStyle(table, name))));
            }

            lines.Add(Line(Cells(table, row, widths, name, ownLine ? null : nameWidth, Style.Plain)));
            if (wrapped >= 0)
            {
                lines.AddRange(Wrap(row[wrapped], width - (2 * Indent.Length)).Select(l => Line((Indent + l, Style.Plain))));
            }
        }

        lines.Add(new Paragraph(" "));
        return Framed(table, new Rows(lines), width);
    }

    /// <summary>The column shortened to fit: the one marked so, else the first when it is a left-aligned name; -1 when none is.</summary>
    private static int NameColumn(TextTable table)
    {
        var marked = Array.FindIndex(table.Columns.ToArray(), c => c.Fit == ColumnFit.Shorten);
        return marked >= 0 ? marked
            : table.Columns[0] is { Alignment: ColumnAlignment.Left, Fit: ColumnFit.Keep } && table.Columns.All(c => c.Fit != ColumnFit.Wrap) ? 0 : -1;
    }

    /// <summary>The table without its <see cref="ColumnFit.Drop"/> columns, rightmost first, until its name has room beside
    /// the rest, whole if it can be (a name says more than a detail); the note says which were left out.</summary>
    private static TextTable WithoutDetails(TextTable table, int width)
    {
        var kept = Enumerable.Range(0, table.Columns.Count).ToList();
        var widths = ColumnWidths(table).ToArray();
        var name = NameColumn(table);
        bool Fits() => width - Indent.Length - kept.Where(i => i != name && table.Columns[i].Fit != ColumnFit.Wrap).Sum(i => widths[i] + Gap.Length)
            >= (name < 0 ? 0 : widths[name]);
        while (!Fits() && kept.LastOrDefault(i => table.Columns[i].Fit == ColumnFit.Drop, -1) is var drop and >= 0)
        {
            kept.Remove(drop);
        }

        if (kept.Count == table.Columns.Count)
        {
            return table;
        }

        var left = table.Columns.Where((_, i) => !kept.Contains(i)).Select(c => c.Header);
        var narrow = new TextTable(table.Title, [.. kept.Select(i => table.Columns[i])])
        {
            Note = (table.Note is null ? "" : table.Note + " ") + $"Left out for width: {string.Join(", ", left)} (--wide, --format json or csv show them).",
        };
        foreach (var row in table.Rows)
        {
            narrow.AddRow([.. kept.Select(i => row[i])]);
        }

        return narrow;
    }

    /// <summary>Words on lines of at most <paramref name="width"/> characters (a longer word, a path, cut where the line ends);
    /// a percent sign stays with its number ("~95 %").</summary>
    internal static IEnumerable<string> Wrap(string text, int width)
    {
        var line = new System.Text.StringBuilder();
        foreach (var word in WordsKeepingUnits(text).SelectMany(w => w.Chunk(Math.Max(1, width)).Select(c => new string(c))))
        {
            if (line.Length > 0 && line.Length + 1 + word.Length > width)
            {
                yield return line.ToString();
                line.Clear();
            }

            line.Append(line.Length > 0 ? " " : "").Append(word);
        }

        if (line.Length > 0)
        {
            yield return line.ToString();
        }
    }

    private static IEnumerable<string> WordsKeepingUnits(string text)
    {
        string? previous = null;
        foreach (var word in text.Split(' ', StringSplitOptions.RemoveEmptyEntries))
        {
            if (previous is not null && !word.StartsWith('%'))
            {
                yield return previous;
                previous = word;
            }
            else
            {
                previous = previous is null ? word : previous + " " + word;
            }
        }

        if (previous is not null)
        {
            yield return previous;
        }
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

    /// <summary>A row's cells, padded to their columns; the name column shortened to <paramref name="nameWidth"/> (left out when
    /// null: it has a line of its own); a wrapped column left for the lines under it.</summary>
    private static List<(string Text, Style Style)> Cells(TextTable table, IReadOnlyList<string> cells, int[] widths, int name, int? nameWidth, Style style)
    {
        var line = new List<(string Text, Style Style)>();
        for (var i = 0; i < cells.Count; i++)
        {
            if (table.Columns[i].Fit == ColumnFit.Wrap || (i == name && nameWidth is null))
            {
                continue;
            }

            var text = i == name ? Pad(ShortenMiddle(cells[i], nameWidth!.Value), nameWidth.Value, table.Columns[i].Alignment) : Pad(cells[i], widths[i], table.Columns[i].Alignment);
            line.Add(((line.Count > 0 ? Gap : "") + text, i == name && style == Style.Plain ? CellStyle(table, i) : style));
        }

        return line;
    }

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

    private static Rows Framed(TextTable table, IRenderable body, int? width)
    {
        // The title as a plain left-aligned line: Spectre centres table titles over the full width.
        var title = new Text(table.Title, HeaderStyle);
        if (table.Note is null)
        {
            return new Rows(title, body);
        }

        var note = width is { } columns ? Wrap(table.Note, columns - Indent.Length) : [table.Note];
        return new Rows(title, body, new Text(string.Concat(note.Select(l => Indent + l + Environment.NewLine)), new Style(decoration: Decoration.Italic)));
    }

    /// <param name="width">At most this many characters a line; null: as wide as the widest table, so that no row wraps.</param>
    /// <param name="longestText">The longest line of free text (the conclusion), which output without a width must not wrap either.</param>
    private static void Render(TextWriter output, bool isTerminal, int? width, IReadOnlyList<TextTable> tables, int longestText, Action<IAnsiConsole, Func<TextTable, IRenderable>, int> write)
    {
        // Without a width, exactly as wide as the widest table (Spectre would assume 80 columns), and no line carries padding
        // to the right.
        var columns = width ?? Math.Max(Math.Max(80, longestText), tables.Select(NaturalWidth).Concat(tables.Select(t => (t.Note?.Length ?? 0) + 2)).DefaultIfEmpty(0).Max());
        Func<TextTable, IRenderable> fit = table => Fitted(table, columns);
        if (isTerminal)
        {
            // NO_COLOR: plain text, bold and italics included (they are escape sequences too).
            var terminal = AnsiConsole.Create(new AnsiConsoleSettings
            {
                Out = new AnsiConsoleOutput(output),
                Ansi = ColorAllowed ? AnsiSupport.Detect : AnsiSupport.No,
                ColorSystem = ColorAllowed ? ColorSystemSupport.Detect : ColorSystemSupport.NoColors,
            });
            terminal.Profile.Width = columns;
            write(terminal, fit, columns);
            return;
        }

        using var buffer = new StringWriter();
        var console = AnsiConsole.Create(new AnsiConsoleSettings
        {
            Out = new AnsiConsoleOutput(buffer),
            Ansi = AnsiSupport.No,
            ColorSystem = ColorSystemSupport.NoColors,
            Interactive = InteractionSupport.No,
        });
        console.Profile.Width = columns;
        write(console, fit, columns);
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
