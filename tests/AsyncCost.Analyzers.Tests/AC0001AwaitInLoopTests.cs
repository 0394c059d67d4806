using AsyncCost.Analyzers.CodeFixes;
using AsyncCost.Analyzers.Rules;
using AsyncCost.Analyzers.Tests.Verification;
using Verify = AsyncCost.Analyzers.Tests.Verification.AnalyzerVerifier<AsyncCost.Analyzers.Rules.AC0001AwaitInLoopAnalyzer>;
using Fix = AsyncCost.Analyzers.Tests.Verification.CodeFixVerifier<AsyncCost.Analyzers.Rules.AC0001AwaitInLoopAnalyzer, AsyncCost.Analyzers.CodeFixes.AC0001AwaitInLoopCodeFix>;

namespace AsyncCost.Analyzers.Tests;

public class AC0001AwaitInLoopTests
{
    private static string Code(string members) => $$"""
        using System;
        using System.Collections.Concurrent;
        using System.Collections.Generic;
        using System.IO;
        using System.Net.Http;
        using System.Threading;
        using System.Threading.Channels;
        using System.Threading.Tasks;
        public class Work
        {
        {{members}}
            static Task<int> F(int x) => Task.FromResult(x);
            static Task<int> G(int x) => Task.FromResult(x);
            static Task Send(string s) => Task.CompletedTask;
            static ValueTask<int> FV(int x) => new(x);
            static Task<bool> ExistsAsync(string s) => Task.FromResult(s.Length > 0);
            static Task<Page> GetPage(string? token) => Task.FromResult(new Page());
            static Task<int[]> Children(int x) => Task.FromResult(new[] { x });
            static Task FlushAsync() => Task.CompletedTask;
            static void Use(int x) { }
        }
        public sealed class Page { public string? Next { get; set; } public List<int> Items { get; } = new(); }
        """;

    // ---- must flag ----

    [Fact]
    public Task Flags_foreach_awaiting_each_element() =>
        Verify.VerifyAsync(Code("async Task M(int[] xs) { foreach (var x in xs) [|await F(x)|]; }"));

    [Fact]
    public Task Flags_collecting_awaited_results() =>
        Verify.VerifyAsync(Code("async Task<List<int>> M(int[] xs) { var list = new List<int>(); foreach (var x in xs) list.Add([|await F(x)|]); return list; }"));

    [Fact]
    public Task Flags_a_counted_for_loop() =>
        Verify.VerifyAsync(Code("async Task M(int n) { for (var i = 0; i < n; i++) { var r = [|await F(i)|]; Use(r); } }"));

    [Fact]
    public Task Flags_a_while_loop_with_a_counter_and_a_do_loop() =>
        Verify.VerifyAsync(Code("""
                async Task M(int n)
                {
                    var i = 0;
                    while (i < n) { [|await F(i)|]; i++; }
                    var j = 0;
                    do { [|await G(j)|]; j++; } while (j < n);
                }
            """));

    [Fact]
    public Task Flags_draining_a_queue_of_independent_items() =>
        Verify.VerifyAsync(Code("async Task M(ConcurrentQueue<string> queue) { while (queue.TryDequeue(out var item)) [|await Send(item)|]; }"));

    [Fact]
    public Task Flags_configured_and_ValueTask_awaits() =>
        Verify.VerifyAsync(Code("async Task M(int[] xs) { foreach (var x in xs) { [|await F(x).ConfigureAwait(false)|]; [|await FV(x)|]; } }"));

    [Fact]
    public Task Flags_per_item_error_isolation_and_a_filter_that_does_not_depend_on_awaits() =>
        Verify.VerifyAsync(Code("""
                async Task M(string?[] names)
                {
                    foreach (var name in names)
                    {
                        if (name is null) continue;
                        if (name.Length > 100) break;
                        try { [|await Send(name)|]; } catch (IOException) { }
                    }
                }
            """));

    [Fact]
    public Task Flags_a_dependency_within_one_iteration_only() =>
        Verify.VerifyAsync(Code("async Task M(int[] xs) { foreach (var x in xs) { var a = [|await F(x)|]; Use([|await G(a)|]); } }"));

    [Fact]
    public Task Flags_the_innermost_loop_and_a_nested_collection_await_of_the_outer_loop() =>
        Verify.VerifyAsync(Code("""
                async Task M(int[] xs)
                {
                    foreach (var x in xs)
                    {
                        foreach (var y in [|await Children(x)|]) { [|await F(y)|]; }
                    }
                }
            """));

    [Fact]
    public Task Flags_a_thread_safe_shared_client_and_a_per_iteration_writer() =>
        Verify.VerifyAsync(Code("""
                async Task M(HttpClient client, string[] urls)
                {
                    foreach (var url in urls) Use(([|await client.GetStringAsync(url)|]).Length);
                    foreach (var url in urls)
                    {
                        using var writer = new StreamWriter(url);
                        [|await writer.WriteAsync(url)|];
                    }
                }
            """));

    // ---- must not flag ----

    [Fact]
    public Task Ignores_awaits_that_drive_the_loop_condition() =>
        Verify.VerifyAsync(Code("""
                async Task M(StreamReader r, ChannelReader<int> reader)
                {
                    string? line;
                    while ((line = await r.ReadLineAsync()) != null) { await Send(line); }
                    while (await reader.WaitToReadAsync()) { var item = await reader.ReadAsync(); await F(item); }
                }
            """));

    [Fact]
    public Task Ignores_paging_with_a_continuation_token() =>
        Verify.VerifyAsync(Code("""
                async Task<List<int>> M()
                {
                    var items = new List<int>();
                    string? token = null;
                    do
                    {
                        var page = await GetPage(token);
                        items.AddRange(page.Items);
                        token = page.Next;
                    } while (token != null);
                    for (var page = await GetPage(null); page.Next != null; page = await GetPage(page.Next)) { await Send(page.Next); }
                    return items;
                }
            """));

    [Fact]
    public Task Ignores_a_sequential_search_that_exits_on_the_awaited_value() =>
        Verify.VerifyAsync(Code("""
                async Task<string?> M(string[] urls)
                {
                    foreach (var url in urls) { if (await ExistsAsync(url)) return url; }
                    foreach (var url in urls) { var found = await ExistsAsync(url); if (found) break; }
                    return null;
                }
            """));

    [Fact]
    public Task Ignores_pacing_and_retry_loops() =>
        Verify.VerifyAsync(Code("""
                async Task<int> M(string[] items)
                {
                    foreach (var item in items) { await Send(item); await Task.Delay(100); }
                    for (var attempt = 0; attempt < 3; attempt++)
                    {
                        try { return await F(attempt); } catch (IOException) { }
                    }
                    return 0;
                }
            """));

    [Fact]
    public Task Ignores_awaits_in_lambdas_and_local_functions_declared_in_the_loop() =>
        Verify.VerifyAsync(Code("""
                async Task M(int[] xs)
                {
                    var tasks = new List<Task>();
                    foreach (var x in xs)
                    {
                        tasks.Add(Task.Run(async () => await F(x)));
                        tasks.Add(Local());
                        async Task Local() => await G(x);
                    }
                    await Task.WhenAll(tasks);
                }
            """));

    [Fact]
    public Task Ignores_the_await_in_the_foreach_collection() =>
        Verify.VerifyAsync(Code("async Task M() { foreach (var x in await Children(1)) Use(x); }"));

    [Fact]
    public Task Ignores_await_foreach_and_awaits_in_its_body() =>
        Verify.VerifyAsync(Code("""
                async Task M(ChannelReader<int> reader)
                {
                    await foreach (var x in reader.ReadAllAsync()) { await F(x); }
                }
            """));

    [Fact]
    public Task Ignores_ordered_calls_on_one_shared_stream_writer_semaphore_or_channel() =>
        Verify.VerifyAsync(Code("""
                async Task M(Stream stream, TextWriter writer, SemaphoreSlim gate, ChannelWriter<int> channel, byte[][] chunks, string[] lines)
                {
                    foreach (var chunk in chunks) await stream.WriteAsync(chunk);
                    foreach (var line in lines) await writer.WriteLineAsync(line);
                    foreach (var line in lines) await WriteTo(stream, line);
                    foreach (var line in lines) { await gate.WaitAsync(); try { await Send(line); } finally { gate.Release(); } }
                    for (var i = 0; i < 10; i++) await channel.WriteAsync(i);
                }
                static Task WriteTo(Stream s, string line) => Task.CompletedTask;
            """));

    [Fact]
    public Task Ignores_unbounded_work_loops() =>
        Verify.VerifyAsync(Code("""
                async Task M(ConcurrentQueue<string> queue, CancellationToken ct)
                {
                    while (!ct.IsCancellationRequested) { if (queue.TryDequeue(out var item)) await Send(item); }
                    while (true) { var x = await F(1); if (x > 0) break; }
                    for (;;) { await FlushAsync(); }
                }
            """));

    [Fact]
    public Task Ignores_awaits_that_do_not_use_the_iteration_data() =>
        Verify.VerifyAsync(Code("async Task M(int n) { for (var i = 0; i < n; i++) { Use(i); await FlushAsync(); } }"));

    [Fact]
    public Task Ignores_Task_Yield_and_accumulators_fed_back_into_the_next_await() =>
        Verify.VerifyAsync(Code("""
                async Task<int> M(int[] xs)
                {
                    foreach (var x in xs) await Task.Yield();
                    var total = 0;
                    foreach (var x in xs) total += await F(x + total);
                    return total;
                }
            """));

    [Fact]
    public Task Ignores_async_iterators_yielding_each_result() =>
        Verify.VerifyAsync(Code("async IAsyncEnumerable<int> M(int[] xs) { foreach (var x in xs) yield return await F(x); }"));

    [Fact]
    public Task Does_not_crash_on_broken_code()
    {
        string[] broken =
        [
            "class C { async System.Threading.Tasks.Task M(int[] xs) { foreach (var x in xs) await ; } }",
            "class C { async System.Threading.Tasks.Task M() { for (var i = 0; i < ; i++) await Missing(i); } }",
            "class C { async System.Threading.Tasks.Task M() { while (await) { await Foo(x); } do { await Bar(); } while ( } }",
            "class C { async System.Threading.Tasks.Task M(int[] xs) { foreach (var in xs) { list.Add(await F(x)); break } } }",
        ];
        return Task.WhenAll(broken.Select(Verify.VerifyNoCrashAsync));
    }

    // ---- fixes ----

    [Fact]
    public Task Fix_turns_a_plain_await_loop_into_one_WhenAll() =>
        Fix.VerifyFixAsync(
            Code("async Task M(int[] xs) { foreach (var x in xs) [|await F(x).ConfigureAwait(false)|]; }"),
            WithLinq(Code("async Task M(int[] xs) { await Task.WhenAll(xs.Select(x => F(x))).ConfigureAwait(false); }")));

    [Fact]
    public Task Fix_turns_collecting_results_into_AddRange_of_WhenAll() =>
        Fix.VerifyFixAsync(
            WithLinq(Code("""
                    async Task<List<int>> M(int[] xs)
                    {
                        var list = new List<int>();
                        foreach (var x in xs)
                        {
                            list.Add([|await FV(x)|]);
                        }
                        return list;
                    }
                """)),
            WithLinq(Code("""
                    async Task<List<int>> M(int[] xs)
                    {
                        var list = new List<int>();
                        list.AddRange(await Task.WhenAll(xs.Select(x => FV(x).AsTask())));
                        return list;
                    }
                """)));

    private static string WithLinq(string code) => code.Replace("using System.IO;\n", "using System.IO;\nusing System.Linq;\n", StringComparison.Ordinal);
}
