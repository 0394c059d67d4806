using AsyncCost.Analyzers.CodeFixes;
using AsyncCost.Analyzers.Rules;
using AsyncCost.Analyzers.Tests.Verification;
using Microsoft.CodeAnalysis;
using Verify = AsyncCost.Analyzers.Tests.Verification.AnalyzerVerifier<AsyncCost.Analyzers.Rules.AC0008ElidableStateMachineAnalyzer>;

namespace AsyncCost.Analyzers.Tests;

public class AC0008ElidableStateMachineTests : RuleTheories<AC0008ElidableStateMachineAnalyzer>
{
    // Callees every snippet can await.
    private const string Callees = """
        static Task<int> F(int x = 0) => Task.FromResult(x);
        static Task G() => Task.CompletedTask;
        static ValueTask<int> FV() => new(1);
        static ValueTask GV() => default;
        static Task<string> FS() => Task.FromResult("");

        """;

    protected override string Wrap(string members) => Snippet.InClass(Callees + members);

    // In a test the state machine costs nothing that matters, and the await keeps the test in a failure's stack trace.
    [Fact]
    public Task Is_silent_in_test_projects() =>
        Verify.VerifyAsync(Wrap("async Task<int> M() => await F();"), TestOptions.Default.WithBuildProperty("IsTestProject", "true"));

    public static TheoryData<string, string> MustFlag => new()
    {
        { "expression-bodied Task<int>", """
            [|async|] Task<int> M() => await F();
            """ },
        { "block with return await", """
            [|async|] Task<int> M() { return await F(); }
            """ },
        { "Task with a single await statement", """
            [|async|] Task M() { await G(); }
            """ },
        { "expression-bodied Task", """
            [|async|] Task M() => await G();
            """ },
        { "ValueTask<int> awaiting ValueTask<int>", """
            [|async|] ValueTask<int> M() => await FV();
            """ },
        { "ValueTask awaiting ValueTask", """
            [|async|] ValueTask M() { await GV(); }
            """ },
        { "ConfigureAwait(false) only configured the await", """
            [|async|] Task<int> M() => await F().ConfigureAwait(false);
            """ },
        { "arguments computed in the call", """
            [|async|] Task<int> M(int x) => await F(x * 2 + 1);
            """ },
        { "Task<int> returned as Task (SaveChangesAsync shape)", """
            [|async|] Task M() => await F();
            """ },
        { "generic method", """
            static [|async|] Task<T> M<T>(Func<Task<T>> f) => await f();
            """ },
        { "local function", """
            Task<int> M() { return Local(); [|async|] Task<int> Local() => await F(); }
            """ },
        { "an async lambda in the argument is not another await of this method", """
            public [|async|] Task M() => await Task.Run(async () => await G());
            """ },
    };

    public static TheoryData<string, string> MustNotFlag => new()
    {
        { "a completed-task await beside other work (not the whole body)", """
            async Task M() { await Task.CompletedTask; Console.WriteLine(); }
            """ },
        { "using statement (disposes before the task completes if elided)", """
            async Task<int> M() { using (var s = new System.IO.MemoryStream()) { return await F((int)s.Length); } }
            """ },
        { "using declaration", """
            async Task<int> M() { using var s = new System.IO.MemoryStream(); return await F((int)s.Length); }
            """ },
        { "try/catch", """
            async Task<int> M() { try { return await F(); } catch (InvalidOperationException) { return 0; } }
            """ },
        { "lock before the await", """
            readonly object _gate = new(); int _n;
            async Task<int> M() { lock (_gate) { _n++; } return await F(_n); }
            """ },
        { "another await first", """
            async Task<int> M() { await G(); return await F(); }
            """ },
        { "an await inside the awaited expression", """
            async Task<int> M() => await F(await F());
            """ },
        { "covariant Task<int> to Task<object>", """
            async Task<object> M() => await F();
            """ },
        { "Task awaited in a ValueTask method", """
            async ValueTask M() => await G();
            """ },
        { "ValueTask<int> awaited in a Task<int> method", """
            async Task<int> M() => await FV();
            """ },
        { "result converted int to long", """
            async Task<long> M() => await F();
            """ },
        { "nullability differs", """
            async Task<string?> M() => await FS();
            """ },
        { "Task.Yield", """
            async Task M() => await Task.Yield();
            """ },
        { "ConfigureAwaitOptions can force a yield", """
            async Task M() => await G().ConfigureAwait(ConfigureAwaitOptions.ForceYielding);
            """ },
        { "async lambda (inferred type would change)", """
            Func<Task<int>> M() => async () => await F();
            """ },
        { "work after the await", """
            async Task M() { await G(); Console.WriteLine(); }
            """ },
        { "conditional return await", """
            async Task<int> M(bool b) { if (b) { return await F(); } return 0; }
            """ },
        { "async void", """
            async void M() { await G(); }
            """ },
        { "already not async", """
            Task<int> M() => F();
            """ },
    };

    // The message quotes a cost only where it occurs: an await of a task complete where it is made never suspends.
    [Theory]
    [InlineData("async Task<int> M() => await F();", "~112 B per suspending call")]
    [InlineData("async Task M() { await G(); }", "~112 B per suspending call")]
    [InlineData("async Task M() { await Task.CompletedTask; }", "never suspends and allocates no state-machine box: it only runs the state machine's instructions)")]
    [InlineData("async ValueTask M() { await ValueTask.CompletedTask; }", "never suspends and allocates no state-machine box: it only runs the state machine's instructions)")]
    [InlineData("async ValueTask<int> M(int v) => await new ValueTask<int>(v);", "never suspends and allocates no state-machine box: it only runs the state machine's instructions)")]
    [InlineData("async Task<int> M(int v) { return await Task.FromResult(v); }", "never suspends and allocates no state-machine box: it only runs the state machine's instructions, and the method allocates its own Task for the result (~80 B unless the runtime caches the value)")]
    [InlineData("static readonly Task<string> Empty = Task.FromResult(\"\"); async Task<string> M() => await Empty;", "never suspends")]
    public async Task Message_states_the_cost_that_occurs(string members, string cost)
    {
        var diagnostic = Assert.Single(await Verify.GetDiagnosticsAsync(Wrap(members)));
        var message = diagnostic.GetMessage(System.Globalization.CultureInfo.InvariantCulture);
        Assert.Contains(cost, message, StringComparison.Ordinal);
        Assert.Equal(cost.Contains("never suspends", StringComparison.Ordinal), !message.Contains("112 B", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Default_severity_is_a_suggestion()
    {
        var diagnostic = Assert.Single(await Verify.GetDiagnosticsAsync(Snippet.InClass(Callees + "async Task<int> M() => await F();")));
        Assert.Equal(DiagnosticSeverity.Info, diagnostic.Severity);
    }

    public static TheoryData<string> BrokenCode => new()
    {
        { "async Task<int> M() => await ;" },
        { "async Task<int> M() { return await F(; }" },
        { "async Task M() { await Undefined(); }" },
        { "async Task<int> M() => await F().ConfigureAwait();" },
        { "async Task<Missing> M() => await F();" },
    };

    [Fact]
    public Task Fix_All_elides_every_method_in_the_document() =>
        CodeFixVerifier<AC0008ElidableStateMachineAnalyzer, AC0008ElidableStateMachineCodeFix>.VerifyFixAllAsync(
            Snippet.InClass(Callees + """
                [|async|] Task<int> A() => await F(1);
                [|async|] Task B() => await G();
            """),
            Snippet.InClass(Callees + """
                Task<int> A() => F(1);
                Task B() => G();
            """));

    [Fact]
    public Task Fix_returns_the_task() =>
        CodeFixVerifier<AC0008ElidableStateMachineAnalyzer, AC0008ElidableStateMachineCodeFix>.VerifyFixAsync(
            Snippet.InClass(Callees + """
                // Reads one value.
                public [|async|] Task<int> A(int x) => await F(x).ConfigureAwait(false);

                [|async|] Task B()
                {
                    await G();
                }

                internal static [|async|] ValueTask<int> E() { return await FV(); }

                Task<int> D() { return Local(); [|async|] Task<int> Local() => await F(); }
            """),
            Snippet.InClass(Callees + """
                // Reads one value.
                public Task<int> A(int x) => F(x);

                Task B()
                {
                    return G();
                }

                internal static ValueTask<int> E() { return FV(); }

                Task<int> D() { return Local(); Task<int> Local() => F(); }
            """));
}
