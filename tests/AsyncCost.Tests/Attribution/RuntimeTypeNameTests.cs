using AsyncCost.Attribution;
using AsyncCost.Report;

namespace AsyncCost.Tests.Attribution;

public class RuntimeTypeNameTests
{
    [Fact]
    public void Reads_the_box_name_allocation_events_print()
    {
        var name = RuntimeTypeName.Parse("AsyncStateMachineBox`1[System.Int32,AsyncCost.Workload.Scenarios+<YieldOnceAsync>d__0]");

        Assert.Equal("AsyncStateMachineBox`1", name.Name);
        Assert.Equal(["System.Int32", "AsyncCost.Workload.Scenarios+<YieldOnceAsync>d__0"], name.Arguments.Select(a => a.Name));
        Assert.Equal("", name.ArraySuffix);
    }

    [Fact]
    public void Reads_assembly_qualified_and_nested_generic_arguments()
    {
        var name = RuntimeTypeName.Parse("System.Threading.Tasks.Task`1[[System.Collections.Generic.List`1[[System.Int32, System.Private.CoreLib]], System.Private.CoreLib, Version=10.0.0.0]]");

        var argument = Assert.Single(name.Arguments);
        Assert.Equal("System.Collections.Generic.List`1", argument.Name);
        Assert.Equal("System.Int32", Assert.Single(argument.Arguments).Name);
    }

    [Theory]
    [InlineData("System.Object[]", "System.Object", "[]")]
    [InlineData("Entry[System.Int32,System.String][]", "Entry", "[]")]
    [InlineData("System.Int32[,]", "System.Int32", "[,]")]
    public void Reads_arrays(string text, string element, string suffix)
    {
        var name = RuntimeTypeName.Parse(text);

        Assert.Equal(element, name.Name);
        Assert.Equal(suffix, name.ArraySuffix);
    }
}

public class AllocationClassifierTests
{
    [Theory]
    [InlineData("AsyncStateMachineBox`1[System.Int32,Ns.Service+<GetAsync>d__3]", AllocationKind.StateMachineBox, "Ns.Service.GetAsync")]
    [InlineData("DebugFinalizableAsyncStateMachineBox`1[System.Decimal,Ns.Service+<GetAsync>d__3]", AllocationKind.StateMachineBox, "Ns.Service.GetAsync")]
    [InlineData("System.Runtime.CompilerServices.PoolingAsyncValueTaskMethodBuilder`1+StateMachineBox`1[[System.Int32, System.Private.CoreLib],[Ns.Service+<GetAsync>d__3, App]]", AllocationKind.StateMachineBox, "Ns.Service.GetAsync")]
    [InlineData("Ns.Service+<GetAsync>d__3", AllocationKind.StateMachine, "Ns.Service.GetAsync")]
    [InlineData("<GetAsync>d__3", AllocationKind.StateMachine, "?.GetAsync")]
    [InlineData("Ns.Service+<>c__DisplayClass3_0", AllocationKind.Closure, "Ns.Service")]
    [InlineData("System.Threading.Tasks.Task`1[System.Decimal]", AllocationKind.Task, null)]
    [InlineData("System.Action", AllocationKind.Delegate, null)]
    [InlineData("System.Func`2[System.Int32,System.String]", AllocationKind.Delegate, null)]
    [InlineData("System.String", AllocationKind.Other, null)]
    [InlineData("Ns.Service+<GetAsync>d__3[]", AllocationKind.Other, null)]
    public void Classifies_what_an_allocated_type_is_to_async_code(string typeName, AllocationKind kind, string? methodKey)
    {
        var result = AllocationClassifier.Classify(typeName);

        Assert.Equal(kind, result.Kind);
        Assert.Equal(methodKey, result.Method?.MethodKey);
    }
}
