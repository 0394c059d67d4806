using AsyncCost.Report;

namespace AsyncCost.Tests.Report;

/// <summary>What each figure of a report stands for: its own pass's operations and seconds, never another pass's.</summary>
public sealed class PassBasisTests
{
    /// <summary>An attached run: a 2 s allocation pass, and a hop pass that recorded 0.505 s of windows across 10 s, its counts
    /// scaled to the whole 10 s by the thread pool's work items.</summary>
    private static readonly AsyncCostReport Attached = new()
    {
        Source = new ReportSource { Kind = SourceKind.Attach },
        Duration = TimeSpan.FromSeconds(2.505),
        Passes =
        [
            new PassSummary { Pass = MeasurementPasses.Allocations, Duration = TimeSpan.FromSeconds(2) },
            new PassSummary { Pass = MeasurementPasses.Hops, Duration = TimeSpan.FromSeconds(0.505), Unrecorded = TimeSpan.FromSeconds(9.495) },
        ],
    };

    [Fact]
    public void A_windowed_hop_passs_scaled_counts_are_a_rate_over_the_seconds_they_stand_for_not_over_its_windows()
    {
        // 4,110,130 hops scaled to the pass: 411,013/s over its 10 s, not 8.1 M/s over the windows' 0.505 s.
        var hops = Figure.Exact(4_110_130, FigureSource.HopPass);

        Assert.Equal(411_013, PassBasis.PerSecond(hops, Attached)!.Value, 1);
        Assert.Equal(1_000, PassBasis.PerSecond(Figure.Exact(2_000, FigureSource.AllocationPass), Attached)!.Value, 9);
        // An attached run knows no operations: nothing per operation, rather than another pass's count.
        Assert.Null(PassBasis.PerOperation(hops, Attached));
    }

    [Fact]
    public void Per_operation_each_figure_is_over_its_own_passs_operations_and_a_given_count_fills_only_passes_that_know_none()
    {
        var selfTimed = Attached with
        {
            Passes = [Attached.Passes[0] with { Operations = 6_601_796 }, Attached.Passes[1] with { Operations = null }],
        };

        Assert.Equal(104, PassBasis.PerOperation(Figure.Exact(6_601_796 * 104.0, FigureSource.AllocationPass), selfTimed)!.Value, 9);
        Assert.Null(PassBasis.PerOperation(Figure.Exact(186_610, FigureSource.HopPass), selfTimed));
        Assert.False(PassBasis.KnowsOperations(selfTimed));

        var given = PassBasis.WithGivenOperations(selfTimed, 6_601_796, "run.json");
        Assert.Equal([6_601_796L, 6_601_796L], given.Passes.Select(p => p.Operations!.Value));
        var refused = Assert.Throws<OperationsContradictedException>(() => PassBasis.WithGivenOperations(selfTimed, 186_610, "run.json"));
        Assert.Equal("--operations 186,610 contradicts the 6,601,796 operations run.json's allocations pass knows (the command printed "
            + "'asynccost: 6601796 operations', or an earlier --operations said so): --operations applies only to a run that knows none; leave it out, or make it agree.",
            refused.Message);
    }
}
