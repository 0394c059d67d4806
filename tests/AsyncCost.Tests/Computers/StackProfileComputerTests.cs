using AsyncCost.Attribution;
using AsyncCost.Computers;

namespace AsyncCost.Tests.Computers;

public class StackProfileComputerTests
{
    private const int Main = 1, Worker = 2;

    private static readonly Func<string, AsyncMethodName?> AsyncMethodOf = Catalog().AsyncMethodFrames();

    private static MethodCatalog Catalog()
    {
        var catalog = new MethodCatalog();
        catalog.AddMethod("Shop.Checkout+<RunAsync>d__0", "MoveNext", "instance void  ()");
        return catalog;
    }

    [Fact]
    public void Stacks_are_kept_root_first_per_thread_in_time_order_with_the_reports_method_names()
    {
        var stacks = new StackProfileComputer();
        stacks.OnSample(Main, 3, SampledThreadState.Managed, ["Shop.Prices.Lookup", "Shop.Checkout+<RunAsync>d__0.MoveNext"], AsyncMethodOf);
        stacks.OnSample(Main, 1, SampledThreadState.Managed, ["Shop.Checkout+<RunAsync>d__0.MoveNext"], AsyncMethodOf);
        stacks.OnSample(Worker, 2, SampledThreadState.External, ["System.Threading.Thread.Sleep"], AsyncMethodOf);

        var profile = stacks.Result(["run.cpu.nettrace"]);

        Assert.Equal(["Shop.Prices.Lookup", "Shop.Checkout.RunAsync", "System.Threading.Thread.Sleep"], profile.Frames); // as first seen
        var main = profile.Threads.Single(t => t.ThreadId == Main);
        Assert.Equal((1, 3), (main.StartMs, main.EndMs));
        Assert.Equal([[1], [1, 0]], main.Samples.Select(s => s.ToArray()));
        Assert.Equal(2, profile.IntervalMs); // Main's one interval; Worker's single sample spans none
    }

    [Fact]
    public void Without_a_thread_sampled_twice_a_sample_weighs_the_profilers_default_millisecond()
    {
        var stacks = new StackProfileComputer();
        stacks.OnSample(Main, 5, SampledThreadState.Managed, ["Shop.Checkout+<RunAsync>d__0.MoveNext"], AsyncMethodOf);
        stacks.OnSample(Worker, 9, SampledThreadState.Managed, ["Shop.Checkout+<RunAsync>d__0.MoveNext"], AsyncMethodOf);

        Assert.Equal(1.0, stacks.Result(["run.cpu.nettrace"]).IntervalMs);
    }
}
