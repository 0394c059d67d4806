using AsyncCost.Cli.Rendering;

namespace AsyncCost.Cli.Terminal;

/// <summary>
/// The tool's own messages on stderr, fitted to stderr's width (the terminal's, COLUMNS when set, 80 when redirected): a
/// message longer than that goes on under itself, indented, so each one still reads as one message.
/// </summary>
internal static class ErrorOutput
{
    private const string Continuation = "  ";

    /// <summary>Writes the message, wrapped, to stderr.</summary>
    public static void WriteLine(string message) => Console.Error.WriteLine(Fit(message, Width));

    /// <summary>stderr's width, as <see cref="OutputWidth"/> decides stdout's.</summary>
    public static int Width => OutputWidth.Of(Console.IsErrorRedirected);

    /// <summary>The message on lines of at most <paramref name="width"/> characters, the later ones indented.</summary>
    public static string Fit(string message, int width) =>
        string.Join(Environment.NewLine, ConsoleTableWriter.Wrap(message.ReplaceLineEndings(" "), width - Continuation.Length).Select((line, i) => i == 0 ? line : Continuation + line));
}
