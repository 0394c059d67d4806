using AsyncCost.InProcess;
using AsyncCost.Report;

namespace AsyncCost.OpenTelemetry.Tests;

public sealed class SeriesBookTests
{
    private static MethodTotals Method(string key, double bytes, double hops = 0)
    {
        var method = new MethodTotals { MethodKey = key, DisplayName = key, Hops = hops, Calls = bytes / 100 };
        method.BytesByKind[AllocationKind.StateMachineBox] = bytes;
        return method;
    }

    private static AsyncCostSnapshot Snapshot(params MethodTotals[] methods) => new(methods, TimeSpan.FromSeconds(1), 0, 0, 0, 0);

    private static Dictionary<string, double> Bytes(SeriesBook book) => book.Current().ToDictionary(s => s.MethodKey, s => s.Bytes);

    [Fact]
    public void The_costliest_methods_keep_their_own_series_and_the_rest_add_up_in_other()
    {
        var book = new SeriesBook(maxMethods: 2);
        book.Advance(Snapshot(Method("A", 300), Method("B", 200), Method("C", 100), Method("D", 50)));

        Assert.Equal(new Dictionary<string, double> { ["A"] = 300, ["B"] = 200, [SeriesBook.Other] = 150 }, Bytes(book));
    }

    [Fact]
    public void Ranking_is_by_the_interval_increase_and_every_series_only_grows()
    {
        var book = new SeriesBook(maxMethods: 1);
        book.Advance(Snapshot(Method("A", 1_000), Method("B", 10)));
        // A is idle this interval, B grows: B takes the one series, A's later increases would go to (other).
        book.Advance(Snapshot(Method("A", 1_000), Method("B", 510)));

        Assert.Equal(new Dictionary<string, double> { ["B"] = 500, [SeriesBook.Other] = 10 }, Bytes(book));
        book.Advance(Snapshot(Method("A", 1_100), Method("B", 510)));
        Assert.Equal(new Dictionary<string, double> { ["A"] = 1_100, [SeriesBook.Other] = 10 }, Bytes(book));
    }

    [Fact]
    public void Methods_that_had_a_series_keep_it_while_there_is_room()
    {
        var book = new SeriesBook(maxMethods: 3);
        book.Advance(Snapshot(Method("A", 100), Method("B", 50)));
        book.Advance(Snapshot(Method("A", 100), Method("B", 50), Method("C", 10)));

        Assert.Equal(["C", "A", "B"], book.Current().Select(s => s.MethodKey));
    }

    [Fact]
    public void Methods_without_bytes_rank_by_hops_and_blocking_waits()
    {
        var book = new SeriesBook(maxMethods: 1);
        book.Advance(Snapshot(Method("Quiet", 0, hops: 5), Method("Hoppy", 0, hops: 50)));

        var series = Assert.Single(book.Current(), s => s.MethodKey != SeriesBook.Other);
        Assert.Equal("Hoppy", series.MethodKey);
    }

    [Fact]
    public void The_series_add_up_to_every_method_whatever_the_limit()
    {
        var book = new SeriesBook(maxMethods: 2);
        var running = new double[6];
        for (var interval = 1; interval <= 5; interval++)
        {
            // Each method grows by a different amount each interval, so the top two change.
            for (var m = 0; m < running.Length; m++)
            {
                running[m] += (m + 1) * ((m + interval) % 3 + 1);
            }
            book.Advance(Snapshot([.. running.Select((bytes, m) => Method("M" + m, bytes))]));
        }
        var totals = running.Sum();
        Assert.Equal(totals, book.Current().Sum(s => s.Bytes) + HiddenSeriesBytes(book), precision: 6);
    }

    /// <summary>Series that lost their place keep their total (they reappear if the method climbs back).</summary>
    private static double HiddenSeriesBytes(SeriesBook book) => book.AllSeries().Except(book.Current()).Sum(s => s.Bytes);
}
