using AsyncCost.Analyzers.CodeFixes;
using AsyncCost.Analyzers.Rules;
using AsyncCost.Analyzers.Tests.Verification;
using Verify = AsyncCost.Analyzers.Tests.Verification.AnalyzerVerifier<AsyncCost.Analyzers.Rules.AC0005TaskYieldInLoopAnalyzer>;

namespace AsyncCost.Analyzers.Tests;

public class AC0005TaskYieldInLoopTests : RuleTheories<AC0005TaskYieldInLoopAnalyzer>
{
    // A test yields in a loop on purpose (to force interleavings); the hop it pays is not what the test is about.
    [Fact]
    public Task Is_silent_in_test_projects() =>
        Verify.VerifyAsync(
            Wrap("async Task M() { for (var i = 0; i < 10; i++) { await Task.Yield(); } }"),
            TestOptions.Default.WithBuildProperty("IsTestProject", "true"));

    public static TheoryData<string, string> MustFlag => new()
    {
        { "for body", """
            async Task M() { for (var i = 0; i < 10; i++) { [|await Task.Yield()|]; } }
            """ },
        { "foreach body", """
            async Task M(int[] items) { foreach (var item in items) { Console.WriteLine(item); [|await Task.Yield()|]; } }
            """ },
        { "while embedded statement", """
            async Task M(Func<bool> more) { while (more()) [|await Task.Yield()|]; }
            """ },
        { "do-while body", """
            async Task M(Func<bool> more) { do { [|await Task.Yield()|]; } while (more()); }
            """ },
        { "await foreach body", """
            async Task M(IAsyncEnumerable<int> items) { await foreach (var item in items) { [|await Task.Yield()|]; } }
            """ },
        { "inner loop of nested loops", """
            async Task M(int[][] rows) { foreach (var row in rows) { foreach (var cell in row) { [|await Task.Yield()|]; } } }
            """ },
        { "spin-polling a flag", """
            volatile bool _done;
            async Task M() { while (!_done) { [|await Task.Yield()|]; } }
            """ },
        { "loop inside an async lambda", """
            Func<Task> M() => async () => { for (var i = 0; i < 3; i++) { [|await Task.Yield()|]; } };
            """ },
        { "loop inside a local function", """
            Task M() { return Local(); async Task Local() { while (true) { [|await Task.Yield()|]; } } }
            """ },
        { "ForceYielding in a loop", """
            async Task M(int n) { for (var i = 0; i < n; i++) { [|await Task.CompletedTask.ConfigureAwait(ConfigureAwaitOptions.ForceYielding)|]; } }
            """ },
        { "ForceYielding combined with other options", """
            async Task M(int n) { for (var i = 0; i < n; i++) { [|await Task.CompletedTask.ConfigureAwait(ConfigureAwaitOptions.ForceYielding | ConfigureAwaitOptions.ContinueOnCapturedContext)|]; } }
            """ },
        { "async iterator yielding per item", """
            async IAsyncEnumerable<int> M(int n) { for (var i = 0; i < n; i++) { [|await Task.Yield()|]; yield return i; } }
            """ },
        { "finally block runs every iteration", """
            async Task M(int n) { for (var i = 0; i < n; i++) { try { Console.WriteLine(i); } finally { [|await Task.Yield()|]; } } }
            """ },
        { "after a try that does not leave the loop", """
            async Task M(int n) { for (var i = 0; i < n; i++) { try { Console.WriteLine(i); } catch (InvalidOperationException) { } [|await Task.Yield()|]; } }
            """ },
    };

    public static TheoryData<string, string> MustNotFlag => new()
    {
        { "single yield at method start", """
            async Task M(int[] items) { await Task.Yield(); foreach (var item in items) { Console.WriteLine(item); } }
            """ },
        { "yield after the loop", """
            async Task M(int n) { for (var i = 0; i < n; i++) { Console.WriteLine(i); } await Task.Yield(); }
            """ },
        { "yield every 100 iterations (batching)", """
            async Task M(int n) { for (var i = 0; i < n; i++) { if (i % 100 == 0) { await Task.Yield(); } } }
            """ },
        { "yield when a time slice is used up", """
            async Task M(int n) { var sw = System.Diagnostics.Stopwatch.StartNew(); for (var i = 0; i < n; i++) { if (sw.ElapsedMilliseconds > 50) { await Task.Yield(); sw.Restart(); } } }
            """ },
        { "yield in a switch case", """
            async Task M(int[] items) { foreach (var item in items) { switch (item) { case 0: await Task.Yield(); break; default: break; } } }
            """ },
        { "yield in a catch", """
            async Task M(int n) { for (var i = 0; i < n; i++) { try { Console.WriteLine(i); } catch (InvalidOperationException) { await Task.Yield(); } } }
            """ },
        { "lambda declared in the loop", """
            void M(List<Func<Task>> work, int n) { for (var i = 0; i < n; i++) { work.Add(async () => { await Task.Yield(); Console.WriteLine(); }); } }
            """ },
        { "local function declared in the loop", """
            async Task M(int n) { for (var i = 0; i < n; i++) { await Local(); async Task Local() { await Task.Yield(); } } }
            """ },
        { "Task.Delay in a loop is pacing, not a yield", """
            async Task M(int n) { for (var i = 0; i < n; i++) { await Task.Delay(10); } }
            """ },
        { "ConfigureAwait(false) in a loop", """
            async Task M(Task t, int n) { for (var i = 0; i < n; i++) { await t.ConfigureAwait(false); } }
            """ },
        { "ConfigureAwaitOptions without ForceYielding", """
            async Task M(Task t, int n) { for (var i = 0; i < n; i++) { await t.ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing); } }
            """ },
        { "a user-defined Yield", """
            static class Scheduler { public static Task Yield() => Task.CompletedTask; }
            async Task M(int n) { for (var i = 0; i < n; i++) { await Scheduler.Yield(); } }
            """ },
        { "retry pause only a failed attempt reaches (the try leaves the loop on success)", """
            Task SendAsync() => Task.CompletedTask;
            async Task M() { var retries = 3; while (true) { try { await SendAsync(); break; } catch (InvalidOperationException) when (retries-- > 0) { } await Task.Yield(); } }
            """ },
        { "retry pause after a try that returns on success, and after one that continues with the next item", """
            Task<int> ReadAsync() => Task.FromResult(1);
            async Task<int> M() { while (true) { try { return await ReadAsync(); } catch (InvalidOperationException) { } await Task.Yield(); } }
            async Task N(int[] items) { foreach (var item in items) { try { await ReadAsync(); continue; } catch (InvalidOperationException) { } await Task.Yield(); } }
            """ },
        { "yield in the foreach collection expression", """
            async Task<int[]> Items() { await Task.Yield(); return new[] { 1 }; }
            async Task M() { foreach (var item in await Items()) { Console.WriteLine(item); } }
            """ },
    };

    public static TheoryData<string> BrokenCode => new()
    {
        { "async Task M() { for (var i = 0; i < ; i++) { await Task.Yield( } }" },
        { "async Task M() { while (true) await Task.Yield(); " },
        { "async Task M() { foreach (var x in) { await Task.Yield(); } }" },
        { "async Task M() { for (;;) { await Task.Yield().ConfigureAwait(ConfigureAwaitOptions.ForceYielding); } }" },
        { "async Task M() { do { await Undefined.Yield(); } while (x); }" },
    };

    [Fact]
    public Task Fix_hoists_the_yield_before_the_loop() =>
        CodeFixVerifier<AC0005TaskYieldInLoopAnalyzer, AC0005TaskYieldInLoopCodeFix>.VerifyFixAsync(
            Snippet.InClass("""
                async Task M(int[] items)
                {
                    Console.WriteLine("start");
                    foreach (var item in items)
                    {
                        [|await Task.Yield()|];
                        Console.WriteLine(item);
                    }
                }
            """),
            Snippet.InClass("""
                async Task M(int[] items)
                {
                    Console.WriteLine("start");
                    await Task.Yield();
                    foreach (var item in items)
                    {
                        Console.WriteLine(item);
                    }
                }
            """));

    [Fact]
    public Task Fix_hoists_out_of_nested_loops_and_keeps_an_existing_yield_single() =>
        CodeFixVerifier<AC0005TaskYieldInLoopAnalyzer, AC0005TaskYieldInLoopCodeFix>.VerifyFixAsync(
            Snippet.InClass("""
                async Task M(int[][] rows)
                {
                    await Task.Yield();
                    foreach (var row in rows)
                    {
                        foreach (var cell in row)
                        {
                            Console.WriteLine(cell);
                            [|await Task.Yield()|];
                        }
                    }
                }
            """),
            Snippet.InClass("""
                async Task M(int[][] rows)
                {
                    await Task.Yield();
                    foreach (var row in rows)
                    {
                        foreach (var cell in row)
                        {
                            Console.WriteLine(cell);
                        }
                    }
                }
            """));

    [Fact]
    public Task Fix_replaces_an_embedded_yield_with_an_empty_body() =>
        CodeFixVerifier<AC0005TaskYieldInLoopAnalyzer, AC0005TaskYieldInLoopCodeFix>.VerifyFixAsync(
            Snippet.InClass("""
                async Task M(int n)
                {
                    for (var i = 0; i < n; i++) [|await Task.Yield()|];
                }
            """),
            Snippet.InClass("""
                async Task M(int n)
                {
                    await Task.Yield();
                    for (var i = 0; i < n; i++)
                    {
                    }
                }
            """));

    // A poll loop's yield is its only wait: `while (!TryPause()) await Task.Yield();` hoisted would spin on one thread
    // forever. The finding stays (a hop per try), with the advice to wait on a signal, and no "move it out" fix.
    public static TheoryData<string> PollLoops => new()
    {
        { "bool TryPause() => true; async Task M() { while (!TryPause()) [|await Task.Yield()|]; }" },
        { "volatile bool _done; async Task M() { while (!_done) { [|await Task.Yield()|]; } }" },
        { "bool TryPause() => true; async Task M() { do { [|await Task.Yield()|]; } while (!TryPause()); }" },
        { "bool TryPause() => true; async Task M() { while (true) { if (TryPause()) { break; } [|await Task.Yield()|]; } }" },
        { "bool TryPause() => true; async Task<bool> M() { for (;;) { if (TryPause()) return true; [|await Task.Yield()|]; } }" },
        { "bool TryPause() => true; async Task M(CancellationToken ct) { var paused = false; while (!paused && !ct.IsCancellationRequested) { [|await Task.Yield()|]; paused = TryPause(); } }" },
        { "bool Validate() => true; async Task M() { var retries = 3; while (!Validate()) { Console.WriteLine(\"retrying\"); [|await Task.Yield()|]; if (retries-- <= 0) throw new TimeoutException(); } }" },
        { "bool Validate(out long size) { size = 0; return true; } async Task<long> M() { long size; var retries = 3; while (!Validate(out size)) { [|await Task.Yield()|]; if (retries-- <= 0) throw new TimeoutException(); } return size; }" },
        { "bool TryAcquire() => true; Task RecoverAsync() => Task.CompletedTask; async Task M(Func<bool> stale) { while (true) { if (stale()) { await RecoverAsync(); continue; } if (TryAcquire()) break; [|await Task.Yield()|]; } }" },
    };

    [Theory]
    [MemberData(nameof(PollLoops))]
    public async Task A_poll_loops_only_wait_is_told_to_wait_on_a_signal_and_offered_no_move(string members)
    {
        await CodeFixVerifier<AC0005TaskYieldInLoopAnalyzer, AC0005TaskYieldInLoopCodeFix>.VerifyNoFixOfferedAsync(Snippet.InClass(members));
        var message = Assert.Single(await Verify.GetDiagnosticsAsync(Snippet.InClass(members))).GetMessage(System.Globalization.CultureInfo.InvariantCulture);
        Assert.Contains("poll loop's only wait", message, StringComparison.Ordinal);
        Assert.Contains("wait on a signal", message, StringComparison.Ordinal);
        Assert.DoesNotContain("yield once", message, StringComparison.Ordinal);
    }

    // Work between the yields, another await in the loop, or a counted loop: the yield is not what the loop waits on.
    public static TheoryData<string> WorkLoops => new()
    {
        { "async Task M(System.Collections.Concurrent.ConcurrentQueue<int> q) { while (q.TryDequeue(out var x)) { Console.WriteLine(x); [|await Task.Yield()|]; } }" },
        { "async Task M(Func<Task<bool>> more) { while (await more()) [|await Task.Yield()|]; }" },
        { "async Task M(int[] items) { foreach (var item in items) [|await Task.Yield()|]; }" },
        { "async Task M(int n) { for (var i = 0; i < n; i++) [|await Task.Yield()|]; }" },
        { "async Task M(System.Collections.Concurrent.ConcurrentQueue<int> q) { while (q.TryDequeue(out _)) [|await Task.Yield()|]; }" },
        { "async Task M(Func<Task<int>> read) { while (true) { var x = await read(); if (x < 0) break; Console.WriteLine(x); [|await Task.Yield()|]; } }" },
    };

    [Theory]
    [MemberData(nameof(WorkLoops))]
    public async Task A_work_loops_yield_keeps_the_move_it_out_advice(string members)
    {
        var message = Assert.Single(await Verify.GetDiagnosticsAsync(Snippet.InClass(members))).GetMessage(System.Globalization.CultureInfo.InvariantCulture);
        Assert.EndsWith("yield once, or batch the work", message, StringComparison.Ordinal);
    }
}
