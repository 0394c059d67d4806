using AsyncCost.Attribution;

namespace AsyncCost.Tests.Attribution;

public class AsyncMethodNameTests
{
    [Theory]
    [InlineData("Ns.Service+<GetAsync>d__3", "Ns.Service.GetAsync", "Ns.Service.GetAsync", GeneratedTypeKind.StateMachine, 3)]
    [InlineData("Ns.Outer+Inner+<GetAsync>d__0", "Ns.Outer.Inner.GetAsync", "Ns.Outer.Inner.GetAsync", GeneratedTypeKind.StateMachine, 0)]
    [InlineData("Ns.Cache`1+<GetAsync>d__2", "Ns.Cache.GetAsync", "Ns.Cache<T>.GetAsync", GeneratedTypeKind.StateMachine, 2)]
    [InlineData("Ns.Map`2+<GetAsync>d__2`1[[System.Int32, System.Private.CoreLib],[System.String, System.Private.CoreLib]]", "Ns.Map.GetAsync", "Ns.Map<T1,T2>.GetAsync", GeneratedTypeKind.StateMachine, 2)]
    [InlineData("Ns.Program+<<Main>g__Local|0_0>d", "Ns.Program.Main.Local", "Ns.Program.Main.Local", GeneratedTypeKind.LocalFunctionStateMachine, 0)]
    [InlineData("Ns.Factory+<<Execute>g__ExecuteAwaited|133_0>d`1", "Ns.Factory.Execute.ExecuteAwaited", "Ns.Factory.Execute.ExecuteAwaited", GeneratedTypeKind.LocalFunctionStateMachine, 133)] // a generic local function: its arity after the d
    [InlineData("Program+<<<Main>$>g__Work|0_1>d", "Program.<Main>$.Work", "Program.Main.Work", GeneratedTypeKind.LocalFunctionStateMachine, 0)]
    [InlineData("Ns.Program+<>c+<<Main>b__0_0>d", "Ns.Program.Main.lambda#0", "Ns.Program.Main.lambda#0", GeneratedTypeKind.LambdaStateMachine, 0)]
    [InlineData("Ns.Program+<>c+<<Main>b__0_3>d", "Ns.Program.Main.lambda#3", "Ns.Program.Main.lambda#3", GeneratedTypeKind.LambdaStateMachine, 0)]
    [InlineData("Ns.Program+<>c__DisplayClass4_0+<<Run>b__1>d", "Ns.Program.Run.lambda#1", "Ns.Program.Run.lambda#1", GeneratedTypeKind.LambdaStateMachine, null)]
    [InlineData("Ns.Program+<>c__DisplayClass4_0+<<Run>g__Local|2>d", "Ns.Program.Run.Local", "Ns.Program.Run.Local", GeneratedTypeKind.LocalFunctionStateMachine, null)]
    [InlineData("Ns.Service/<GetAsync>d__3", "Ns.Service.GetAsync", "Ns.Service.GetAsync", GeneratedTypeKind.StateMachine, 3)]
    [InlineData("Ns.Service.<GetAsync>d__3", "Ns.Service.GetAsync", "Ns.Service.GetAsync", GeneratedTypeKind.StateMachine, 3)]
    [InlineData("Ns.Service+<GetAsync>d__3, MyAssembly, Version=1.0.0.0", "Ns.Service.GetAsync", "Ns.Service.GetAsync", GeneratedTypeKind.StateMachine, 3)]
    [InlineData("Global+<RunAsync>d__0", "Global.RunAsync", "Global.RunAsync", GeneratedTypeKind.StateMachine, 0)]
    public void Turns_state_machine_names_back_into_methods(string typeName, string key, string display, GeneratedTypeKind kind, int? ordinal)
    {
        var name = AsyncMethodName.Parse(typeName);

        Assert.NotNull(name);
        Assert.Equal(key, name.MethodKey);
        Assert.Equal(display, name.DisplayName);
        Assert.Equal(kind, name.Kind);
        Assert.Equal(ordinal, name.MemberOrdinal);
    }

    [Theory]
    [InlineData("Ns.Program+<>c+<<Main>b__0_2>d", 2)]
    [InlineData("Ns.Program+<>c__DisplayClass0_0+<<Main>b__4>d", 4)]
    [InlineData("Ns.Program+<<Main>g__Local|0_5>d", 5)]
    public void Lambdas_and_local_functions_keep_the_compilers_ordinal_within_their_member(string typeName, int lambdaOrdinal)
    {
        Assert.Equal(lambdaOrdinal, AsyncMethodName.Parse(typeName)!.LambdaOrdinal);
    }

    [Fact]
    public void An_async_lambda_a_local_function_and_their_method_have_three_keys()
    {
        // The names the compiler gave the three state machines of one method (checked against emitted code in the analyzer's tests).
        var keys = new[] { "Shop.Feed+<RunAsync>d__2", "Shop.Feed+<<RunAsync>g__PollAsync|2_0>d", "Shop.Feed+<>c+<<RunAsync>b__2_1>d" }
            .Select(n => AsyncMethodName.Parse(n)!.MethodKey);

        Assert.Equal(["Shop.Feed.RunAsync", "Shop.Feed.RunAsync.PollAsync", "Shop.Feed.RunAsync.lambda#1"], keys);
    }

    [Fact]
    public void Closures_keep_their_type_and_member_ordinal()
    {
        var name = AsyncMethodName.Parse("Ns.Service+<>c__DisplayClass3_0");

        Assert.NotNull(name);
        Assert.Equal(GeneratedTypeKind.Closure, name.Kind);
        Assert.Equal("Ns.Service", name.TypeKey);
        Assert.Null(name.MemberName);
        Assert.Equal(3, name.MemberOrdinal);
    }

    [Theory]
    [InlineData("System.String")]
    [InlineData("System.Threading.Tasks.Task`1[System.Decimal]")]
    [InlineData("<GetAsync>d__3")]
    [InlineData("Ns.Service+Nested")]
    [InlineData("Ns.Service+<>c")]
    [InlineData("Ns.Service+<Items>k__BackingField")]
    [InlineData("")]
    public void Returns_null_for_names_that_are_not_async_types(string typeName)
    {
        Assert.Null(AsyncMethodName.Parse(typeName));
    }
}
