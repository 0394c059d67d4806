using AsyncCost.Analyzers.CodeFixes;
using AsyncCost.Analyzers.Rules;
using AsyncCost.Analyzers.Tests.Verification;
using Verify = AsyncCost.Analyzers.Tests.Verification.AnalyzerVerifier<AsyncCost.Analyzers.Rules.AC0009FastPathClosureAnalyzer>;

namespace AsyncCost.Analyzers.Tests;

public class AC0009FastPathClosureTests : RuleTheories<AC0009FastPathClosureAnalyzer>
{
    private const string Cache = """
        readonly Dictionary<string, int> _cache = new();
        static Task<int> Load(string key, CancellationToken ct = default) => Task.FromResult(key.Length);

        """;

    protected override string Wrap(string members) => Snippet.InClass(Cache + members);

    public static TheoryData<string, string> MustFlag => new()
    {
        { "captures a parameter", """
            ValueTask<int> Get(string key)
            {
                if (_cache.TryGetValue(key, out var value)) { return new ValueTask<int>(value); }
                return Slow();
                async ValueTask<int> [|Slow|]() => await Load(key);
            }
            """ },
        { "captures a local of the top block", """
            ValueTask<int> Get(string name)
            {
                var key = name.ToUpperInvariant();
                if (_cache.TryGetValue(key, out var value)) { return new ValueTask<int>(value); }
                return Slow();
                async ValueTask<int> [|Slow|]() => await Load(key);
            }
            """ },
        { "a top-block local declared after the fast return", """
            ValueTask<int> Get(string name)
            {
                if (_cache.TryGetValue(name, out var value)) { return new ValueTask<int>(value); }
                var key = name.Trim();
                return Slow();
                async ValueTask<int> [|Slow|]() => await Load(key);
            }
            """ },
        { "captures a parameter and this", """
            ValueTask<int> Get(string key)
            {
                if (_cache.TryGetValue(key, out var value)) { return new ValueTask<int>(value); }
                return Slow();
                async ValueTask<int> [|Slow|]() { var loaded = await Load(key); _cache[key] = loaded; return loaded; }
            }
            """ },
        { "Task<T> with Task.FromResult fast path", """
            Task<int> Get(string key)
            {
                if (_cache.TryGetValue(key, out var value)) { return Task.FromResult(value); }
                return Slow();
                async Task<int> [|Slow|]() => await Load(key);
            }
            """ },
        { "conditional expression body", """
            ValueTask<int> Get(string key, bool cached) => cached ? new ValueTask<int>(0) : Slow();
            async ValueTask<int> Unrelated() => await Load("");
            ValueTask<int> Get2(string key, bool cached) { return cached ? new ValueTask<int>(0) : Slow(); async ValueTask<int> [|Slow|]() => await Load(key); }
            ValueTask<int> Slow() => default;
            """ },
        { "non-generic Task", """
            Task Flush(bool dirty, string path)
            {
                if (!dirty) { return Task.CompletedTask; }
                return Slow();
                async Task [|Slow|]() { await Task.Delay(1); Console.WriteLine(path); }
            }
            """ },
        { "captures two parameters", """
            ValueTask<int> Get(string key, CancellationToken ct)
            {
                if (_cache.TryGetValue(key, out var value)) { return new ValueTask<int>(value); }
                return Slow();
                async ValueTask<int> [|Slow|]() => await Load(key, ct);
            }
            """ },
        { "captured through a lambda inside the local function", """
            ValueTask<int> Get(string key)
            {
                if (key.Length == 0) { return default; }
                return Slow();
                async ValueTask<int> [|Slow|]() => await Task.Run(() => key.Length);
            }
            """ },
        { "enclosing function is a local function", """
            Func<string, ValueTask<int>> Make() => Get;
            ValueTask<int> Get(string key)
            {
                return Inner(key);
                ValueTask<int> Inner(string k)
                {
                    if (k.Length == 0) { return default; }
                    return Slow();
                    async ValueTask<int> [|Slow|]() => await Load(k);
                }
            }
            """ },
        { "the task is returned through a local", """
            Task<int> Get(string key)
            {
                if (key.Length == 0) { return Task.FromResult(0); }
                var pending = Slow();
                return pending;
                async Task<int> [|Slow|]() => await Load(key);
            }
            """ },
        { "fast path in a switch", """
            ValueTask<int> Get(int kind, string key)
            {
                switch (kind)
                {
                    case 0: return new ValueTask<int>(0);
                    default: return Slow();
                }
                async ValueTask<int> [|Slow|]() => await Load(key);
            }
            """ },
        { "an allocation only after the fast return, or only on another branch", """
            ValueTask<int> Get(string key, bool log)
            {
                if (_cache.TryGetValue(key, out var value)) { return new ValueTask<int>(value); }
                if (log) { Console.WriteLine(new string('-', 3)); }
                var parts = new[] { key };
                return Slow();
                async ValueTask<int> [|Slow|]() => await Load(parts[0]);
            }
            """ },
        { "one fast return allocates, an earlier one does not", """
            static bool _known;
            ValueTask<int> Get(string key)
            {
                if (_known) { return new ValueTask<int>(0); }
                var options = new List<string> { key };
                if (options.Count > 1) { return new ValueTask<int>(1); }
                return Slow();
                async ValueTask<int> [|Slow|]() => await Load(key);
            }
            """ },
        { "an allocation inside a loop or conditional before the fast return", """
            ValueTask<int> Get(string[] keys, string key)
            {
                foreach (var k in keys) { _ = new List<string> { k }; }
                var extra = keys.Length > 1 ? new object() : null;
                if (_cache.TryGetValue(key, out var value)) { return new ValueTask<int>(value); }
                return Slow();
                async ValueTask<int> [|Slow|]() => await Load(key);
            }
            """ },
        { "a validating wrapper whose core can complete without suspending", """
            ValueTask<int> Read(byte[] buffer, int count, CancellationToken ct)
            {
                if (buffer is null) { throw new ArgumentNullException(nameof(buffer)); }
                if (count < 0) { throw new ArgumentOutOfRangeException(nameof(count)); }
                return Core();
                async ValueTask<int> [|Core|]()
                {
                    if (_cache.TryGetValue("buffered", out var buffered)) { return Math.Min(buffered, count); }
                    return await Load("x", ct);
                }
            }
            """ },
        { "a validating wrapper of a Task core that can complete without suspending", """
            Task Write(string text, CancellationToken ct)
            {
                ArgumentNullException.ThrowIfNull(text);
                return Core();
                async Task [|Core|]()
                {
                    if (text.Length == 0) { return; }
                    await Load(text, ct);
                }
            }
            """ },
    };

    public static TheoryData<string, string> MustNotFlag => new()
    {
        { "static local function", """
            ValueTask<int> Get(string key)
            {
                if (_cache.TryGetValue(key, out var value)) { return new ValueTask<int>(value); }
                return Slow(key);
                static async ValueTask<int> Slow(string key) => await Load(key);
            }
            """ },
        { "non-capturing local function", """
            ValueTask<int> Get(string key)
            {
                if (_cache.TryGetValue(key, out var value)) { return new ValueTask<int>(value); }
                return Slow(key);
                async ValueTask<int> Slow(string k) => await Load(k);
            }
            """ },
        { "captures only this", """
            int _misses;
            ValueTask<int> Get(string key)
            {
                if (_cache.TryGetValue(key, out var value)) { return new ValueTask<int>(value); }
                return Slow(key);
                async ValueTask<int> Slow(string k) { _misses++; return await Load(k); }
            }
            """ },
        { "captured local declared only on the slow path", """
            ValueTask<int> Get(string name)
            {
                if (_cache.TryGetValue(name, out var value)) { return new ValueTask<int>(value); }
                {
                    var key = name.Trim();
                    return Slow();
                    async ValueTask<int> Slow() => await Load(key);
                }
            }
            """ },
        { "enclosing method is async already", """
            async Task<int> Get(string key)
            {
                if (_cache.TryGetValue(key, out var value)) { return value; }
                return await Slow();
                async Task<int> Slow() => await Load(key);
            }
            """ },
        { "local function is not async", """
            Task<int> Get(string key)
            {
                if (_cache.TryGetValue(key, out var value)) { return Task.FromResult(value); }
                return Slow();
                Task<int> Slow() => Load(key);
            }
            """ },
        { "no fast path", """
            Task<int> Get(string key)
            {
                return Slow();
                async Task<int> Slow() => await Load(key);
            }
            """ },
        { "the local function's task is not returned", """
            Task Get(string key)
            {
                _ = Slow();
                return Task.CompletedTask;
                async Task Slow() => await Load(key);
            }
            """ },
        { "enclosing method does not return a task", """
            void Get(string key)
            {
                if (key.Length == 0) { return; }
                _ = Slow();
                async Task Slow() => await Load(key);
            }
            """ },
        { "an async lambda instead of a local function", """
            Task<int> Get(string key)
            {
                if (key.Length == 0) { return Task.FromResult(0); }
                Func<Task<int>> slow = async () => await Load(key);
                return slow();
            }
            """ },
        { "own parameter shadows the outer name", """
            ValueTask<int> Get(string key)
            {
                if (key.Length == 0) { return default; }
                return Slow(key);
                async ValueTask<int> Slow(string key) => await Load(key);
            }
            """ },
        { "local declared inside the local function", """
            ValueTask<int> Get(string key)
            {
                if (key.Length == 0) { return default; }
                return Slow(key);
                async ValueTask<int> Slow(string k) { var upper = k.ToUpperInvariant(); return await Task.Run(() => upper.Length); }
            }
            """ },
        { "for-scoped capture entered only on the slow path", """
            ValueTask<int> Get(string[] keys)
            {
                if (keys.Length == 0) { return default; }
                for (var i = 0; i < keys.Length; i++) { return Slow(); async ValueTask<int> Slow() => await Load("key" + i); }
                return default;
            }
            """ },
        { "the fast path already allocates an object before returning", """
            ValueTask<int> Get(string key)
            {
                var request = new List<string> { key };
                if (request.Count == 1) { return new ValueTask<int>(0); }
                return Slow();
                async ValueTask<int> Slow() => await Load(key);
            }
            """ },
        { "each fast return follows an allocation on its own branch", """
            ValueTask<int> Get(string key, bool trace)
            {
                if (trace)
                {
                    var line = $"get {key}";
                    return new ValueTask<int>(line.Length);
                }
                var keys = new string[] { key };
                if (keys.Length == 1) { return new ValueTask<int>(1); }
                return Slow();
                async ValueTask<int> Slow() => await Load(key);
            }
            """ },
        { "the returned value itself allocates", """
            ValueTask<object> Get(string key)
            {
                if (key.Length == 0) { return new ValueTask<object>(new object()); }
                return Slow();
                async ValueTask<object> Slow() => await Load(key);
            }
            """ },
        { "a validating wrapper whose core always suspends", """
            ValueTask<int> Read(byte[] buffer, CancellationToken ct)
            {
                if (buffer is null) { throw new ArgumentNullException(nameof(buffer)); }
                return Core();
                async ValueTask<int> Core() => await Load("x", ct) + buffer.Length;
            }
            """ },
        { "a validating wrapper of a Task<T> core, which allocates its task on the synchronous path anyway", """
            Task<string> Name(string key)
            {
                ArgumentNullException.ThrowIfNull(key);
                return Core();
                async Task<string> Core()
                {
                    if (key.Length == 0) { return key + "!"; }
                    return key + await Load(key);
                }
            }
            """ },
    };

    [Fact]
    public async Task Message_names_the_captured_state()
    {
        var diagnostic = Assert.Single(await Verify.GetDiagnosticsAsync(Snippet.InClass(Cache + """
            ValueTask<int> Get(string key, CancellationToken ct) { if (key.Length == 0) { return default; } return Slow(); async ValueTask<int> Slow() => await Load(key, ct); }
            """)));
        var message = diagnostic.GetMessage(System.Globalization.CultureInfo.InvariantCulture);
        Assert.Contains("'Slow' captures 'key', 'ct', so its closure (~32 B, as measured for a closure of that shape)", message, StringComparison.Ordinal);
        Assert.Equal("C.Get", diagnostic.Properties["AsyncCostMethod"]);
    }

    [Fact]
    public async Task A_const_local_is_not_a_capture()
    {
        var diagnostic = Assert.Single(await Verify.GetDiagnosticsAsync(Snippet.InClass(Cache + """
            ValueTask<int> Get(string key)
            {
                const int Retries = 3;
                if (key.Length == 0) { return default; }
                return Slow();
                async ValueTask<int> Slow() { var total = 0; for (var i = 0; i < Retries; i++) { total += await Load(key); } return total; }
            }
            """)));
        var message = diagnostic.GetMessage(System.Globalization.CultureInfo.InvariantCulture);
        Assert.Contains("'Slow' captures 'key', so its closure (~24 B,", message, StringComparison.Ordinal);
        Assert.DoesNotContain("Retries", message, StringComparison.Ordinal);
        Assert.DoesNotContain("Retries", diagnostic.Properties[AC0009FastPathClosureAnalyzer.CapturedProperty], StringComparison.Ordinal);
    }

    [Fact]
    public Task Only_const_locals_used_means_no_closure() =>
        Verify.VerifyAsync(Snippet.InClass(Cache + """
            ValueTask<int> Get(bool fast)
            {
                const string Key = "k";
                if (fast) { return default; }
                return Slow();
                async ValueTask<int> Slow() => await Load(Key);
            }
            """));

    public static TheoryData<string> BrokenCode => new()
    {
        { "ValueTask<int> Get(string key) { if (key.Length == 0) return default; return Slow(); async ValueTask<int> Slow() => await Load(key }" },
        { "ValueTask<int> Get(string key) { return Slow(; async ValueTask<int> Slow() => await Missing(key); }" },
        { "Task Get(string key) { if (x) return Task.CompletedTask; return Slow(); async Task Slow() { await y; } }" },
        { "ValueTask<int> Get(string key) => key is null ? default : Slow(); async ValueTask<int> Slow() => await Load(key);" },
        { "ValueTask<int> Get(string key) { if (key.Length == 0) return default; return Slow(); async Undefined Slow() => await Load(key); }" },
    };

    [Fact]
    public Task Fix_makes_the_local_function_static_and_passes_the_state() =>
        CodeFixVerifier<AC0009FastPathClosureAnalyzer, AC0009FastPathClosureCodeFix>.VerifyFixAsync(
            Snippet.InClass(Cache + """
                static ValueTask<int> Get(string key, CancellationToken ct, Dictionary<string, int> cache)
                {
                    if (cache.TryGetValue(key, out var value))
                    {
                        return new ValueTask<int>(value);
                    }
                    return Slow(retries: 2);

                    async ValueTask<int> [|Slow|](int retries = 1)
                    {
                        var loaded = await Load(key, ct);
                        cache[key] = loaded + retries;
                        return retries > 0 ? loaded : await Slow(retries - 1);
                    }
                }
            """),
            Snippet.InClass(Cache + """
                static ValueTask<int> Get(string key, CancellationToken ct, Dictionary<string, int> cache)
                {
                    if (cache.TryGetValue(key, out var value))
                    {
                        return new ValueTask<int>(value);
                    }
                    return Slow(key, ct, cache, retries: 2);

                    static async ValueTask<int> Slow(string key, CancellationToken ct, Dictionary<string, int> cache, int retries = 1)
                    {
                        var loaded = await Load(key, ct);
                        cache[key] = loaded + retries;
                        return retries > 0 ? loaded : await Slow(key, ct, cache, retries - 1);
                    }
                }
            """));

    [Fact]
    public Task Fix_keeps_an_instance_local_function_when_it_uses_this() =>
        CodeFixVerifier<AC0009FastPathClosureAnalyzer, AC0009FastPathClosureCodeFix>.VerifyFixAsync(
            Snippet.InClass(Cache + """
                ValueTask<int> Get(string key)
                {
                    if (_cache.TryGetValue(key, out var value))
                    {
                        return new ValueTask<int>(value);
                    }
                    return Slow();
                    async ValueTask<int> [|Slow|]() => _cache[key] = await Load(key);
                }
            """),
            Snippet.InClass(Cache + """
                ValueTask<int> Get(string key)
                {
                    if (_cache.TryGetValue(key, out var value))
                    {
                        return new ValueTask<int>(value);
                    }
                    return Slow(key);
                    async ValueTask<int> Slow(string key) => _cache[key] = await Load(key);
                }
            """));

    [Fact]
    public async Task No_fix_when_the_enclosing_method_changes_a_captured_variable_after_the_call()
    {
        var diagnostic = Assert.Single(await Verify.GetDiagnosticsAsync(Snippet.InClass(Cache + """
            Task<int> Get(string key) { if (key.Length == 0) { return Task.FromResult(0); } var task = Slow(); key = ""; return task; async Task<int> Slow() { await Task.Yield(); return key.Length; } }
            """)));
        Assert.False(diagnostic.Properties.ContainsKey(AC0009FastPathClosureAnalyzer.CapturedProperty));
    }

    [Fact]
    public async Task No_fix_when_the_local_function_writes_the_captured_variable()
    {
        var diagnostic = Assert.Single(await Verify.GetDiagnosticsAsync(Snippet.InClass(Cache + """
            ValueTask<int> Get(string key) { var hits = 0; if (key.Length == 0) { return new ValueTask<int>(hits); } return Slow(); async ValueTask<int> Slow() { hits++; return await Load(key) + hits; } }
            """)));
        Assert.False(diagnostic.Properties.ContainsKey(AC0009FastPathClosureAnalyzer.CapturedProperty));
    }
}
