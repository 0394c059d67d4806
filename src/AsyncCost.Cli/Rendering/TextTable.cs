namespace AsyncCost.Cli.Rendering;

/// <summary>How a column's cells line up.</summary>
internal enum ColumnAlignment
{
    Left,
    Right,
}

/// <summary>What a column gives up when its table is wider than the screen (text formats for reading; files and --wide keep all).</summary>
internal enum ColumnFit
{
    /// <summary>Always shown as it is.</summary>
    Keep,

    /// <summary>The row's name: shortened in the middle, or on a line of its own (the first column, unless another says so).</summary>
    Shorten,

    /// <summary>Free text (a message, a command line): wrapped on the lines under the row's other cells.</summary>
    Wrap,

    /// <summary>A detail left out, rightmost first, until the rest fits; json, csv and --wide keep it.</summary>
    Drop,
}

/// <summary>One column of a <see cref="TextTable"/>.</summary>
internal sealed record TextColumn(string Header, ColumnAlignment Alignment = ColumnAlignment.Right, ColumnFit Fit = ColumnFit.Keep);

/// <summary>
/// A titled table of already formatted cells: what every text format (table, markdown, csv) writes.
/// Report sections and, later, the analyzer findings joined with costs are built as these, so each format is written once.
/// </summary>
internal sealed class TextTable(string title, IReadOnlyList<TextColumn> columns)
{
    private readonly List<IReadOnlyList<string>> _rows = [];

    public string Title { get; } = title;

    public IReadOnlyList<TextColumn> Columns { get; } = columns;

    public IReadOnlyList<IReadOnlyList<string>> Rows => _rows;

    /// <summary>A sentence printed under the table (what a figure means, where it came from).</summary>
    public string? Note { get; init; }

    public void AddRow(params IReadOnlyList<string> cells)
    {
        if (cells.Count != Columns.Count)
        {
            throw new ArgumentException($"Table '{Title}' has {Columns.Count} columns; got a row of {cells.Count}.", nameof(cells));
        }

        _rows.Add(cells);
    }
}

/// <summary>A document: a few heading lines, then tables.</summary>
/// <param name="Title">The document's title.</param>
/// <param name="Lines">Plain facts under the title (source, duration, passes).</param>
/// <param name="Tables">The sections.</param>
internal sealed record TextDocument(string Title, IReadOnlyList<string> Lines, IReadOnlyList<TextTable> Tables)
{
    /// <summary>One sentence after the tables that says what they add up to (compare's summary), or null.</summary>
    public string? Conclusion { get; init; }
}
