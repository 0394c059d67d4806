using AsyncCost.Attribution;

namespace AsyncCost.Tests.Attribution;

/// <summary>Method names from a trace's own method events (the shapes .NET 10 writes in MethodLoadVerbose and
/// MethodDCStopVerbose), and the assemblies on disk as the fallback for traces without them.</summary>
public class MethodCatalogTests
{
    private const string TaskOfDecimal = "System.Threading.Tasks.Task`1[System.Decimal]";

    private static MethodCatalog FromTrace()
    {
        var catalog = new MethodCatalog();
        // A struct state machine's MoveNext, its box, and the async method's stub, as the runtime prints them.
        catalog.AddMethod("Shop.Prices+<GetPriceAsync>d__2", "MoveNext", "instance void  ()");
        catalog.AddMethod("System.Runtime.CompilerServices.AsyncTaskMethodBuilder`1+AsyncStateMachineBox`1[System.Decimal,Shop.Discounts+<GetDiscountAsync>d__1]", "MoveNext", "instance void  ()");
        catalog.AddMethod("Shop.Prices", "GetPriceAsync", "instance class System.Threading.Tasks.Task`1<value class System.Decimal>  (class System.String)");
        catalog.AddMethod("Shop.Discounts", "GetDiscountAsync", "instance class System.Threading.Tasks.Task`1<value class System.Decimal>  (int32)");
        catalog.AddMethod("Shop.Prices", "GetCountAsync", "instance class System.Threading.Tasks.Task`1<int32>  ()"); // no state machine: not async
        catalog.AddModule("/nonexistent/Shop.dll");
        return catalog;
    }

    [Fact]
    public void Resolves_a_short_state_machine_name_from_MoveNext_and_from_a_box()
    {
        var catalog = FromTrace();

        Assert.Equal(["Shop.Prices+<GetPriceAsync>d__2"], catalog.StateMachinesNamed("<GetPriceAsync>d__2"));
        Assert.Equal(["Shop.Discounts+<GetDiscountAsync>d__1"], catalog.StateMachinesNamed("<GetDiscountAsync>d__1"));
    }

    [Fact]
    public void Links_each_async_stub_to_its_state_machine_by_the_task_type_it_returns()
    {
        var methods = FromTrace().MethodsReturning(TaskOfDecimal).Select(m => m.MethodKey).Order().ToList();

        Assert.Equal(["Shop.Discounts.GetDiscountAsync", "Shop.Prices.GetPriceAsync"], methods);
    }

    [Fact]
    public void A_method_returning_a_task_without_a_state_machine_is_not_an_async_method()
    {
        Assert.Empty(FromTrace().MethodsReturning("System.Threading.Tasks.Task`1[System.Int32]"));
    }

    [Fact]
    public void A_method_named_by_its_load_event_and_again_by_the_rundown_counts_once()
    {
        var catalog = FromTrace();
        var before = catalog.MethodEvents;

        catalog.AddMethod("Shop.Prices", "GetPriceAsync", "instance class System.Threading.Tasks.Task`1<value class System.Decimal>  (class System.String)");

        Assert.Equal(before, catalog.MethodEvents);
        Assert.Single(catalog.MethodsReturning(TaskOfDecimal), m => m.MethodKey == "Shop.Prices.GetPriceAsync");
    }

    [Fact]
    public void Generic_declaring_types_link_through_their_instantiation()
    {
        var catalog = new MethodCatalog();
        catalog.AddMethod("Shop.Cache`1+<GetAsync>d__3[System.__Canon]", "MoveNext", "instance void  ()");
        catalog.AddMethod("Shop.Cache`1[System.__Canon]", "GetAsync", "instance class System.Threading.Tasks.Task`1<value class System.Decimal>  (!0)");

        Assert.Equal("Shop.Cache.GetAsync", Assert.Single(catalog.MethodsReturning(TaskOfDecimal)).MethodKey);
    }

    [Fact]
    public void Trace_names_win_over_assemblies_on_disk()
    {
        var catalog = FromTrace();
        catalog.AddModule(Support.WorkloadProcess.DllPath);

        Assert.False(catalog.UsedAssemblies);
        Assert.Empty(catalog.StateMachinesNamed("<YieldOnceAsync>d__0"));
    }

    [Fact]
    public void Without_method_events_the_assemblies_on_disk_name_the_methods()
    {
        var catalog = new MethodCatalog();
        catalog.AddModule(Support.WorkloadProcess.DllPath);

        Assert.Equal(["AsyncCost.Workload.Scenarios+<YieldOnceAsync>d__0"], catalog.StateMachinesNamed("<YieldOnceAsync>d__0"));
        Assert.Equal("AsyncCost.Workload.PriceService.GetPriceTaskAsync", Assert.Single(catalog.MethodsReturning(TaskOfDecimal)).MethodKey);
        Assert.Contains("AsyncCost.Workload.Scenarios.HandoffAsync", catalog.MethodsReturning("System.Threading.Tasks.Task`1[System.Int32]").Select(m => m.MethodKey));
        Assert.True(catalog.UsedAssemblies);
    }

    [Fact]
    public void Framework_and_missing_assemblies_name_nothing()
    {
        var catalog = new MethodCatalog();
        catalog.AddModule("/usr/share/dotnet/shared/Microsoft.NETCore.App/10.0.0/System.Private.CoreLib.dll");
        catalog.AddModule("/nonexistent/App.dll");

        Assert.Empty(catalog.AllStateMachines());
        Assert.False(catalog.UsedAssemblies);
    }
}

public class MethodSignatureTextTests
{
    [Theory]
    [InlineData("instance class System.Threading.Tasks.Task`1<value class System.Decimal>  (int32)", "System.Threading.Tasks.Task`1[System.Decimal]")]
    [InlineData("class System.Threading.Tasks.Task`1<int32>  (class System.String,bool)", "System.Threading.Tasks.Task`1[System.Int32]")]
    [InlineData("instance class System.Threading.Tasks.Task`1<value class System.ValueTuple`2<int64,value class System.Decimal>>  ()", "System.Threading.Tasks.Task`1[System.ValueTuple`2[System.Int64,System.Decimal]]")]
    [InlineData("instance class System.Threading.Tasks.Task`1<class System.String[]>  ()", "System.Threading.Tasks.Task`1[System.String[]]")]
    [InlineData("instance class System.Threading.Tasks.Task`1<!0>  (!0)", "System.Threading.Tasks.Task`1[!0]")]
    [InlineData("instance void  ()", "System.Void")]
    [InlineData("value class System.Threading.Tasks.ValueTask`1<unsigned int8>  ()", "System.Threading.Tasks.ValueTask`1[System.Byte]")]
    public void Reads_the_return_type_as_allocation_events_print_it(string signature, string expected)
        => Assert.Equal(expected, MethodSignatureText.ReturnType(signature));

    [Theory]
    [InlineData("")]
    [InlineData("not a signature")]
    [InlineData("(int32)")]
    public void Text_that_is_not_a_signature_gives_no_type(string signature)
        => Assert.Null(MethodSignatureText.ReturnType(signature));

    [Fact]
    public void Stack_frames_resolve_to_the_async_method_they_run_whether_MoveNext_or_the_method_it_was_inlined_into()
    {
        var catalog = new MethodCatalog();
        catalog.AddMethod("Shop.Prices+<GetPriceAsync>d__2", "MoveNext", "instance void  ()");
        catalog.AddMethod("Shop.Cache`1+<GetAsync>d__4", "MoveNext", "instance void  ()");
        catalog.AddMethod("Program+<<<Main>$>g__RunAsync|0_3>d", "MoveNext", "instance void  ()");
        var asyncMethodOf = catalog.AsyncMethodFrames();

        Assert.Equal("Shop.Prices.GetPriceAsync", asyncMethodOf("Shop.Prices+<GetPriceAsync>d__2.MoveNext")?.MethodKey);
        Assert.Equal("Shop.Prices.GetPriceAsync", asyncMethodOf("Shop.Prices.GetPriceAsync")?.MethodKey);
        Assert.Equal("Shop.Cache.GetAsync", asyncMethodOf("Shop.Cache`1[System.__Canon].GetAsync")?.MethodKey);
        Assert.Equal("Program.<Main>$.RunAsync", asyncMethodOf("Program.<<Main>$>g__RunAsync|0_3")?.MethodKey);
        Assert.Null(asyncMethodOf("Shop.Prices.GetPrice")); // a synchronous sibling
        Assert.Null(asyncMethodOf("System.Collections.Generic.Dictionary`2[System.__Canon,System.Decimal].FindValue"));
        Assert.Null(asyncMethodOf("NoDotAtAll"));
    }
}
