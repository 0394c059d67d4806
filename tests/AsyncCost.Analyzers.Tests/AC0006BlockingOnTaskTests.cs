using AsyncCost.Analyzers.CodeFixes;
using AsyncCost.Analyzers.Rules;
using AsyncCost.Analyzers.Tests.Verification;
using Microsoft.CodeAnalysis;
using Verify = AsyncCost.Analyzers.Tests.Verification.AnalyzerVerifier<AsyncCost.Analyzers.Rules.AC0006BlockingOnTaskAnalyzer>;

namespace AsyncCost.Analyzers.Tests;

public class AC0006BlockingOnTaskTests : RuleTheories<AC0006BlockingOnTaskAnalyzer>
{
    private static readonly TestOptions ConsoleApp = TestOptions.Default with { OutputKind = OutputKind.ConsoleApplication };

    public static TheoryData<string, string> MustFlag => new()
    {
        { ".Result in a sync method", """
            int M(Task<int> t) => [|t.Result|];
            """ },
        { ".Wait() in an async method", """
            async Task M(Task t) { [|t.Wait()|]; await Task.Delay(1); }
            """ },
        { "GetAwaiter().GetResult()", """
            int M(Func<Task<int>> start) => [|start().GetAwaiter().GetResult()|];
            """ },
        { "ConfigureAwait(false).GetAwaiter().GetResult()", """
            void M(Task t) => [|t.ConfigureAwait(false).GetAwaiter().GetResult()|];
            """ },
        { "Task.WaitAll", """
            void M(Task a, Task b) => [|Task.WaitAll(a, b)|];
            """ },
        { "Task.WaitAny", """
            int M(Task a, Task b) => [|Task.WaitAny(a, b)|];
            """ },
        { "ValueTask<T>.Result", """
            int M(ValueTask<int> t) => [|t.Result|];
            """ },
        { "Wait with a non-zero timeout", """
            bool M(Task t) => [|t.Wait(1000)|];
            """ },
        { "awaited only after the blocking use", """
            async Task<int> M(Task<int> t) { var x = [|t.Result|]; await t; return x; }
            """ },
        { "reassigned after the await", """
            async Task<int> M(Func<Task<int>> start) { var t = start(); await t; t = start(); return [|t.Result|]; }
            """ },
        { "a different task was checked", """
            int M(Task<int> a, Task<int> b) => a.IsCompleted ? [|b.Result|] : 0;
            """ },
        { "the else branch of a completion check", """
            int M(Task<int> t) { if (t.IsCompleted) { return 0; } else { return [|t.Result|]; } }
            """ },
        { "WhenAny does not complete every task", """
            async Task<int> M(Task<int> a, Task<int> b) { await Task.WhenAny(a, b); return [|a.Result|]; }
            """ },
        { "awaited in a lambda that may not have run", """
            int M(Task<int> t) { Func<Task> f = async () => await t; return [|t.Result|]; }
            """ },
        { "inside an async lambda", """
            Func<Task<int>> M(Task<int> t) => async () => { await Task.Delay(1); return [|t.Result|]; };
            """ },
        { "a pattern on a different property", """
            int M(Task<int> t) => t is { IsCompleted: false } ? [|t.Result|] : 0;
            """ },
        { "ValueTask GetAwaiter().GetResult()", """
            int M(ValueTask<int> t) => [|t.GetAwaiter().GetResult()|];
            """ },
        { "WaitAll of a collection", """
            void M(List<Task> tasks) => [|Task.WaitAll(tasks.ToArray())|];
            """ },
    };

    public static TheoryData<string, string> MustNotFlag => new()
    {
        { "after awaiting the task", """
            async Task<int> M(Task<int> t) { await t; return t.Result; }
            """ },
        { "after awaiting it with ConfigureAwait(false)", """
            async Task<int> M(Task<int> t) { await t.ConfigureAwait(false); return t.Result; }
            """ },
        { "after awaiting a WhenAll holding it", """
            async Task<int> M(Task<int> a, Task<int> b) { await Task.WhenAll(a, b); return a.Result + b.Result; }
            """ },
        { "after awaiting a stored WhenAll", """
            async Task<int> M(Task<int> a, Task<int> b) { var all = Task.WhenAll(a, b); await all; return a.Result; }
            """ },
        { "elements after awaiting WhenAll of the collection", """
            async Task<int> M(List<Task<int>> tasks)
            {
                await Task.WhenAll(tasks);
                var sum = tasks.Sum(t => t.Result) + tasks[0].Result;
                foreach (var t in tasks) { sum += t.Result; }
                return sum;
            }
            """ },
        { "inside an IsCompletedSuccessfully check", """
            Task<int> M(Task<int> t) { if (t.IsCompletedSuccessfully) { return Task.FromResult(t.Result + 1); } return Slow(t); static async Task<int> Slow(Task<int> t) => await t + 1; }
            """ },
        { "conditional expression on IsCompleted", """
            async ValueTask<int> M(ValueTask<int> t) => t.IsCompleted ? t.Result : await t;
            """ },
        { "after an early return when not completed", """
            ValueTask<int> M(Task<int> t) { if (!t.IsCompletedSuccessfully) { return new ValueTask<int>(t); } return new ValueTask<int>(t.Result); }
            """ },
        { "stored awaiter checked with IsCompleted", """
            int M(Task<int> t) { var awaiter = t.GetAwaiter(); if (!awaiter.IsCompleted) { return -1; } return awaiter.GetResult(); }
            """ },
        { "Status compared with RanToCompletion", """
            int M(Task<int> t) => t.Status == TaskStatus.RanToCompletion ? t.Result : 0;
            """ },
        { "IsCompleted == true and &&", """
            bool M(Task<bool> t) => t.IsCompleted == true && t.Result;
            """ },
        { "property pattern guard", """
            int M(Task<int> t) => t is { IsCompletedSuccessfully: true } ? t.Result : -1;
            """ },
        { "is false early return", """
            int M(Task<int> t) { if (t.IsCompleted is false) { return -1; } return t.Result; }
            """ },
        { "ValueTask GetAwaiter().GetResult() after a check", """
            int M(ValueTask<int> t) => t.IsCompletedSuccessfully ? t.GetAwaiter().GetResult() : -1;
            """ },
        { "Debug.Assert(IsCompleted)", """
            int M(Task<int> t) { System.Diagnostics.Debug.Assert(t.IsCompleted); return t.Result; }
            """ },
        { "inside ContinueWith on the antecedent", """
            Task<int> M(Task<int> t) => t.ContinueWith(antecedent => antecedent.Result + 1, TaskScheduler.Default);
            """ },
        { "the captured task inside its own ContinueWith", """
            Task<int> M(Task<int> t) => t.ContinueWith(_ => t.Result + 1, TaskScheduler.Default);
            """ },
        { "ContinueWhenAll's completed tasks", """
            Task<int> M(Task<int>[] tasks) => Task.Factory.ContinueWhenAll(tasks, done => done.Sum(d => d.Result) + done[0].Result);
            """ },
        { "nameof", """
            string M() => nameof(Task<int>.Result);
            """ },
        { "complete by construction", """
            int M() { Task.CompletedTask.Wait(); var t = Task.FromResult(2); return Task.FromResult(1).Result + t.Result + new ValueTask<int>(3).Result; }
            """ },
        { "the task WhenAny returns", """
            async Task<int> M(Task<int> a, Task<int> b) { var first = await Task.WhenAny(a, b); return first.Result + (await Task.WhenAny(a, b)).Result; }
            """ },
        { "zero-timeout probes", """
            bool M(Task t) => t.Wait(0) || t.Wait(TimeSpan.Zero);
            """ },
        { "a field awaited earlier", """
            Task<int> _pending = Task.FromResult(1);
            async Task<int> M() { await _pending; return _pending.Result; }
            """ },
        { "awaited before, used in a lambda after", """
            async Task<Func<int>> M(Task<int> t) { await t; return () => t.Result; }
            """ },
        { "a Lazy<T>.Value or a user type's Result", """
            sealed class Outcome { public int Result { get; } }
            int M(Lazy<int> lazy, Outcome outcome) => lazy.Value + outcome.Result;
            """ },
    };

    [Fact]
    public Task Only_the_first_blocking_wait_is_reported() =>
        Verify.VerifyAsync(Snippet.InClass("""
            int M(Task<int> t) { [|t.Wait()|]; return t.Result; }
            """));

    [Fact]
    public Task A_synchronous_console_Main_is_exempt() =>
        Verify.VerifyAsync(
            Snippet.Usings + """
            static class Program
            {
                static int Main() => Run().Result;
                static void Other() => [|Run().Wait()|];
                static Task<int> Run() => Task.FromResult(0);
            }
            """,
            ConsoleApp);

    [Fact]
    public Task An_async_Main_can_await_so_it_is_flagged() =>
        Verify.VerifyAsync(
            Snippet.Usings + """
            static class Program
            {
                static async Task<int> Main() { await Task.Delay(1); return [|Run().Result|]; }
                static Task<int> Run() => Task.Delay(1).ContinueWith(_ => 0, TaskScheduler.Default);
            }
            """,
            ConsoleApp);

    [Fact]
    public Task Main_of_a_library_is_an_ordinary_method() =>
        Verify.VerifyAsync(Snippet.Usings + """
            static class Program
            {
                static int Main() => [|Run().Result|];
                static Task<int> Run() => Task.FromResult(0).ContinueWith(t => t.Result, TaskScheduler.Default);
            }
            """);

    public static TheoryData<string> BrokenCode => new()
    {
        { "int M(Task<int> t) => t.Result.;" },
        { "int M(Task<int> t) { if (t.IsCompleted) return t.Result }" },
        { "void M() { Task.WaitAll(; }" },
        { "int M() => Undefined.Result + missing.GetAwaiter().GetResult();" },
        { "async Task<int> M(Task<int> t) { await Task.WhenAll(t, ); return t.Result; }" },
        { "int M(Task<int> t) => t.ContinueWith(a => a.Result).Result" },
    };

    [Fact]
    public Task Fix_All_awaits_every_blocking_call_in_the_document() =>
        CodeFixVerifier<AC0006BlockingOnTaskAnalyzer, AC0006BlockingOnTaskCodeFix>.VerifyFixAllAsync(
            Snippet.InClass("""
                async Task<int> M(Task<int> a, Task<int> b)
                {
                    await Task.Delay(1);
                    return [|a.Result|] + [|b.Result|];
                }
            """),
            Snippet.InClass("""
                async Task<int> M(Task<int> a, Task<int> b)
                {
                    await Task.Delay(1);
                    return await a + await b;
                }
            """));

    [Fact]
    public async Task No_fix_is_offered_in_synchronous_code()
    {
        var diagnostic = Assert.Single(await Verify.GetDiagnosticsAsync(Snippet.InClass("int M(Task<int> t) => t.Result;")));
        Assert.False(diagnostic.Properties.ContainsKey("AsyncCostCanAwait"));
    }

    [Fact]
    public Task Fix_awaits_instead_of_blocking() =>
        CodeFixVerifier<AC0006BlockingOnTaskAnalyzer, AC0006BlockingOnTaskCodeFix>.VerifyFixAsync(
            Snippet.InClass("""
                async Task<string> M(Task<int> t, Task u, Task<int> v, Task w)
                {
                    [|u.Wait()|];
                    var text = [|t.Result|].ToString();
                    var value = [|v.ConfigureAwait(false).GetAwaiter().GetResult()|] + 1;
                    [|Task.WaitAll(u, w)|];
                    await Task.Delay(1);
                    return text + value;
                }
            """),
            Snippet.InClass("""
                async Task<string> M(Task<int> t, Task u, Task<int> v, Task w)
                {
                    await u;
                    var text = (await t).ToString();
                    var value = await v.ConfigureAwait(false) + 1;
                    await Task.WhenAll(u, w);
                    await Task.Delay(1);
                    return text + value;
                }
            """));
}
