namespace AsyncCost.Cli.Terminal;

/// <summary>
/// How wide stdout's tables may be, as dotnet-counters decides it: COLUMNS when set (a shell exports it; a script can set it
/// for redirected output), else the terminal's width, else 80 when redirected. With --wide, no limit: every column, each row
/// on one line (what files get, and what a spreadsheet or a wide window wants).
/// </summary>
internal static class OutputWidth
{
    private const int Redirected = 80;

    /// <summary>The width for stdout, or null for no limit (<paramref name="wide"/>).</summary>
    public static int? StandardOutput(bool wide) => wide ? null : Of(Console.IsOutputRedirected);

    /// <summary>The width of a stream that is (or is not) redirected: COLUMNS, else the terminal's, else 80.</summary>
    public static int Of(bool redirected)
    {
        if (int.TryParse(Environment.GetEnvironmentVariable("COLUMNS"), out var columns) && columns > 0)
        {
            return columns;
        }

        return redirected ? Redirected : TerminalWidth();
    }

    private static int TerminalWidth()
    {
        try
        {
            return Console.WindowWidth > 0 ? Console.WindowWidth : Redirected;
        }
        catch (IOException)
        {
            return Redirected;
        }
    }
}
