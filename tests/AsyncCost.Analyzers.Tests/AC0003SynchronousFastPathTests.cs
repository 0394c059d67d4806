using AsyncCost.Analyzers.Tests.Verification;
using Verify = AsyncCost.Analyzers.Tests.Verification.AnalyzerVerifier<AsyncCost.Analyzers.Rules.AC0003SynchronousFastPathAnalyzer>;
using Fix = AsyncCost.Analyzers.Tests.Verification.CodeFixVerifier<AsyncCost.Analyzers.Rules.AC0003SynchronousFastPathAnalyzer, AsyncCost.Analyzers.CodeFixes.AC0003SynchronousFastPathCodeFix>;

namespace AsyncCost.Analyzers.Tests;

public class AC0003SynchronousFastPathTests
{
    private static string Code(string members) => $$"""
        using System;
        using System.Collections.Generic;
        using System.IO;
        using System.Threading.Tasks;
        public class Service
        {
            private readonly Dictionary<string, decimal> _cache = new();
            private Dictionary<string, decimal>? _map;
            private bool _initialized;
            private int _count;
        {{members}}
            private async Task EnsureInitializedAsync() { if (_initialized) return; await Task.Delay(1); _initialized = true; }
            private async Task<Dictionary<string, decimal>> GetMapAsync() { if (_map is { } map) return map; await Task.Delay(1); return _map = new(); }
            private async ValueTask EnsureValueAsync() { if (!_initialized) { await Task.Delay(1); _initialized = true; } }
            private async Task AlwaysSuspendsAsync() { await Task.Delay(1); _initialized = true; }
            private Task NotAsync() => Task.CompletedTask;
        }
        """;

    [Fact]
    public Task Is_silent_in_test_projects() =>
        Verify.VerifyAsync(
            Code("public async Task<decimal> GetPriceAsync(string symbol) { await EnsureInitializedAsync(); return _cache[symbol]; }"),
            TestOptions.Default.WithBuildProperty("IsTestProject", "true"));

    [Fact]
    public async Task Message_says_what_the_fast_path_saves_and_claims_no_allocation()
    {
        var diagnostic = Assert.Single(await Verify.GetDiagnosticsAsync(Code("public async ValueTask<decimal> GetPriceAsync(string symbol) { await EnsureInitializedAsync(); return _cache[symbol]; }")));
        var message = diagnostic.GetMessage(System.Globalization.CultureInfo.InvariantCulture);
        Assert.Contains(CostModel.SynchronousStateMachineTime + " per call and no allocation either way", message, StringComparison.Ordinal);
        Assert.DoesNotContain(" B)", message, StringComparison.Ordinal);
    }

    [Fact]
    public Task Ignores_a_callee_whose_completed_path_allocates_a_linked_token_source_or_an_object() =>
        Verify.VerifyAsync(Code("""
                public async Task<int> ReadAsync(byte[] buffer, System.Threading.CancellationToken ct) { var n = await ReadCoreAsync(buffer, ct); _count += n; return n; }
                public async Task<decimal> PriceAsync(string symbol) { await EnsureLoggedAsync(symbol); return _cache[symbol]; }
                private async Task<int> ReadCoreAsync(byte[] buffer, System.Threading.CancellationToken ct)
                {
                    using var linked = System.Threading.CancellationTokenSource.CreateLinkedTokenSource(ct);
                    linked.CancelAfter(1000);
                    if (_initialized) return buffer.Length;
                    await Task.Delay(1, linked.Token);
                    return 0;
                }
                private async Task EnsureLoggedAsync(string symbol) { var entry = new List<string> { symbol }; if (_initialized) return; await Task.Delay(entry.Count); }
                public async Task<int> FillAsync(byte[] buffer, System.Threading.CancellationToken ct) { var n = await FillCoreAsync(buffer, ct); _count += n; return n; }
                private async Task<int> FillCoreAsync(byte[] buffer, System.Threading.CancellationToken ct)
                {
                    using (var linked = System.Threading.CancellationTokenSource.CreateLinkedTokenSource(ct))
                    {
                        if (_initialized) return buffer.Length;
                        await Task.Delay(1, linked.Token);
                        return 0;
                    }
                }
            """));

    [Fact]
    public Task Ignores_a_method_whose_own_remaining_work_allocates() =>
        Verify.VerifyAsync(Code("""
                public async Task<string> DescribeAsync(string symbol) { await EnsureInitializedAsync(); return $"{symbol}: {_cache[symbol]}"; }
                public async Task<decimal[]> PricesAsync(string symbol) { await EnsureInitializedAsync(); return new[] { _cache[symbol] }; }
            """));

    [Fact]
    public Task Ignores_a_method_whose_remaining_work_builds_a_string_or_calls_an_allocating_method_of_the_compilation() =>
        Verify.VerifyAsync(Code("""
                private byte[] _salt = new byte[16];
                public async Task<string> LabelAsync(string symbol) { await EnsureInitializedAsync(); return symbol + ": " + _cache[symbol]; }
                public async Task RotateAsync(string secret) { await EnsureInitializedAsync(); Rotate(secret); }
                public async Task StoreAsync(string name) { await EnsureInitializedAsync(); _count += Store(name); }
                private void Rotate(string secret) { if (secret.Length == 0) throw new ArgumentException("empty"); _salt = new byte[secret.Length]; }
                private int Store(string name) { var path = Path.Combine("data", name + ".json"); return path.Length; }
            """));

    [Fact]
    public Task Ignores_a_callee_each_of_whose_completed_paths_allocates_after_a_conditional_await() =>
        Verify.VerifyAsync(Code("""
                public async Task<decimal> PriceAsync(string symbol) { await LoadAsync(symbol); return _cache[symbol]; }
                private async Task LoadAsync(string symbol)
                {
                    if (!_initialized) { await Task.Delay(1); _initialized = true; }
                    Console.WriteLine("loaded " + symbol);
                }
            """));

    // ---- must flag ----

    [Fact]
    public Task Flags_remaining_work_whose_calls_allocate_only_on_some_paths_or_not_at_all() =>
        Verify.VerifyAsync(Code("""
                public async Task<decimal> PriceAsync(string symbol) { [|await EnsureInitializedAsync()|]; Touch(symbol); return _cache[symbol]; }
                public async Task<decimal> CheckedAsync(string symbol) { [|await EnsureInitializedAsync()|]; Check(symbol); return _cache[symbol]; }
                private void Touch(string symbol) => _count += symbol.Length;
                private void Check(string symbol) { if (!_cache.ContainsKey(symbol)) throw new KeyNotFoundException("missing " + symbol); }
            """));

    [Fact]
    public Task Flags_a_callee_with_one_completed_path_that_allocates_nothing() =>
        Verify.VerifyAsync(Code("""
                public async Task<decimal> PriceAsync(string symbol) { [|await LoadAsync(symbol)|]; return _cache[symbol]; }
                private async Task LoadAsync(string symbol)
                {
                    if (_initialized) return;
                    Console.WriteLine("loading " + symbol);
                    await Task.Delay(1);
                    _initialized = true;
                }
            """));

    [Fact]
    public Task Flags_an_EnsureInitialized_guard_followed_by_a_cache_read() =>
        Verify.VerifyAsync(Code("public async Task<decimal> GetPriceAsync(string symbol) { [|await EnsureInitializedAsync()|]; return _cache[symbol]; }"));

    [Fact]
    public Task Flags_a_cached_value_then_synchronous_work() =>
        Verify.VerifyAsync(Code("public async Task<decimal> GetPriceAsync(string symbol) { var map = [|await GetMapAsync()|]; return map[symbol]; }"));

    [Fact]
    public Task Flags_a_configured_await() =>
        Verify.VerifyAsync(Code("public async Task<decimal> GetPriceAsync(string symbol) { [|await EnsureInitializedAsync().ConfigureAwait(false)|]; return _cache[symbol]; }"));

    [Fact]
    public Task Flags_a_ValueTask_callee_with_a_fall_through_synchronous_path() =>
        Verify.VerifyAsync(Code("public async Task<decimal> GetPriceAsync(string symbol) { [|await EnsureValueAsync()|]; return _cache[symbol]; }"));

    [Fact]
    public Task Flags_a_Task_returning_method() =>
        Verify.VerifyAsync(Code("public async Task IncrementAsync() { [|await EnsureInitializedAsync()|]; _count++; }"));

    [Fact]
    public Task Flags_a_ValueTask_of_T_returning_method() =>
        Verify.VerifyAsync(Code("public async ValueTask<decimal> GetPriceAsync(string symbol) { [|await EnsureInitializedAsync()|]; return _cache[symbol]; }"));

    [Fact]
    public Task Flags_several_synchronous_statements_after_the_await() =>
        Verify.VerifyAsync(Code("""
                public async Task<decimal> GetPriceAsync(string symbol)
                {
                    [|await EnsureInitializedAsync()|];
                    _count++;
                    if (!_cache.TryGetValue(symbol, out var price)) throw new KeyNotFoundException(symbol);
                    return price;
                }
            """));

    [Fact]
    public Task Flags_a_callee_in_another_file_of_the_compilation() =>
        Verify.VerifyAsync(Code("public async Task<int> M() { var n = [|await Other.CountAsync(1)|]; return n * 2; }"),
            TestOptions.Default with
            {
                AdditionalSources = ["""
                    using System.Threading.Tasks;
                    public static class Other
                    {
                        private static int? s_count;
                        public static async Task<int> CountAsync(int x) { if (s_count is { } c) return c + x; await Task.Delay(1); s_count = 3; return 3 + x; }
                    }
                    """],
            });

    [Fact]
    public Task Flags_a_generic_callee_with_a_switch_default_synchronous_path() =>
        Verify.VerifyAsync(Code("""
                public async Task<string> DescribeAsync(int mode) { var v = [|await PickAsync<string>(mode, "x")|]; return v.Trim(); }
                private static async Task<T> PickAsync<T>(int mode, T value)
                {
                    switch (mode) { case 1: await Task.Delay(1); return value; default: return value; }
                }
            """));

    [Fact]
    public Task Flags_a_lambda_in_the_synchronous_rest() =>
        Verify.VerifyAsync(Code("public async Task<Func<Task>> M() { [|await EnsureInitializedAsync()|]; return async () => await Task.Delay(1); }"));

    // ---- must not flag ----

    [Fact]
    public Task Ignores_callees_outside_the_compilation() =>
        Verify.VerifyAsync(Code("public async Task<int> M(string path) { var text = await File.ReadAllTextAsync(path); return text.Length; }"));

    [Fact]
    public Task Ignores_callees_that_always_suspend() =>
        Verify.VerifyAsync(Code("public async Task<decimal> M(string symbol) { await AlwaysSuspendsAsync(); return _cache[symbol]; }"));

    [Fact]
    public Task Ignores_methods_that_await_again_later() =>
        Verify.VerifyAsync(Code("public async Task<decimal> M(string symbol) { await EnsureInitializedAsync(); _count++; await Task.Delay(1); return _cache[symbol]; }"));

    [Fact]
    public Task Ignores_methods_that_do_not_start_with_the_await() =>
        Verify.VerifyAsync(Code("public async Task<decimal> M(string symbol) { _count++; await EnsureInitializedAsync(); return _cache[symbol]; }"));

    [Fact]
    public Task Ignores_a_lone_await_and_return_await_left_to_AC0008() =>
        Verify.VerifyAsync(Code("""
                public async Task M() { await EnsureInitializedAsync(); }
                public async Task<Dictionary<string, decimal>> N() { return await GetMapAsync(); }
            """));

    [Fact]
    public Task Ignores_methods_that_already_have_the_fast_path() =>
        Verify.VerifyAsync(Code("""
                public Task<decimal> M(string symbol)
                {
                    var pending = EnsureInitializedAsync();
                    if (pending.IsCompletedSuccessfully) return Task.FromResult(_cache[symbol]);
                    return Awaited(this, pending, symbol);
                    static async Task<decimal> Awaited(Service self, Task pending, string symbol) { await pending; return self._cache[symbol]; }
                }
            """));

    [Fact]
    public Task Ignores_non_async_callees_whose_completion_is_unknown() =>
        Verify.VerifyAsync(Code("public async Task<decimal> M(string symbol) { await NotAsync(); return _cache[symbol]; }"));

    [Fact]
    public Task Ignores_interface_and_abstract_callees() =>
        Verify.VerifyAsync(Code("""
                public async Task<decimal> M(IInit init, string symbol) { await init.InitAsync(); return _cache[symbol]; }
                public interface IInit { Task InitAsync(); }
            """));

    [Fact]
    public Task Ignores_await_using_and_await_foreach_in_the_rest() =>
        Verify.VerifyAsync(Code("""
                public async Task<long> M(string path) { await EnsureInitializedAsync(); await using var s = File.OpenRead(path); return s.Length; }
                public async Task N(IAsyncEnumerable<int> xs) { await EnsureInitializedAsync(); await foreach (var x in xs) { _count += x; } }
            """));

    [Fact]
    public Task Ignores_recursion_and_callees_whose_only_synchronous_path_throws() =>
        Verify.VerifyAsync(Code("""
                public async Task<int> Recurse(int n) { var r = await Recurse(n - 1); return r + 1; }
                public async Task<int> M(string? s) { var n = await Validate(s); return n + 1; }
                private static async Task<int> Validate(string? s) { if (s is null) throw new ArgumentNullException(nameof(s)); await Task.Delay(1); return s.Length; }
            """));

    [Fact]
    public Task Does_not_crash_on_broken_code()
    {
        string[] broken =
        [
            "class C { async System.Threading.Tasks.Task<int> M() { await N(); return ; } async System.Threading.Tasks.Task N() { if (x) return; } }",
            "class C { async System.Threading.Tasks.Task<int> M() { var x = await ; return x; } }",
            "class C { async System.Threading.Tasks.Task M() { await Missing.Call(); x++ } }",
            "class C { async System.Threading.Tasks.Task<int> M( => await",
        ];
        return Task.WhenAll(broken.Select(Verify.VerifyNoCrashAsync));
    }

    // ---- fixes ----

    [Fact]
    public Task Fix_wraps_the_completed_path_and_passes_this_to_a_static_local_function() =>
        Fix.VerifyFixAsync(
            Code("""
                    public async Task<decimal> GetPriceAsync(string symbol)
                    {
                        [|await EnsureInitializedAsync()|];
                        return _cache[symbol];
                    }
                """),
            Code("""
                    public Task<decimal> GetPriceAsync(string symbol)
                    {
                        try
                        {
                            var pending = EnsureInitializedAsync();
                            if (pending.IsCompletedSuccessfully)
                            {
                                return Task.FromResult(_cache[symbol]);
                            }
                            return Awaited(this, pending, symbol);
                        }
                        catch (Exception exception)
                        {
                            return Task.FromException<decimal>(exception);
                        }

                        static async Task<decimal> Awaited(Service self, Task pending, string symbol)
                        {
                            await pending;
                            return self._cache[symbol];
                        }
                    }
                """));

    [Fact]
    public Task Fix_keeps_the_awaited_result_ConfigureAwait_and_ValueTask() =>
        Fix.VerifyFixAsync(
            Code("""
                    public async ValueTask<decimal> GetPriceAsync(string symbol)
                    {
                        var map = [|await GetMapAsync().ConfigureAwait(false)|];
                        return map[symbol];
                    }
                """),
            Code("""
                    public ValueTask<decimal> GetPriceAsync(string symbol)
                    {
                        try
                        {
                            var pending = GetMapAsync();
                            if (pending.IsCompletedSuccessfully)
                            {
                                var map = pending.Result;
                                return new ValueTask<decimal>(map[symbol]);
                            }
                            return Awaited(pending, symbol);
                        }
                        catch (Exception exception)
                        {
                            return new ValueTask<decimal>(Task.FromException<decimal>(exception));
                        }

                        static async ValueTask<decimal> Awaited(Task<Dictionary<string, decimal>> pending, string symbol)
                        {
                            var map = await pending.ConfigureAwait(false);
                            return map[symbol];
                        }
                    }
                """));

    [Fact]
    public Task Fix_handles_a_Task_returning_method() =>
        Fix.VerifyFixAsync(
            Code("""
                    public async Task IncrementAsync(int by)
                    {
                        [|await EnsureValueAsync()|];
                        _count += by;
                    }
                """),
            Code("""
                    public Task IncrementAsync(int by)
                    {
                        var pending = EnsureValueAsync();
                        if (pending.IsCompletedSuccessfully)
                        {
                            _count += by;
                            return Task.CompletedTask;
                        }
                        return Awaited(this, pending, by);

                        static async Task Awaited(Service self, ValueTask pending, int by)
                        {
                            await pending;
                            self._count += by;
                        }
                    }
                """));
}
