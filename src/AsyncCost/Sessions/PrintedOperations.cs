using System.Globalization;
using System.Text.RegularExpressions;

namespace AsyncCost.Sessions;

/// <summary>
/// The operation count a launched command prints about itself: a line <c>asynccost: N operations</c>, optionally
/// followed by <c> in S s</c> (the seconds those operations took, the command's own clock, start-up excluded), on its
/// stdout or stderr. The last such line of a run counts. It lets `compare` judge two runs that did different amounts of
/// work (a run bounded by time) per operation, and their throughput.
/// </summary>
internal sealed partial class PrintedOperations
{
    private readonly Lock _gate = new();

    /// <summary>The count of the last matching line, null before one.</summary>
    public long? Operations { get; private set; }

    /// <summary>The seconds of the last matching line, null when it gave none.</summary>
    public double? Seconds { get; private set; }

    /// <summary>Reads one line of the command's output (called from the process's reader threads).</summary>
    public void Read(string line)
    {
        if (Line().Match(line) is not { Success: true } match
            || !long.TryParse(match.Groups["operations"].ValueSpan, NumberStyles.None, CultureInfo.InvariantCulture, out var operations)
            || operations <= 0)
        {
            return;
        }

        double? seconds = match.Groups["seconds"] is { Success: true } group
            && double.TryParse(group.ValueSpan, NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out var value) && value > 0 ? value : null;
        lock (_gate)
        {
            Operations = operations;
            Seconds = seconds;
        }
    }

    [GeneratedRegex(@"^\s*asynccost: (?<operations>[0-9]+) operations(?: in (?<seconds>[0-9]+(?:\.[0-9]+)?) s)?\s*$", RegexOptions.CultureInvariant)]
    private static partial Regex Line();
}
