using AsyncCost.Analyzers.Rules;
using AsyncCost.Analyzers.Tests.Verification;
using Microsoft.CodeAnalysis;
using Verify = AsyncCost.Analyzers.Tests.Verification.AnalyzerVerifier<AsyncCost.Analyzers.Rules.AC0006BlockingOnTaskAnalyzer>;

namespace AsyncCost.Analyzers.Tests;

/// <summary>
/// Severity from evidence (issue 46): a blocking finding is a warning only where the analyzer shows the task may be
/// pending (framework I/O, a timer, pool work, a lock, a channel, a process, or a method here that awaits one on the
/// path its constant arguments take); the same finding without that evidence is a suggestion with the same message.
/// </summary>
public class PendingEvidenceTests
{
    private const string Usings = Snippet.Usings + "using System.IO;\nusing System.Net.Http;\nusing System.Net.Sockets;\n";

    private static async Task<Diagnostic> Single(string members, TestOptions? options = null)
    {
        var source = Usings + members;
        await Verify.VerifyAsync(source, options ?? TestOptions.Default); // exactly the marked span
        return Assert.Single(await Verify.GetDiagnosticsAsync(source, options));
    }

    private static string Message(Diagnostic diagnostic) => diagnostic.GetMessage(System.Globalization.CultureInfo.InvariantCulture);

    public static TheoryData<string, string, string> Pending => new()
    {
        { "network I/O (HttpClient.GetStringAsync)", "class C { readonly HttpClient _http = new(); int Size(string u) => _http.GetStringAsync(u).[|Result|].Length; }", "network" },
        { "network I/O (C.FetchAsync → HttpClient.GetStringAsync)", "class C { readonly HttpClient _http = new(); async Task<string> FetchAsync(string u) => await _http.GetStringAsync(u).ConfigureAwait(false); string Get(string u) => FetchAsync(u).[|Result|]; }", "own async method" },
        { "network I/O (C.Outer → C.FetchAsync → HttpClient.GetStringAsync)", "class C { readonly HttpClient _http = new(); async Task<string> FetchAsync(string u) { var s = await _http.GetStringAsync(u); return s; } Task<string> Outer(string u) => FetchAsync(u); string Get(string u) => Outer(u).[|Result|]; }", "task-returning pass-through" },
        { "network I/O (HttpClient.GetStringAsync)", "class C { readonly HttpClient _http = new(); string Get(string u) { var t = _http.GetStringAsync(u); Console.WriteLine(); return t.[|Result|]; } }", "local" },
        { "file or stream I/O (Stream.ReadAsync)", "class C { readonly Stream _s = Stream.Null; int Read(byte[] b) => _s.ReadAsync(b, 0, b.Length).[|Result|]; }", "a Stream field" },
        { "network I/O (Socket.ConnectAsync)", "class C { void Open(Socket s, System.Net.EndPoint e) => s.ConnectAsync(e).[|Wait|](); }", "socket" },
        { "file or stream I/O (File.ReadAllTextAsync)", "class C { string Load(string p) => File.ReadAllTextAsync(p).GetAwaiter().[|GetResult|](); }", "file" },
        { "a timer (Task.Delay)", "class C { void Pause() => Task.Delay(100).[|Wait|](); }", "timer" },
        { "work queued to the thread pool (Task.Run)", "class C { int Compute() => Task.Run(() => 42).[|Result|]; }", "pool work" },
        { "a lock another holder releases (SemaphoreSlim.WaitAsync)", "class C { readonly SemaphoreSlim _gate = new(1); void Enter() => _gate.WaitAsync().[|Wait|](); }", "semaphore" },
        { "work queued to the thread pool (C.HopAsync → Task.Yield)", "class C { async Task<int> HopAsync() { await Task.Yield(); return 1; } int Get() => HopAsync().[|Result|]; }", "yield" },
        { "network I/O (Resolver.ResolveAsync → HttpClient.GetStringAsync)", """
          interface IResolver { Task<int> ResolveAsync(string name); }
          sealed class Memory : IResolver { public Task<int> ResolveAsync(string name) => Task.FromResult(0); }
          sealed class Resolver : IResolver { readonly HttpClient _http = new(); public async Task<int> ResolveAsync(string name) => (await _http.GetStringAsync(name)).Length; }
          class C { int M(IResolver r, string n) => r.ResolveAsync(n).[|Result|]; }
          """, "an interface with an implementation here that awaits I/O" },
        { "network I/O (C.ReadAsync → Stream.ReadAsync)", "class C { readonly NetworkStream _s = null!; async Task<int> ReadAsync(byte[] b, bool async) => async ? await _s.ReadAsync(b, 0, b.Length) : _s.Read(b, 0, b.Length); int Read(byte[] b, bool async) => ReadAsync(b, async).[|Result|]; }", "flag passed on, not constant" },
    };

    [Theory]
    [MemberData(nameof(Pending))]
    public async Task A_wait_on_a_task_shown_pending_is_a_warning_naming_the_evidence(string evidence, string members, string name)
    {
        _ = name;
        var diagnostic = await Single(members);
        Assert.Equal(DiagnosticSeverity.Warning, diagnostic.Severity);
        Assert.Contains("may still be pending on " + evidence, Message(diagnostic), StringComparison.Ordinal);
        Assert.Equal(evidence, diagnostic.Properties[AC0006BlockingOnTaskAnalyzer.PendingOnProperty]);
    }

    public static TheoryData<string, string> Unseen => new()
    {
        { "class C { int M(IStore s) => s.GetAsync().[|Result|]; } interface IStore { Task<int> GetAsync(); }", "interface" },
        { "class C { int M(Base b) => b.GetAsync().[|Result|]; } abstract class Base { public abstract Task<int> GetAsync(); }", "abstract, implemented nowhere here" },
        // Every implementation here completes at once in the mode the call passes (a cache-only lookup).
        { """
          enum Lookup { CacheOnly, Network }
          interface IResolver { Task<int> ResolveAsync(string name, Lookup lookup); }
          sealed class Resolver : IResolver
          {
              readonly HttpClient _http = new();
              public async Task<int> ResolveAsync(string name, Lookup lookup)
              {
                  if (lookup == Lookup.Network) { return (await _http.GetStringAsync(name)).Length; }
                  return await Cached(name);
              }
              static Task<int> Cached(string name) => Cache.Get(name);
          }
          static class Cache { public static Func<string, Task<int>> Get = name => Task.FromResult(name.Length); }
          class C { int M(IResolver r, string n) => r.ResolveAsync(n, Lookup.CacheOnly).[|Result|]; }
          """, "interface whose implementations complete in the mode passed" },
        { "class C { int M(Func<Task<int>> start) => start().[|Result|]; }", "delegate" },
        { "class C { Task<int> _started = Task.FromResult(0); void Start(Func<Task<int>> f) => _started = f(); int M() => _started.[|Result|]; }", "a field given a delegate's task" },
        { "class C { int M(byte[] b) => new MemoryStream(b).ReadAsync(b, 0, 1).[|Result|]; }", "memory stream" },
        { "class C { string M(StringReader r) => r.ReadToEndAsync().[|Result|]; }", "string reader" },
        { "class C { readonly Lookup _l = new(); int M() => _l.FindAsync(\"k\").[|Result|]; } class Lookup { public async Task<int> FindAsync(string k) { await Task.CompletedTask; return k.Length; } }", "a method here that awaits nothing pending" },
    };

    [Theory]
    [MemberData(nameof(Unseen))]
    public async Task A_wait_whose_task_completion_cannot_be_seen_is_a_suggestion_with_the_same_claim(string members, string name)
    {
        _ = name;
        var diagnostic = await Single(members);
        Assert.Equal(DiagnosticSeverity.Info, diagnostic.Severity);
        Assert.Contains("blocks a thread on a task that may not have completed", Message(diagnostic), StringComparison.Ordinal);
        Assert.False(diagnostic.Properties.ContainsKey(AC0006BlockingOnTaskAnalyzer.PendingOnProperty));
    }

    // The path the constant arguments take: the awaits under `if (async)` do not run when the call passes false, nor
    // those under `mode == Mode.Async` when it passes Mode.Sync; the other mode's awaits still count. (The synchronous
    // arm here awaits an interface, so the bool-async proof of completion does not silence the wait: only its severity
    // is left to decide.)
    [Fact]
    public async Task Awaits_the_constant_arguments_skip_are_no_evidence()
    {
        const string members = """
            enum Mode { Sync, Async }
            interface ICache { Task<int> GetAsync(byte[] b); }
            class C
            {
                readonly Stream _s = Stream.Null;
                readonly ICache _cache = null!;
                async Task<int> ReadAsync(byte[] b, bool async)
                {
                    if (!async)
                    {
                        return await _cache.GetAsync(b);
                    }
                    return await _s.ReadAsync(b, 0, b.Length);
                }
                async Task<int> FillAsync(byte[] b, Mode mode)
                {
                    if (mode == Mode.Async)
                    {
                        await _s.FlushAsync();
                    }
                    return await _cache.GetAsync(b);
                }
                Task<int> Pass(byte[] b, bool async) => ReadAsync(b, async);
                int SyncRead(byte[] b) => ReadAsync(b, async: false).[|Result|];
                int SyncPass(byte[] b) => Pass(b, false).[|Result|];
                int SyncFill(byte[] b) => FillAsync(b, Mode.Sync).[|Result|];
                int AsyncFill(byte[] b) => FillAsync(b, Mode.Async).[|Result|];
                int AsyncRead(byte[] b) => ReadAsync(b, true).[|Result|];
            }
            """;
        await Verify.VerifyAsync(Usings + members);
        var diagnostics = await Verify.GetDiagnosticsAsync(Usings + members);
        Assert.Equal(
            [DiagnosticSeverity.Info, DiagnosticSeverity.Info, DiagnosticSeverity.Info, DiagnosticSeverity.Warning, DiagnosticSeverity.Warning],
            diagnostics.OrderBy(d => d.Location.SourceSpan.Start).Select(d => d.Severity));
    }

    // AC0010: a member other assemblies call synchronously that blocks on I/O is a warning (VSTHRD002's true positives);
    // a Dispose waiting for its loop, or a wait whose task cannot be seen, stays a suggestion.
    [Fact]
    public async Task A_packages_synchronous_api_blocking_on_network_io_is_a_warning()
    {
        const string members = """
            public sealed class Client : IDisposable
            {
                private readonly HttpClient _http = new();
                private readonly Task _loop = Task.Run(() => { });
                private readonly Func<Task<int>> _count = () => Task.FromResult(1);
                public string Download(string url) => DownloadAsync(url).GetAwaiter().{|AC0010:GetResult|}();
                public Task<string> DownloadAsync(string url) => _http.GetStringAsync(url);
                public int Count() => _count().{|AC0010:Result|};
                public void Dispose() => _loop.{|AC0010:Wait|}();
            }
            """;
        var options = TestOptions.Default.WithBuildProperty("AsyncCostPublishesPackage", "true");
        await Verify.VerifyAsync(Usings + members, options);
        var diagnostics = (await Verify.GetDiagnosticsAsync(Usings + members, options)).OrderBy(d => d.Location.SourceSpan.Start).ToList();
        Assert.Equal([DiagnosticSeverity.Warning, DiagnosticSeverity.Info, DiagnosticSeverity.Info], diagnostics.Select(d => d.Severity));
        Assert.Contains("network I/O (Client.DownloadAsync → HttpClient.GetStringAsync)", Message(diagnostics[0]), StringComparison.Ordinal);
    }

    // A team's own setting for the rule wins over the evidence, both ways (the compiler applies it after the analyzer).
    [Theory]
    [InlineData(ReportDiagnostic.Warn, DiagnosticSeverity.Warning, DiagnosticSeverity.Warning)]
    [InlineData(ReportDiagnostic.Info, DiagnosticSeverity.Info, DiagnosticSeverity.Info)]
    public async Task The_teams_severity_setting_wins(ReportDiagnostic setting, DiagnosticSeverity unseen, DiagnosticSeverity pending)
    {
        var compilation = TestCompilation.Create([Usings + "class C { int M(Func<Task<int>> start) => start().Result; int N() => Task.Run(() => 1).Result; }"], OutputKind.DynamicallyLinkedLibrary);
        compilation = compilation.WithOptions(compilation.Options.WithSpecificDiagnosticOptions([new("AC0006", setting)]));
        var diagnostics = await TestCompilation.AnalyzeAsync(compilation, new AC0006BlockingOnTaskAnalyzer(), TestOptions.Default);
        Assert.Equal([unseen, pending], diagnostics.Select(d => d.Severity));
    }
}
