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
            int M(Task<int> t) => t.[|Result|];
            """ },
        { ".Wait() in an async method", """
            async Task M(Task t) { t.[|Wait|](); await Task.Delay(1); }
            """ },
        { "GetAwaiter().GetResult()", """
            int M(Func<Task<int>> start) => start().GetAwaiter().[|GetResult|]();
            """ },
        { "ConfigureAwait(false).GetAwaiter().GetResult()", """
            void M(Task t) => t.ConfigureAwait(false).GetAwaiter().[|GetResult|]();
            """ },
        { "Task.WaitAll", """
            void M(Task a, Task b) => Task.[|WaitAll|](a, b);
            """ },
        { "Task.WaitAny", """
            int M(Task a, Task b) => Task.[|WaitAny|](a, b);
            """ },
        { "ValueTask<T>.Result", """
            int M(ValueTask<int> t) => t.[|Result|];
            """ },
        { "Wait with a non-zero timeout", """
            bool M(Task t) => t.[|Wait|](1000);
            """ },
        { "awaited only after the blocking use", """
            async Task<int> M(Task<int> t) { var x = t.[|Result|]; await t; return x; }
            """ },
        { "reassigned after the await", """
            async Task<int> M(Func<Task<int>> start) { var t = start(); await t; t = start(); return t.[|Result|]; }
            """ },
        { "a different task was checked", """
            int M(Task<int> a, Task<int> b) => a.IsCompleted ? b.[|Result|] : 0;
            """ },
        { "the else branch of a completion check", """
            int M(Task<int> t) { if (t.IsCompleted) { return 0; } else { return t.[|Result|]; } }
            """ },
        { "WhenAny does not complete every task", """
            async Task<int> M(Task<int> a, Task<int> b) { await Task.WhenAny(a, b); return a.[|Result|]; }
            """ },
        { "awaited in a lambda that may not have run", """
            int M(Task<int> t) { Func<Task> f = async () => await t; return t.[|Result|]; }
            """ },
        { "inside an async lambda", """
            Func<Task<int>> M(Task<int> t) => async () => { await Task.Delay(1); return t.[|Result|]; };
            """ },
        { "a pattern on a different property", """
            int M(Task<int> t) => t is { IsCompleted: false } ? t.[|Result|] : 0;
            """ },
        { "ValueTask GetAwaiter().GetResult()", """
            int M(ValueTask<int> t) => t.GetAwaiter().[|GetResult|]();
            """ },
        { "WaitAll of a collection", """
            void M(List<Task> tasks) => Task.[|WaitAll|](tasks.ToArray());
            """ },
        { "the second wait after an IsFaulted check: on the other path the task may still run", """
            void M(Task t) { if (t.IsFaulted) { t.GetAwaiter().GetResult(); } Log(); t.GetAwaiter().[|GetResult|](); }
            static void Log() { }
            """ },
        { "a timed wait still blocks up to its timeout; the .Result after its success does not", """
            int M(Task<int> t) { if (!t.[|Wait|](1000)) { throw new TimeoutException(); } return t.Result; }
            int N(Task<int> t) { if (t.[|Wait|](TimeSpan.FromSeconds(1))) { return t.Result; } return -1; }
            """ },
        { "bool async callee that awaits whatever the flag", """
            void Open() => Open(false).GetAwaiter().[|GetResult|]();
            async Task Open(bool async) { await Task.Delay(1); }
            """ },
        { "bool async callee that awaits in the synchronous arm", """
            int Read() => Read(async: false).[|Result|];
            async Task<int> Read(bool async) { if (!async) { await Task.Delay(1); } return 1; }
            """ },
        { "bool async callee without a body to check", """
            interface IConnection { Task Open(bool async); }
            void Open(IConnection connection) => connection.Open(false).GetAwaiter().[|GetResult|]();
            """ },
        { "a bool argument true is the async path", """
            void Open() => Open(true).[|Wait|]();
            async Task Open(bool async) { if (async) { await Task.Delay(1); } }
            """ },
    };

    // Each task is reported at its first blocking use; later uses of the same task are the same finding.
    public static TheoryData<string, string> ReportedOnce => new()
    {
        { "the Wait and the .Result after it", """
            int M(Task<int> t) { t.[|Wait|](); return t.Result; }
            """ },
        { "a timed Wait whose timeout is only logged", """
            int M(Task<int> t) { if (!t.[|Wait|](1000)) { Log(); } return t.Result; }
            static void Log() { }
            """ },
        { "a timed Wait in a try and the .Result after it", """
            int M(Task<int> t)
            {
                try { if (!t.[|Wait|](1000)) { throw new TimeoutException(); } }
                catch (AggregateException e) { throw e.InnerExceptions[0]; }
                return t.Result;
            }
            """ },
        { ".Result and GetResult on the same task", """
            int M(Task<int> t) { var first = t.[|Result|]; return first + t.GetAwaiter().GetResult(); }
            """ },
        { "WaitAny covers none of its tasks", """
            int M(Task<int> a, Task<int> b) { Task.[|WaitAny|](a, b); return a.[|Result|]; }
            """ },
        { "a WaitAll then each task's .Result", """
            int M(Task<int> a, Task<int> b) { Task.[|WaitAll|](a, b); return a.Result + b.Result; }
            """ },
    };

    [Theory]
    [MemberData(nameof(ReportedOnce))]
    public Task Reports_each_task_once(string name, string members)
    {
        _ = name;
        return Verify.VerifyAsync(Snippet.InClass(members));
    }

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
        { "the bool async idiom: a sync wrapper calls the async implementation with false", """
            public void Open() => Open(async: false, CancellationToken.None).GetAwaiter().GetResult();
            public int Read() => Read(false).Result;
            public int ReadValue() => ReadValue(async: false).GetAwaiter().GetResult() + ReadValue(false).Result;
            private async Task Open(bool async, CancellationToken ct)
            {
                if (async) { await Task.Delay(1, ct).ConfigureAwait(false); } else { Thread.Sleep(1); }
            }
            private async Task<int> Read(bool async) => async ? await Task.FromResult(1).ConfigureAwait(false) : 1;
            private async ValueTask<int> ReadValue(bool async)
            {
                if (!async) { return 0; }
                await Task.Yield();
                return 1;
            }
            """ },
        { "the bool async idiom through a forwarding method and a local function", """
            public void Flush() => Flush(false).GetAwaiter().GetResult();
            internal Task Flush(bool async)
            {
                return FlushCore(async);
                async Task FlushCore(bool flag) { await Write(flag).ConfigureAwait(false); await Write(flag); }
            }
            private async Task Write(bool async) { if (async) { await Task.Delay(1); } }
            """ },
        { "Status switch on RanToCompletion, with and without a cast", """
            int M(Task<int> t) { switch (t.Status) { case TaskStatus.RanToCompletion: return t.Result; case TaskStatus.Faulted: case TaskStatus.Canceled: return ((Task<int>)t).Result; default: return -1; } }
            int N(Task t) { switch (t.Status) { case TaskStatus.RanToCompletion: return ((Task<int>)t).Result; default: return -1; } }
            int S(Task<int> t) => t.Status switch { TaskStatus.RanToCompletion => t.Result, _ => -1 };
            """ },
        { "Debug.Assert(IsCompleted) then Preserve().GetAwaiter().GetResult()", """
            int M(ValueTask<int> t) { System.Diagnostics.Debug.Assert(t.IsCompleted); var copy = t; return t.Preserve().GetAwaiter().GetResult(); }
            """ },
        { "an event set by the awaiter's completion callback, waited on before GetResult", """
            int M(Task<int> t)
            {
                var awaiter = t.ConfigureAwait(false).GetAwaiter();
                using var done = new ManualResetEventSlim();
                awaiter.UnsafeOnCompleted(() => done.Set());
                done.Wait();
                return awaiter.GetResult();
            }
            """ },
        { "new ValueTask<T>(Unsafe.As<Task<T>>(task)).Result in a completion callback of that task", """
            Task<int> M(Task task) => task.ContinueWith(static (t, _) => new ValueTask<int>(System.Runtime.CompilerServices.Unsafe.As<Task<int>>(t)).Result, null, TaskScheduler.Default);
            void N(Task<int> task, Action<int> done) { var awaiter = task.GetAwaiter(); awaiter.OnCompleted(() => done(new ValueTask<int>(task).Result)); }
            """ },
        { "a Lazy<T>.Value or a user type's Result", """
            sealed class Outcome { public int Result { get; } }
            int M(Lazy<int> lazy, Outcome outcome) => lazy.Value + outcome.Result;
            """ },
    };

    [Fact]
    public Task A_synchronous_console_Main_is_exempt() =>
        Verify.VerifyAsync(
            Snippet.Usings + """
            static class Program
            {
                static int Main() => Run().Result;
                static void Other() => Run().[|Wait|]();
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
                static async Task<int> Main() { await Task.Delay(1); return Run().[|Result|]; }
                static Task<int> Run() => Task.Delay(1).ContinueWith(_ => 0, TaskScheduler.Default);
            }
            """,
            ConsoleApp);

    [Fact]
    public Task Main_of_a_library_is_an_ordinary_method() =>
        Verify.VerifyAsync(Snippet.Usings + """
            static class Program
            {
                static int Main() => Run().[|Result|];
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
        { "void Open() => Open(false).GetAwaiter().GetResult(); async Task Open(bool async) { if (async) await }" },
        { "void Open() => Open(false, ).Wait(); Task Open(bool async, int x) => Open(async, x" },
        { "int M(Task<int> t) { switch (t.Status) { case TaskStatus.RanToCompletion: return t.Result; case : } }" },
        { "int M(Task<int> t) { var a = t.GetAwaiter(); a.OnCompleted(() => done.Set()); done.Wait(); return a.GetResult(); }" },
        { "int M(Task t) => new ValueTask<int>(System.Runtime.CompilerServices.Unsafe.As<Task<int>>()).Result;" },
    };

    [Fact]
    public Task Fix_All_awaits_every_blocking_call_in_the_document() =>
        CodeFixVerifier<AC0006BlockingOnTaskAnalyzer, AC0006BlockingOnTaskCodeFix>.VerifyFixAllAsync(
            Snippet.InClass("""
                async Task<int> M(Task<int> a, Task<int> b)
                {
                    await Task.Delay(1);
                    return a.[|Result|] + b.[|Result|];
                }
            """),
            Snippet.InClass("""
                async Task<int> M(Task<int> a, Task<int> b)
                {
                    await Task.Delay(1);
                    return await a.ConfigureAwait(false) + await b.ConfigureAwait(false);
                }
            """));

    [Fact]
    public async Task No_fix_is_offered_in_synchronous_code()
    {
        var diagnostic = Assert.Single(await Verify.GetDiagnosticsAsync(Snippet.InClass("int M(Task<int> t) => t.Result;")));
        Assert.False(diagnostic.Properties.ContainsKey("AsyncCostCanAwait"));
    }

    [Fact]
    public Task Fix_awaits_instead_of_blocking_outside_a_library() =>
        CodeFixVerifier<AC0006BlockingOnTaskAnalyzer, AC0006BlockingOnTaskCodeFix>.VerifyFixAsync(
            Snippet.InClass("""
                async Task<string> M(Task<int> t, Task u, Task<int> v, Task w)
                {
                    u.[|Wait|]();
                    var text = t.[|Result|].ToString();
                    var value = v.ConfigureAwait(false).GetAwaiter().[|GetResult|]() + 1;
                    Task.[|WaitAll|](u, w);
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
            """),
            TestOptions.Default.WithBuildProperty("OutputType", "Exe"));

    [Fact]
    public async Task Fix_in_a_library_configures_the_await_so_the_result_is_clean_under_AC0004()
    {
        var fixedSource = Snippet.InClass("""
                async Task<string> M(Task<int> t, Task u, Task<int> v, Task w)
                {
                    await u.ConfigureAwait(false);
                    var text = (await t.ConfigureAwait(false)).ToString();
                    var value = await v.ConfigureAwait(true) + 1;
                    await Task.WhenAll(u, w).ConfigureAwait(false);
                    await Task.Delay(1).ConfigureAwait(false);
                    return text + value;
                }
            """);
        await CodeFixVerifier<AC0006BlockingOnTaskAnalyzer, AC0006BlockingOnTaskCodeFix>.VerifyFixAsync(
            Snippet.InClass("""
                async Task<string> M(Task<int> t, Task u, Task<int> v, Task w)
                {
                    u.[|Wait|]();
                    var text = t.[|Result|].ToString();
                    var value = v.ConfigureAwait(true).GetAwaiter().[|GetResult|]() + 1;
                    Task.[|WaitAll|](u, w);
                    await Task.Delay(1).ConfigureAwait(false);
                    return text + value;
                }
            """),
            fixedSource,
            TestOptions.Default);
        await AnalyzerVerifier<AC0004MissingConfigureAwaitAnalyzer>.VerifyAsync(fixedSource);
    }

    [Fact]
    public async Task Fix_All_fixes_the_async_cases_and_leaves_the_synchronous_ones()
    {
        // The first diagnostic sits in synchronous code and has no fix: dotnet format then asks with no action key.
        var fixedSource = Snippet.InClass("""
                int Sync(Task<int> t) => t.Result;
                async Task<int> M(Task<int> a, Task b)
                {
                    await b.ConfigureAwait(false);
                    var x = await a.ConfigureAwait(false);
                    lock (this) { x += a.Result; }
                    return x;
                }
                void AlsoSync(Task t) => t.Wait();
            """);
        await CodeFixVerifier<AC0006BlockingOnTaskAnalyzer, AC0006BlockingOnTaskCodeFix>.VerifyFixAllAsync(
            Snippet.InClass("""
                int Sync(Task<int> t) => t.[|Result|];
                async Task<int> M(Task<int> a, Task b)
                {
                    b.[|Wait|]();
                    var x = a.[|Result|];
                    lock (this) { x += a.Result; }
                    return x;
                }
                void AlsoSync(Task t) => t.[|Wait|]();
            """),
            fixedSource);
        await AnalyzerVerifier<AC0004MissingConfigureAwaitAnalyzer>.VerifyAsync(fixedSource);
    }

    [Theory]
    [InlineData("int M(Task<int> t) => t.Result;", "'.Result' blocks", "; await it instead")]
    [InlineData("void M(Task a, Task b) => Task.WaitAll(a, b);", "'Task.WaitAll' blocks", "; await Task.WhenAll instead")]
    [InlineData("int M(Task a, Task b) => Task.WaitAny(a, b);", "'Task.WaitAny' blocks", "; await Task.WhenAny instead")]
    public async Task Message_says_what_to_await(string members, string start, string end)
    {
        var diagnostic = Assert.Single(await Verify.GetDiagnosticsAsync(Snippet.InClass(members)));
        var message = diagnostic.GetMessage(System.Globalization.CultureInfo.InvariantCulture);
        Assert.StartsWith(start, message, StringComparison.Ordinal);
        Assert.EndsWith(end, message, StringComparison.Ordinal);
    }

    private static readonly TestOptions TestProject = TestOptions.Default.WithBuildProperty("IsTestProject", "true");

    [Fact]
    public Task A_test_is_told_only_where_it_could_await_and_not_about_timed_probes() =>
        Verify.VerifyAsync(
            Snippet.InClass("""
                static void ShouldBeFalse(bool value) { }
                void SyncTest(Task<int> t, Task u) { var x = t.Result; u.Wait(); Should(() => u.Wait()); }
                async Task AsyncTest(Task<int> t, Task u, CancellationToken ct)
                {
                    ShouldBeFalse(u.Wait(20, ct));
                    var x = t.[|Result|];
                    await Task.Delay(1, ct);
                }
                static void Should(Action action) => action();
            """),
            TestProject);

    [Fact]
    public Task A_library_is_told_about_timed_waits_and_synchronous_blocking() =>
        Verify.VerifyAsync(Snippet.InClass("""
            static void ShouldBeFalse(bool value) { }
            void Sync(Task<int> t) { var x = t.[|Result|]; }
            async Task Async(Task u, CancellationToken ct) { ShouldBeFalse(u.[|Wait|](20, ct)); await Task.Delay(1, ct).ConfigureAwait(false); }
            """));
}
