namespace AsyncCost.Attribution;

/// <summary>
/// The names nearest a misspelt one, for an error that says what was meant: by edit distance (insertions, deletions and
/// substitutions, each 1), compared with as many trailing dot-separated segments of each candidate as the name has, so
/// "Orders.ReserveAsnyc" finds "Shop.Orders.ReserveAsync" without its namespace.
/// </summary>
public static class NearestNames
{
    /// <summary>Up to <paramref name="count"/> candidates nearest <paramref name="name"/>, nearest first (ties in ordinal order).</summary>
    public static IReadOnlyList<string> Of(string name, IEnumerable<string> candidates, int count = 3)
    {
        ArgumentNullException.ThrowIfNull(name);
        ArgumentNullException.ThrowIfNull(candidates);
        var segments = name.Count(c => c == '.') + 1;
        return [.. candidates.Distinct(StringComparer.Ordinal)
            .Select(candidate => (Candidate: candidate, Distance: Math.Min(Distance(name, candidate), Distance(name, Tail(candidate, segments)))))
            .OrderBy(c => c.Distance)
            .ThenBy(c => c.Candidate, StringComparer.Ordinal)
            .Take(count)
            .Select(c => c.Candidate)];
    }

    /// <summary>The last <paramref name="segments"/> dot-separated segments of a name (all of it when it has fewer).</summary>
    private static string Tail(string name, int segments)
    {
        var start = name.Length;
        for (var i = 0; i < segments && start > 0; i++)
        {
            start = name.LastIndexOf('.', start - 1);
            if (start < 0)
            {
                return name;
            }
        }
        return name[(start + 1)..];
    }

    /// <summary>Levenshtein distance, two rows at a time.</summary>
    internal static int Distance(string a, string b)
    {
        var previous = new int[b.Length + 1];
        var current = new int[b.Length + 1];
        for (var j = 0; j <= b.Length; j++)
        {
            previous[j] = j;
        }
        for (var i = 1; i <= a.Length; i++)
        {
            current[0] = i;
            for (var j = 1; j <= b.Length; j++)
            {
                current[j] = Math.Min(Math.Min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1));
            }
            (previous, current) = (current, previous);
        }
        return previous[b.Length];
    }
}
