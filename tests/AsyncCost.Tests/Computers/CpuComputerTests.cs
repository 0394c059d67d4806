using AsyncCost.Attribution;
using AsyncCost.Computers;

namespace AsyncCost.Tests.Computers;

public class CpuComputerTests
{
    private const int Main = 1, Worker = 2;

    private static readonly Func<string, AsyncMethodName?> AsyncMethodOf = Catalog().AsyncMethodFrames();

    private static MethodCatalog Catalog()
    {
        var catalog = new MethodCatalog();
        catalog.AddMethod("Shop.Prices+<GetPriceAsync>d__2", "MoveNext", "instance void  ()");
        catalog.AddMethod("Shop.Checkout+<RunAsync>d__0", "MoveNext", "instance void  ()");
        return catalog;
    }

    private static long Running(CpuComputer cpu, string key) => cpu.Results().Single(m => m.Method.MethodKey == key).Running;

    private static long Waiting(CpuComputer cpu, string key) => cpu.Results().Single(m => m.Method.MethodKey == key).Waiting;

    [Fact]
    public void A_sample_goes_to_the_innermost_async_method_with_the_synchronous_code_it_calls()
    {
        var cpu = new CpuComputer();
        cpu.OnSample(Main, 0, SampledThreadState.Managed,
            ["System.Collections.Generic.Dictionary`2[System.__Canon,System.Decimal].FindValue", "Shop.Prices+<GetPriceAsync>d__2.MoveNext", "Shop.Checkout+<RunAsync>d__0.MoveNext"], AsyncMethodOf);
        // MoveNext inlined into the method itself (a call that completed synchronously, in tiered code).
        cpu.OnSample(Main, 1, SampledThreadState.Managed, ["Shop.Prices.GetPriceAsync", "Shop.Checkout+<RunAsync>d__0.MoveNext"], AsyncMethodOf);
        cpu.OnSample(Main, 2, SampledThreadState.Managed, ["Shop.Checkout+<RunAsync>d__0.MoveNext", "Program.Main"], AsyncMethodOf);
        cpu.OnSample(Main, 3, SampledThreadState.Managed, ["System.Threading.PortableThreadPool+WorkerThread.WorkerThreadStart"], AsyncMethodOf);

        Assert.Equal(2, Running(cpu, "Shop.Prices.GetPriceAsync"));
        Assert.Equal(1, Running(cpu, "Shop.Checkout.RunAsync"));
        Assert.Equal(1, cpu.OutsideAsyncMethods);
        Assert.Equal(4, cpu.Samples);
    }

    [Fact]
    public void A_thread_outside_managed_code_in_a_wait_its_method_made_is_blocked_and_one_spinning_in_managed_code_is_running()
    {
        var cpu = new CpuComputer();
        string[] waiting = ["System.Threading.ManualResetEventSlim.Wait", "System.Threading.Tasks.Task.SpinThenBlockingWait", "Shop.Checkout+<RunAsync>d__0.MoveNext"];
        cpu.OnSample(Worker, 0, SampledThreadState.External, waiting, AsyncMethodOf);
        cpu.OnSample(Worker, 1, SampledThreadState.Managed, waiting, AsyncMethodOf);
        // A wait below the async frame (its caller's) is not the method's.
        cpu.OnSample(Worker, 2, SampledThreadState.External, ["Shop.Checkout+<RunAsync>d__0.MoveNext", "System.Threading.Monitor.Wait"], AsyncMethodOf);

        Assert.Equal(1, Waiting(cpu, "Shop.Checkout.RunAsync"));
        Assert.Equal(2, Running(cpu, "Shop.Checkout.RunAsync"));
    }

    [Fact]
    public void The_interval_is_the_mean_gap_between_one_threads_samples_and_streams_add()
    {
        var first = new CpuComputer();
        foreach (var ms in new[] { 0.0, 2, 4, 6 })
        {
            first.OnSample(Main, ms, SampledThreadState.Managed, ["Shop.Checkout+<RunAsync>d__0.MoveNext"], AsyncMethodOf);
        }
        first.OnSample(Worker, 10, SampledThreadState.Managed, ["Shop.Checkout+<RunAsync>d__0.MoveNext"], AsyncMethodOf);
        Assert.Equal(2, first.IntervalMs); // a thread with one sample spans no interval

        var second = new CpuComputer();
        second.OnSample(Main, 100, SampledThreadState.Managed, ["Shop.Checkout+<RunAsync>d__0.MoveNext"], AsyncMethodOf);
        second.OnSample(Main, 108, SampledThreadState.Managed, ["Shop.Checkout+<RunAsync>d__0.MoveNext"], AsyncMethodOf);
        first.Add(second);

        Assert.Equal((6 + 8) / 4.0, first.IntervalMs); // spans add, the gap between the streams is not one
        Assert.Equal(7, Running(first, "Shop.Checkout.RunAsync"));
        Assert.Null(new CpuComputer().IntervalMs);
    }
}
