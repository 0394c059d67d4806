using AsyncCost.InProcess;

namespace AsyncCost.OpenTelemetry;

/// <summary>
/// Bounded cardinality: turns running per-method totals into at most N method series plus <c>(other)</c>. Each interval's
/// increase of a method goes to its own series if the method is among the N costliest of the interval (or kept its series
/// from before while there is room), else to <c>(other)</c>. Every series only grows, and the series add up to all methods.
/// </summary>
internal sealed class SeriesBook(int maxMethods)
{
    /// <summary>The method tag of the series that takes every method without its own.</summary>
    public const string Other = "(other)";

    private readonly Dictionary<string, MethodTotals> _previous = new(StringComparer.Ordinal);
    private readonly Dictionary<string, MethodTotals> _series = new(StringComparer.Ordinal);
    private List<string> _owners = [];

    /// <summary>The series to publish now: the current owners' and <c>(other)</c>, if it has anything.</summary>
    public IEnumerable<MethodTotals> Current()
    {
        foreach (var owner in _owners)
        {
            yield return _series[owner];
        }
        if (_series.TryGetValue(Other, out var other))
        {
            yield return other;
        }
    }

    /// <summary>Every series ever opened, published or not.</summary>
    internal IEnumerable<MethodTotals> AllSeries() => _series.Values;

    /// <summary>Adds what each method gained since the previous snapshot.</summary>
    public void Advance(AsyncCostSnapshot snapshot)
    {
        var increases = new List<MethodTotals>();
        foreach (var method in snapshot.Methods)
        {
            var increase = Increase(method, _previous.GetValueOrDefault(method.MethodKey));
            _previous[method.MethodKey] = method;
            if (increase.Bytes > 0 || increase.Calls > 0 || increase.Hops > 0 || increase.Suspensions > 0 || increase.BlockingWaits > 0 || increase.ElapsedMilliseconds > 0)
            {
                increases.Add(increase);
            }
        }

        var costliest = increases
            .OrderByDescending(i => i.Bytes)
            .ThenByDescending(i => i.Hops + i.BlockingWaits)
            .ThenBy(i => i.MethodKey, StringComparer.Ordinal)
            .Select(i => i.MethodKey)
            .Take(maxMethods);
        _owners = [.. costliest.Concat(_owners).Distinct(StringComparer.Ordinal).Take(maxMethods)];
        var owners = _owners.ToHashSet(StringComparer.Ordinal);

        foreach (var increase in increases)
        {
            var name = owners.Contains(increase.MethodKey) ? increase.MethodKey : Other;
            if (!_series.TryGetValue(name, out var series))
            {
                series = new MethodTotals { MethodKey = name, DisplayName = name == Other ? Other : increase.DisplayName };
                _series.Add(name, series);
            }
            Add(series, increase);
        }
    }

    private static MethodTotals Increase(MethodTotals now, MethodTotals? before)
    {
        var increase = new MethodTotals
        {
            MethodKey = now.MethodKey,
            DisplayName = now.DisplayName,
            Calls = now.Calls - (before?.Calls ?? 0),
            Suspensions = now.Suspensions - (before?.Suspensions ?? 0),
            Hops = now.Hops - (before?.Hops ?? 0),
            BlockingWaits = now.BlockingWaits - (before?.BlockingWaits ?? 0),
            ElapsedMilliseconds = now.ElapsedMilliseconds - (before?.ElapsedMilliseconds ?? 0),
        };
        foreach (var (kind, bytes) in now.BytesByKind)
        {
            increase.BytesByKind[kind] = bytes - (before?.BytesByKind.GetValueOrDefault(kind) ?? 0);
        }
        return increase;
    }

    private static void Add(MethodTotals series, MethodTotals increase)
    {
        series.Calls += increase.Calls;
        series.Suspensions += increase.Suspensions;
        series.Hops += increase.Hops;
        series.BlockingWaits += increase.BlockingWaits;
        series.ElapsedMilliseconds += increase.ElapsedMilliseconds;
        foreach (var (kind, bytes) in increase.BytesByKind)
        {
            series.BytesByKind[kind] = series.BytesByKind.GetValueOrDefault(kind) + bytes;
        }
    }
}
