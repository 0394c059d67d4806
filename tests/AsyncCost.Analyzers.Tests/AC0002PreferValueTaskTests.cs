using AsyncCost.Analyzers.Tests.Verification;
using Verify = AsyncCost.Analyzers.Tests.Verification.AnalyzerVerifier<AsyncCost.Analyzers.Rules.AC0002PreferValueTaskAnalyzer>;
using Fix = AsyncCost.Analyzers.Tests.Verification.CodeFixVerifier<AsyncCost.Analyzers.Rules.AC0002PreferValueTaskAnalyzer, AsyncCost.Analyzers.CodeFixes.AC0002PreferValueTaskCodeFix>;

namespace AsyncCost.Analyzers.Tests;

public class AC0002PreferValueTaskTests
{
    private static string Code(string members) => $$"""
        using System;
        using System.Collections.Generic;
        using System.Threading.Tasks;
        public class Prices
        {
            private readonly Dictionary<string, decimal> _cache = new();
            private int _count;
            private string? _name;
        {{members}}
            static Task<decimal> LoadAsync(string key) => Task.FromResult(1m);
        }
        """;

    private const string CachedLookup = """
            if (_cache.TryGetValue(key, out var price)) return price;
            price = await LoadAsync(key);
            _cache[key] = price;
            return price;
        """;

    // ---- must flag ----

    [Fact]
    public Task Flags_a_private_cache_lookup_awaited_once_by_its_caller() =>
        Verify.VerifyAsync(Code($$"""
                private async [|Task<decimal>|] GetAsync(string key) { {{CachedLookup}} }
                public async Task<decimal> Caller() => await GetAsync("MSFT") + await GetAsync("AAPL");
            """));

    [Fact]
    public Task Flags_an_internal_method_awaited_with_ConfigureAwait() =>
        Verify.VerifyAsync(Code($$"""
                internal async [|Task<decimal>|] GetAsync(string key) { {{CachedLookup}} }
                public async Task<decimal> Caller() => await GetAsync("MSFT").ConfigureAwait(false);
            """));

    [Fact]
    public Task Flags_ints_outside_the_cached_range_and_non_constant_ints() =>
        Verify.VerifyAsync(Code("""
                private async [|Task<int>|] Big(bool fast) { if (fast) return 42; await Task.Yield(); return 1; }
                private async [|Task<int>|] Counter(bool fast) { if (fast) return _count; await Task.Yield(); return 0; }
            """));

    [Fact]
    public Task Flags_a_non_null_reference_result() =>
        Verify.VerifyAsync(Code("""private async [|Task<string>|] Name() { if (_name is { } n) return n; await Task.Yield(); return "x"; }"""));

    [Fact]
    public Task Flags_a_method_that_never_suspends() =>
        Verify.VerifyAsync(Code("""
            #pragma warning disable CS1998
                private async [|Task<decimal>|] Constant() { return 1.5m; }
            #pragma warning restore CS1998
            """));

    [Fact]
    public Task Flags_a_public_method_of_an_internal_type_and_a_private_protected_one() =>
        Verify.VerifyAsync("""
            using System.Threading.Tasks;
            internal class Inner
            {
                public async [|Task<long>|] M(bool fast) { if (fast) return 100L; await Task.Yield(); return 1L; }
            }
            public class Outer
            {
                private protected async [|Task<long>|] N(bool fast) { if (fast) return 100L; await Task.Yield(); return 1L; }
            }
            """);

    [Fact]
    public Task Flags_a_public_method_when_the_option_includes_public_api() =>
        Verify.VerifyAsync(Code($$"""public async [|Task<decimal>|] GetAsync(string key) { {{CachedLookup}} }"""),
            TestOptions.Default.WithEditorConfig("asynccost.AC0002.include_public", "true"));

    [Fact]
    public Task Flags_zeros_whose_bits_are_not_all_zero_and_a_Task_of_a_struct_with_references() =>
        Verify.VerifyAsync(Code("""
                private async [|Task<decimal>|] ScaledZero(bool fast) { if (fast) return 0.0m; await Task.Yield(); return 1m; }
                private async [|Task<double>|] NegativeZero(bool fast) { if (fast) return -0.0; await Task.Yield(); return 1; }
                private async [|Task<KeyValuePair<string, int>>|] Pair(bool fast) { if (fast) return default; await Task.Yield(); return new("a", 1); }
            """));

    // The shapes the rule exists for: the synchronous path returns an object that already exists, and the Task is
    // its only allocation (a packet handed back when no interceptor is registered, a buffered header, a cached token).
    [Fact]
    public Task Flags_a_pass_through_and_a_cached_field_when_the_path_allocates_nothing_else() =>
        Verify.VerifyAsync(Code("""
                private readonly List<Func<string, Task<string>>> _interceptors = new();
                private object? _stream;
                private async [|Task<string>|] InterceptAsync(string packet)
                {
                    foreach (var interceptor in _interceptors) { packet = await interceptor(packet); }
                    return packet;
                }
                private async [|Task<object>|] StreamAsync()
                {
                    if (_stream is { } open) { _count++; return open; }
                    await Task.Yield();
                    return _stream = new object();
                }
                private async [|Task<string>|] TokenAsync(string user)
                {
                    if (user.Length == 0) return string.Empty;
                    if (_name is { } token) { var log = $"hit {user}"; _count += log.Length; }
                    if (_name is { } cached) return cached;
                    await Task.Yield();
                    return _name = "t";
                }
            """));

    [Fact]
    public Task Flags_a_synchronous_branch_behind_a_condition() =>
        Verify.VerifyAsync(Code("""
                private async [|Task<decimal>|] M(int mode)
                {
                    switch (mode)
                    {
                        case 0: await Task.Delay(1); return 0.5m;
                        default: return 2.5m;
                    }
                }
            """));

    [Fact]
    public Task Flags_a_generic_result_and_a_method_nobody_calls_yet() =>
        Verify.VerifyAsync(Code("private async [|Task<T>|] Echo<T>(T value, bool fast) { if (fast) return value; await Task.Yield(); return value; }"));

    [Fact]
    public Task Flags_synchronous_returns_inside_loops_try_and_lock() =>
        Verify.VerifyAsync(Code("""
                private async [|Task<decimal>|] InLoop(string[] keys)
                {
                    foreach (var key in keys) { if (_cache.TryGetValue(key, out var hit)) return hit; }
                    return await LoadAsync("x");
                }
                private async [|Task<decimal>|] InTry(string key)
                {
                    try { if (_cache.TryGetValue(key, out var hit)) return hit; }
                    finally { _count++; }
                    return await LoadAsync(key);
                }
                private async [|Task<decimal>|] InLock(string key)
                {
                    lock (_cache) { if (_cache.TryGetValue(key, out var hit)) return hit; }
                    return await LoadAsync(key);
                }
            """));

    [Fact]
    public Task Flags_a_cached_fast_path_written_as_a_conditional_or_a_coalesce() =>
        Verify.VerifyAsync(Code("""
                private async [|Task<decimal>|] GetAsync(string key) => _cache.TryGetValue(key, out var price) ? price : await LoadAsync(key);
                private async [|Task<string>|] TokenAsync() => _name ?? await LoadNameAsync();
                private async [|Task<string>|] FreshTokenAsync() { return _name is { } token && _count > 0 ? token : await LoadNameAsync(); }
                public async Task<decimal> Caller() => await GetAsync("MSFT") + (await TokenAsync()).Length + (await FreshTokenAsync()).Length;
                static Task<string> LoadNameAsync() => Task.FromResult("n");
            """));

    // ---- must not flag ----

    [Fact]
    public Task Ignores_a_conditional_whose_condition_awaits_or_whose_fast_arm_is_cached() =>
        Verify.VerifyAsync(Code("""
                private async Task<decimal> GetAsync(string key) => await ExistsAsync(key) ? 2.5m : await LoadAsync(key);
                private async Task<int> CountAsync(bool fast) => fast ? 0 : await CountSlowAsync();
                public async Task<decimal> Caller() => await GetAsync("MSFT") + await CountAsync(true);
                static Task<bool> ExistsAsync(string key) => Task.FromResult(true);
                static Task<int> CountSlowAsync() => Task.FromResult(1);
            """));

    [Fact]
    public Task Is_silent_in_test_projects() =>
        Verify.VerifyAsync(
            Code($$"""
                    private async Task<decimal> GetAsync(string key) { {{CachedLookup}} }
                    public async Task<decimal> Caller() => await GetAsync("MSFT");
                """),
            TestOptions.Default.WithBuildProperty("IsTestProject", "true"));


    [Fact]
    public Task Ignores_paths_that_pass_an_await_in_a_loop_condition_finally_or_await_using() =>
        Verify.VerifyAsync(Code("""
                private async Task<decimal> AwaitForeach(IAsyncEnumerable<decimal> xs) { await foreach (var x in xs) { if (x > 0) return x; } return 2.5m; }
                private async Task<decimal> AwaitInFinally(string key)
                {
                    try { if (_cache.TryGetValue(key, out var hit)) return hit; }
                    finally { await Task.Delay(1); }
                    return 2.5m;
                }
                private async Task<decimal> AwaitUsing() { await using var s = new System.IO.MemoryStream(); return 2.5m; }
                private async Task<decimal> DoWhile() { decimal d; do { d = await LoadAsync("x"); } while (d < 0); return d + 2.5m; }
            """));

    [Fact]
    public Task Ignores_public_api_by_default_including_protected_members() =>
        Verify.VerifyAsync(Code($$"""
                public async Task<decimal> GetAsync(string key) { {{CachedLookup}} }
                protected async Task<decimal> GetProtectedAsync(string key) { {{CachedLookup}} }
            """));

    [Fact]
    public Task Ignores_internal_methods_of_an_assembly_with_friends_but_not_private_ones() =>
        Verify.VerifyAsync("""
            using System.Threading.Tasks;
            [assembly: System.Runtime.CompilerServices.InternalsVisibleTo("Friend.Tests")]
            [assembly: System.Runtime.CompilerServices.InternalsVisibleTo("Friend, PublicKey=0024000004800000")]
            internal static class Cli
            {
                public static async Task<long> RunAsync(bool fast) { if (fast) return 100L; await Task.Yield(); return 1L; }
                internal static async Task<long> Internal(bool fast) { if (fast) return 100L; await Task.Yield(); return 1L; }
                private static async [|Task<long>|] Private(bool fast) { if (fast) return 100L; await Task.Yield(); return 1L; }
            }
            """);

    [Fact]
    public Task InternalsVisibleTo_test_assemblies_only_does_not_make_internals_public_API() =>
        Verify.VerifyAsync("""
            using System.Threading.Tasks;
            [assembly: System.Runtime.CompilerServices.InternalsVisibleTo("Library.Tests")]
            [assembly: System.Runtime.CompilerServices.InternalsVisibleTo("Library.UnitTests, PublicKey=0024000004800000")]
            [assembly: System.Runtime.CompilerServices.InternalsVisibleTo("Library.IntegrationTests")]
            [assembly: System.Runtime.CompilerServices.InternalsVisibleTo("Library.Test")]
            [assembly: System.Runtime.CompilerServices.InternalsVisibleTo("Library.Benchmarks")]
            [assembly: System.Runtime.CompilerServices.InternalsVisibleTo("DynamicProxyGenAssembly2")]
            [assembly: System.Runtime.CompilerServices.InternalsVisibleTo("Library.Testing")]
            [assembly: System.Runtime.CompilerServices.InternalsVisibleTo("Library.TestUtils")]
            public static class Cli
            {
                public static async Task<long> RunAsync(bool fast) { if (fast) return 100L; await Task.Yield(); return 1L; }
                internal static async [|Task<long>|] Internal(bool fast) { if (fast) return 100L; await Task.Yield(); return 1L; }
            }
            """);

    [Theory]
    [InlineData("Library.Tests", true)]
    [InlineData(" Library.UnitTests , PublicKey=00240000", true)]
    [InlineData("DynamicProxyGenAssembly2", true)]
    [InlineData("Library.Testing", true)]
    [InlineData("Library.TestUtils, PublicKey=00240000", true)]
    [InlineData("Library.TestHelpers", true)]
    [InlineData("Library.Specs", true)]
    [InlineData("Library.test.cluster, PublicKey=00240000", true)]
    [InlineData("Resp.benchmark", true)]
    [InlineData("Library.Benchmarks.Runner", true)]
    [InlineData("Library.Extensions", false)]
    [InlineData("Library.Testament", false)]
    [InlineData("Library.Contest", false)]
    [InlineData("Library.Server", false)]
    public void Recognizes_test_assemblies_in_InternalsVisibleTo(string friend, bool isTest) =>
        Assert.Equal(isTest, Internal.FriendAssemblies.IsTestAssembly(friend));

    [Fact]
    public Task Ignores_a_method_whose_every_synchronous_return_allocates_anyway() =>
        Verify.VerifyAsync(Code("""
                private sealed class Reply { public Reply(string text) => Text = text; public string Text { get; } }
                private async Task<Reply> ReplyAsync(string request)
                {
                    if (request.Length == 0) return new Reply("empty");
                    if (request[0] == '#') return null!;
                    if (_cache.TryGetValue(request, out var price)) return new Reply(request + price);
                    await Task.Yield();
                    return new Reply(request);
                }
                private async Task<string> DescribeAsync(string key) => _cache.TryGetValue(key, out var p) ? $"{key}={p}" : key + await LoadNameAsync();
                private async Task<string> JoinAsync(string a, string b) { if (a.Length > 0) return a + b; await Task.Yield(); return b; }
                private async Task<decimal[]> PricesAsync(string key) { if (_cache.TryGetValue(key, out var p)) return new[] { p }; return new[] { await LoadAsync(key) }; }
                private async Task<Reply> FromRequestAsync(string request)
                {
                    if (request.Length < 4)
                    {
                        var reply = new Reply(request);
                        _count++;
                        return reply;
                    }
                    _name = "checked " + request;
                    if (_cache.ContainsKey(request)) return new Reply(_name);
                    await Task.Yield();
                    return new Reply(request);
                }
                private async Task<Reply> LoggedAsync(string request)
                {
                    Console.WriteLine("request " + request);
                    if (_cache.ContainsKey(request)) return Cached;
                    await Task.Yield();
                    return new Reply(request);
                }
                private static readonly Reply Cached = new("cached");
                private async Task<Reply> GuardedAsync(string request)
                {
                    using (var gate = new System.Threading.SemaphoreSlim(1))
                    {
                        if (_cache.ContainsKey(request)) return Cached;
                        await gate.WaitAsync();
                        return new Reply(request);
                    }
                }
                public async Task<int> Caller() => (await ReplyAsync("a")).Text.Length + (await DescribeAsync("b")).Length + (await JoinAsync("a", "b")).Length
                    + (await PricesAsync("c")).Length + (await FromRequestAsync("d")).Text.Length + (await LoggedAsync("e")).Text.Length
                    + (await GuardedAsync("f")).Text.Length;
                static Task<string> LoadNameAsync() => Task.FromResult("n");
            """));

    [Fact]
    public Task Flags_a_return_whose_allocation_happened_on_another_branch() =>
        Verify.VerifyAsync(Code("""
                private async [|Task<string>|] M(string key)
                {
                    if (key.Length > 3) { _name = "long " + key; }
                    else if (_name is { } name) return name;
                    await Task.Yield();
                    return key;
                }
                private async [|Task<string>|] N(string key)
                {
                    switch (key.Length) { case 0: _name = key + "!"; break; case 1: return _name ?? key; }
                    await Task.Yield();
                    return key;
                }
            """));

    [Fact]
    public Task Ignores_results_the_runtime_caches_as_dotnet_10_does() =>
        Verify.VerifyAsync(Code("""
                private async Task<decimal> DefaultDecimal(bool fast) { if (fast) return default; await Task.Yield(); return 1m; }
                private async Task<decimal> ZeroDecimal(bool fast) { if (fast) return 0m; await Task.Yield(); return 1m; }
                private async Task<int?> NullableDefault(bool fast) { if (fast) return default; await Task.Yield(); return 5; }
                private async Task<decimal?> NullableNull(bool fast) { if (fast) return null; await Task.Yield(); return 5m; }
                private async Task<Guid> EmptyGuid(bool fast) { if (fast) return default; await Task.Yield(); return Guid.NewGuid(); }
                private async Task<DateTime> DefaultDate(bool fast) { if (fast) return default(DateTime); await Task.Yield(); return DateTime.UtcNow; }
                private async Task<TimeSpan> ZeroSpan(bool fast) { if (fast) return default; await Task.Yield(); return TimeSpan.FromSeconds(1); }
                private async Task<int> EitherCached(bool fast) { if (_count > 2) return fast ? 0 : 8; await Task.Yield(); return 100; }
                private async Task<string?> NullOrNew(bool fast) { if (_count > 1) return fast ? null : new string('x', _count); await Task.Yield(); return "y"; }
            """));

    [Fact]
    public Task Ignores_bool_and_ints_the_runtime_caches() =>
        Verify.VerifyAsync(Code("""
                private async Task<bool> Flag(bool fast) { if (fast) return fast; await Task.Yield(); return false; }
                private async Task<int> Small(bool fast) { if (fast) return 8; if (_count > 0) return -1; await Task.Yield(); return 1000; }
                private async Task<string?> Null(bool fast) { if (fast) return null; await Task.Yield(); return "x"; }
                private async Task<long> Zero(bool fast) { if (fast) return 0L; await Task.Yield(); return 5L; }
            """));

    [Fact]
    public Task Ignores_methods_that_always_suspend() =>
        Verify.VerifyAsync(Code("private async Task<decimal> M(string key) { var p = await LoadAsync(key); if (p > 0) return p; return 0.5m; }"));

    [Fact]
    public Task Ignores_overrides_virtuals_and_abstracts() =>
        Verify.VerifyAsync("""
            using System.Threading.Tasks;
            internal abstract class Base
            {
                protected virtual async Task<decimal> M(bool fast) { if (fast) return 1.5m; await Task.Yield(); return 2.5m; }
                protected abstract Task<decimal> N();
            }
            internal class Derived : Base
            {
                protected override async Task<decimal> M(bool fast) { if (fast) return 1.5m; await Task.Yield(); return 2.5m; }
                protected override async Task<decimal> N() { await Task.Yield(); return 1m; }
            }
            """);

    [Fact]
    public Task Ignores_interface_implementations() =>
        Verify.VerifyAsync("""
            using System.Threading.Tasks;
            internal interface IPrices { Task<decimal> Get(bool fast); Task<decimal> Explicit(bool fast); }
            internal class Prices : IPrices
            {
                public async Task<decimal> Get(bool fast) { if (fast) return 1.5m; await Task.Yield(); return 2.5m; }
                async Task<decimal> IPrices.Explicit(bool fast) { if (fast) return 1.5m; await Task.Yield(); return 2.5m; }
            }
            """);

    [Fact]
    public Task Ignores_a_method_group_converted_to_a_delegate() =>
        Verify.VerifyAsync(Code($$"""
                private async Task<decimal> GetAsync(string key) { {{CachedLookup}} }
                public Func<string, Task<decimal>> Getter() => GetAsync;
            """));

    [Fact]
    public Task Ignores_a_caller_that_stores_the_task() =>
        Verify.VerifyAsync(Code($$"""
                private async Task<decimal> GetAsync(string key) { {{CachedLookup}} }
                public async Task<decimal> Caller() { var pending = GetAsync("MSFT"); return await pending + await GetAsync("X"); }
            """));

    [Fact]
    public Task Ignores_a_caller_that_uses_WhenAll() =>
        Verify.VerifyAsync(Code($$"""
                private async Task<decimal> GetAsync(string key) { {{CachedLookup}} }
                public Task<decimal[]> Caller() => Task.WhenAll(GetAsync("MSFT"), GetAsync("AAPL"));
            """));

    [Fact]
    public Task Ignores_Result_and_returning_the_task_from_a_non_async_method() =>
        Verify.VerifyAsync(Code($$"""
                private async Task<decimal> GetAsync(string key) { {{CachedLookup}} }
                private async Task<decimal> GetOtherAsync(string key) { {{CachedLookup}} }
                public decimal Blocking() => GetAsync("MSFT").Result;
                public Task<decimal> Forward() => GetOtherAsync("MSFT");
            """));

    [Fact]
    public Task Ignores_non_generic_tasks_ValueTasks_and_non_async_methods() =>
        Verify.VerifyAsync(Code("""
                private async Task Plain(bool fast) { if (fast) return; await Task.Yield(); }
                private async ValueTask<decimal> Value(bool fast) { if (fast) return 1.5m; await Task.Yield(); return 2.5m; }
                private Task<decimal> NotAsync() => Task.FromResult(1.5m);
            """));

    [Fact]
    public Task Ignores_a_synchronous_path_that_only_throws() =>
        Verify.VerifyAsync(Code("private async Task<decimal> M(string? key) { if (key is null) throw new ArgumentNullException(nameof(key)); return await LoadAsync(key); }"));

    [Fact]
    public Task Does_not_crash_on_broken_code()
    {
        string[] broken =
        [
            "class C { private async System.Threading.Tasks.Task<decimal> M() { if (x) return 1m; await ; } }",
            "class C { private async System.Threading.Tasks.Task<Missing> M() { return new Missing(); } void N() { Func<int> f = M; } }",
            "class C { private async System.Threading.Tasks.Task<decimal> M( { return } decimal N() => M().Result; }",
            "class C { private async System.Threading.Tasks.Task< M() => await Other(); }",
        ];
        return Task.WhenAll(broken.Select(Verify.VerifyNoCrashAsync));
    }

    [Fact]
    public Task Fix_changes_the_return_type_and_callers_still_compile() =>
        Fix.VerifyFixAsync(
            Code($$"""
                    private async [|Task<decimal>|] GetAsync(string key) { {{CachedLookup}} }
                    public async Task<decimal> Caller() => await GetAsync("MSFT").ConfigureAwait(false) + await GetAsync("X");
                """),
            Code($$"""
                    private async ValueTask<decimal> GetAsync(string key) { {{CachedLookup}} }
                    public async Task<decimal> Caller() => await GetAsync("MSFT").ConfigureAwait(false) + await GetAsync("X");
                """));
}
