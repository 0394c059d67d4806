using AsyncCost.Computers;
using AsyncCost.Events;

namespace AsyncCost.Tests.Computers;

public class AllocationComputerTests
{
    /// <summary>Samples a known allocation stream the way .NET 10 does (each byte a trial with p = 1/102,400) and feeds the samples.</summary>
    private static AllocationComputer SampleStream(Random random, params (string Type, int Size, int Count)[] stream)
    {
        var computer = new AllocationComputer();
        foreach (var (type, size, count) in stream)
        {
            var probability = 1 - Math.Pow(1 - KnownEvents.AllocationSamplingProbability, size);
            for (var i = 0; i < count; i++)
            {
                if (random.NextDouble() < probability)
                {
                    computer.OnAllocationSampled(type, size);
                }
            }
        }
        return computer;
    }

    [Fact]
    public void The_unbiased_estimator_recovers_known_totals_within_its_bound()
    {
        var computer = SampleStream(new Random(12345), ("Small", 80, 4_000_000), ("Large", 90_000, 20_000));

        var small = computer.Results().Single(t => t.TypeName == "Small");
        var large = computer.Results().Single(t => t.TypeName == "Large");
        // 4 M x 80 B = 320 MB (about 3,100 samples); 20,000 x 90 KB = 1.8 GB, each object sampled with probability 0.58.
        Assert.InRange(small.Bytes, 320e6 - 1.5 * TypeTally.Bound(small.BytesVariance), 320e6 + 1.5 * TypeTally.Bound(small.BytesVariance));
        Assert.InRange(small.Objects, 4e6 * 0.95, 4e6 * 1.05);
        Assert.InRange(TypeTally.Bound(small.BytesVariance) / small.Bytes, 0.03, 0.045); // ≈ 1.96/√3100
        Assert.InRange(large.Objects, 20_000 - 1.5 * TypeTally.Bound(large.ObjectsVariance), 20_000 + 1.5 * TypeTally.Bound(large.ObjectsVariance));
        Assert.True(TypeTally.Bound(large.BytesVariance) / large.Bytes < 0.015, "large objects are sampled often, so their bound is tight");
        Assert.Equal("AllocationSampled", computer.EventKind);
    }

    [Fact]
    public void Ten_thousand_samples_give_about_two_percent()
    {
        var computer = SampleStream(new Random(7), ("Box", 96, 10_700_000));

        var box = Assert.Single(computer.Results());
        Assert.InRange(box.Samples, 9_500, 10_500);
        Assert.InRange(TypeTally.Bound(box.BytesVariance) / box.Bytes, 0.018, 0.022);
        Assert.InRange(box.Bytes / (96.0 * 10_700_000), 0.96, 1.04);
    }

    [Fact]
    public void Allocation_ticks_charge_the_stride_to_the_type_that_crossed_it()
    {
        var computer = new AllocationComputer();
        for (var i = 0; i < 100; i++)
        {
            computer.OnAllocationTick("System.Threading.Tasks.Task`1[System.Decimal]", 100_000, 80);
        }

        var task = Assert.Single(computer.Results());
        Assert.Equal(10_000_000, task.Bytes);
        Assert.Equal(125_000, task.Objects);
        Assert.Equal(0.196, TypeTally.Bound(task.BytesVariance) / task.Bytes, 3); // 1.96/√100
        Assert.Equal("GCAllocationTick", computer.EventKind);
    }

    [Fact]
    public void Ticks_are_ignored_once_AllocationSampled_is_seen()
    {
        var computer = new AllocationComputer();
        computer.OnAllocationSampled("A", 100);
        computer.OnAllocationTick("A", 100_000, 100);

        Assert.Equal(1, Assert.Single(computer.Results()).Samples);
    }

    [Fact]
    public void Two_streams_added_give_the_estimates_of_one_stream_holding_both()
    {
        var first = new AllocationComputer();
        var second = new AllocationComputer();
        var both = new AllocationComputer();
        foreach (var (computer, type, size) in new[] { (first, "A", 96), (first, "B", 40), (second, "A", 96), (second, "C", 500) })
        {
            computer.OnAllocationSampled(type, size);
            both.OnAllocationSampled(type, size);
        }

        first.Add(second);

        Assert.Equal(both.Samples, first.Samples);
        Assert.Equal(
            both.Results().Select(t => (t.TypeName, t.Samples, t.Bytes, t.BytesVariance, t.Objects, t.ObjectsVariance)),
            first.Results().Select(t => (t.TypeName, t.Samples, t.Bytes, t.BytesVariance, t.Objects, t.ObjectsVariance)));
    }

    [Fact]
    public void Adding_a_stream_of_ticks_to_sampled_estimates_keeps_them_unmixed()
    {
        var sampled = new AllocationComputer();
        sampled.OnAllocationSampled("A", 100);
        var ticks = new AllocationComputer();
        ticks.OnAllocationTick("A", 100_000, 100);

        sampled.Add(ticks);
        ticks.Add(sampled);

        Assert.Equal(1, Assert.Single(sampled.Results()).Samples);
        Assert.Equal("AllocationSampled", ticks.EventKind);
        Assert.Equal(1, Assert.Single(ticks.Results()).Samples);
    }
}
