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
    public void Threads_come_busiest_first_and_are_named_by_what_they_ran()
    {
        var stacks = new StackProfileComputer();
        // The main thread waits for the whole run (sampled outside managed code); the request thread runs.
        for (var t = 0; t < 10; t++)
        {
            stacks.OnSample(Main, t, SampledThreadState.External, ["System.Threading.Monitor.Wait", "Shop.Program.<Main>"], AsyncMethodOf);
        }
        for (var t = 0; t < 4; t++)
        {
            stacks.OnSample(Worker, t, SampledThreadState.Managed,
                ["Shop.Checkout+<RunAsync>d__0.MoveNext", "Microsoft.AspNetCore.Server.Kestrel.Core.Internal.Http.HttpProtocol+<ProcessRequests>d__238`1.MoveNext",
                 "System.Threading.ThreadPoolWorkQueue.Dispatch"], AsyncMethodOf);
        }

        var profile = stacks.Result(["run.cpu.nettrace"]);

        Assert.Equal([Worker, Main], profile.Threads.Select(t => t.ThreadId));
        Assert.Equal(["Thread 2: requests, 4 ms running", "Thread 1: main, 0 ms running"], profile.Threads.Select(t => t.Name));
        Assert.Equal([4, 0], profile.Threads.Select(t => t.RunningSamples));
    }

    [Theory]
    [InlineData("Shop.Checkout+<RunAsync>d__0.MoveNext", "Shop.Checkout.RunAsync")]
    [InlineData("System.Runtime.CompilerServices.AsyncTaskMethodBuilder`1+AsyncStateMachineBox`1[System.Decimal,Shop.Prices+<GetPriceAsync>d__2].MoveNext",
        "Shop.Prices.GetPriceAsync (AsyncStateMachineBox.MoveNext)")]
    [InlineData("System.Runtime.CompilerServices.AsyncTaskMethodBuilder`1+AsyncStateMachineBox`1[System.__Canon,Shop.Checkout+<RunAsync>d__0].ExecutionContextCallback",
        "Shop.Checkout.RunAsync (AsyncStateMachineBox.ExecutionContextCallback)")]
    [InlineData("System.Runtime.CompilerServices.AsyncTaskMethodBuilder`1+AsyncStateMachineBox`1[System.Threading.Tasks.VoidTaskResult,System.__Canon].MoveNext",
        "AsyncStateMachineBox.MoveNext")]
    [InlineData("Shop.Discounts+<CouponsAsync>d__5.System.Collections.Generic.IAsyncEnumerator<System.Decimal>.MoveNextAsync", "Shop.Discounts.CouponsAsync (MoveNextAsync)")]
    [InlineData("Program+<<Main>$>d__0.MoveNext", "Program.Main")]
    [InlineData("Program.<Main>", "Program.Main (entry point)")]
    [InlineData("Program.<Main>$", "Program.Main")]
    [InlineData("Program+<>c.<<Main>$>b__0_1", "Program.Main.lambda#1")]
    [InlineData("Program.<<Main>$>g__Refresh|0_2", "Program.Main.Refresh")]
    [InlineData("System.Threading.ThreadPool+<>c.<.cctor>b__48_0", "System.Threading.ThreadPool..cctor.lambda#0")]
    [InlineData("System.Diagnostics.Tracing.EventPipeEventDispatcher+<>c__DisplayClass15_0.<StartDispatchTask>b__0",
        "System.Diagnostics.Tracing.EventPipeEventDispatcher.StartDispatchTask.lambda#0")]
    [InlineData("System.Threading.Thread.<PollGC>g__PollGCWorker|67_0", "System.Threading.Thread.PollGC.PollGCWorker")]
    [InlineData("Shop.Cache`1+<>c[System.__Canon].<GetAsync>b__2_0", "Shop.Cache<T>.GetAsync.lambda#0")]
    [InlineData("System.Threading.Thread.Sleep", "System.Threading.Thread.Sleep")]
    public void Frames_of_async_methods_carry_the_reports_names_not_the_compilers(string frame, string shown)
    {
        Assert.Equal(shown, StackProfileComputer.ReadableName(frame, AsyncMethodOf));
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
