using AsyncCost.Report;

namespace AsyncCost.Sessions;

/// <summary>The names of the traces a session writes: one per pass, slice and hop window, beside the path given.</summary>
internal static class TraceFileNames
{
    /// <summary>The window number of a windowed hop pass's counters session, which spans its windows.</summary>
    internal const int CountersWindow = -1;

    /// <summary>The window number of the requests session beside a pass of an attached ASP.NET Core process.</summary>
    internal const int RequestsWindow = -2;

    /// <summary>The file for one pass (and slice, and hop window): the path itself for a single pass, else
    /// "name.pass[.slice][.wN].nettrace" beside it; a windowed hop pass's counters go to "name.hops[.slice].counters.nettrace",
    /// which `report` reads to scale the windows as `collect` does, and the requests recorded beside a pass to
    /// "name.pass[.slice].requests.nettrace".</summary>
    internal static string? For(string? path, MeasurementPasses pass, int passCount, int slice, int window = 0)
    {
        if (path is null)
        {
            return null;
        }
        if (passCount == 1 && slice == 0 && window == 0)
        {
            return path;
        }
        var directory = Path.GetDirectoryName(path) ?? "";
        var name = Path.GetFileNameWithoutExtension(path);
        var suffix = (slice == 0 ? "" : "." + (slice + 1).ToString(System.Globalization.CultureInfo.InvariantCulture))
            + window switch
            {
                0 => "",
                CountersWindow or RequestsWindow => SessionBeside(window),
                _ => ".w" + (window + 1).ToString(System.Globalization.CultureInfo.InvariantCulture),
            };
        return Path.Combine(directory, $"{name}.{TracePass.PassName(pass)}{suffix}.nettrace");
    }

    /// <summary>True when <paramref name="file"/> is named as the session beside a pass that <paramref name="window"/> stands
    /// for (<see cref="CountersWindow"/> or <see cref="RequestsWindow"/>), as <see cref="For"/> names it.</summary>
    internal static bool IsBeside(string file, int window) =>
        Path.GetFileName(file).EndsWith(SessionBeside(window) + ".nettrace", StringComparison.OrdinalIgnoreCase);

    private static string SessionBeside(int window) => window switch
    {
        CountersWindow => ".counters",
        RequestsWindow => ".requests",
        _ => throw new ArgumentOutOfRangeException(nameof(window), window, "not a session beside a pass"),
    };
}
