using AsyncCost.Analyzers.CodeFixes;
using AsyncCost.Analyzers.Rules;
using AsyncCost.Analyzers.Tests.Verification;
using Microsoft.CodeAnalysis;
using Verify = AsyncCost.Analyzers.Tests.Verification.AnalyzerVerifier<AsyncCost.Analyzers.Rules.AC0006BlockingOnTaskAnalyzer>;

namespace AsyncCost.Analyzers.Tests;

public class AC0006BlockingOnTaskTests : RuleTheories<AC0006BlockingOnTaskAnalyzer>
{
    private static readonly TestOptions ConsoleApp = TestOptions.Default with { OutputKind = OutputKind.ConsoleApplication };

    // The program's edge reached through handlers: a command-line parser's WithParsed(Run) from a synchronous Main runs
    // the handler on Main's thread, and so do the synchronous helpers only it calls; a dedicated thread is made by a
    // LongRunning StartNew as by new Thread. Handed to Task.Run, or also called from async code, the wait is reported.
    [Fact]
    public Task Handlers_the_synchronous_main_hands_on_and_long_running_threads_are_edges() =>
        Verify.VerifyAsync(Snippet.Usings + """
            sealed class Parser { public Parser WithParsed(Action<string> handler) { handler("x"); return this; } }
            static class Program
            {
                static void Main(string[] args)
                {
                    new Parser().WithParsed(Download.Run).WithParsed(Update.Run);
                    Task.Run(() => Pooled.Run("x")).Wait();
                    Task.Factory.StartNew(Worker.Loop, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);
                    Task.Factory.StartNew(() => Worker.Fetch().Wait(), TaskCreationOptions.LongRunning);
                }
            }
            static class Download
            {
                public static void Run(string name) => Fetch(name);
                private static void Fetch(string name) => Task.Delay(10).Wait();
            }
            static class Update
            {
                public static void Run(string name) => Check(name).GetAwaiter().GetResult();
                static async Task Check(string name) { await Task.Delay(10); Later(); }
                static void Later() => Task.Delay(10).[|Wait|]();
            }
            static class Pooled { public static void Run(string name) => Task.Delay(10).[|Wait|](); }
            static class Worker
            {
                public static void Loop() => Task.Delay(10).Wait();
                public static Task Fetch() => Task.Delay(10);
            }
            """, ConsoleApp);

    // A team's written decision under a peer's ID (issue 34: lines that carry the maintainers' own
    // `#pragma warning disable VSTHRD002`) is respected; any other pragma, or one restored before the line, is not.
    [Fact]
    public Task Respects_a_peers_suppression_on_the_line_or_member_and_nothing_else() =>
        Verify.VerifyAsync(Snippet.InClass("""
            int Pragma(Task<int> t)
            {
            #pragma warning disable VSTHRD002 // the host calls this synchronously
                var a = t.Result;
            #pragma warning restore VSTHRD002
                return a;
            }
            int Meziantou(Task<int> t)
            {
            #pragma warning disable MA0045, CA2000
                return t.Result;
            #pragma warning restore MA0045, CA2000
            }
            int Restored(Func<Task<int>> start)
            {
            #pragma warning disable CA1849
            #pragma warning restore CA1849
                return start().[|Result|];
            }
            int Unrelated(Func<Task<int>> start)
            {
            #pragma warning disable CA2000
                return start().[|Result|];
            #pragma warning restore CA2000
            }
            [System.Diagnostics.CodeAnalysis.SuppressMessage("Usage", "VSTHRD002:Avoid problematic synchronous waits", Justification = "sync API")]
            int Attributed(Task<int> t) => t.Result;
            [System.Diagnostics.CodeAnalysis.SuppressMessage("Performance", "CA1849")]
            sealed class Suppressed { int M(Task<int> t) => t.Result; int P => Task.FromResult(Environment.TickCount).Result + Get().Result; static Task<int> Get() => Task.Run(() => 1); }
            [System.Diagnostics.CodeAnalysis.SuppressMessage("Reliability", "CA2007")]
            int OtherPeer(Func<Task<int>> start) => start().[|Result|];
            """));

    // AC0010: the waits of AC0006 that stand in a synchronous contract, where "await it" cannot be the fix (issue 34:
    // 29 of 36 AC0006 findings were these, true but debatable). Each is AC0010 with its contract's advice, not AC0006.
    public static TheoryData<string, string> SynchronousContracts => new()
    {
        { "sealed class Client { readonly int _port; public Client(Func<Task<int>> find) => _port = find().GetAwaiter().{|AC0010:GetResult|}(); }", "constructor" },
        { "sealed class Pump : IDisposable { Task _loop = Task.Run(() => { }); public void Dispose() => _loop.{|AC0010:Wait|}(); }", "IAsyncDisposable" },
        { "class Pump : IDisposable { Task _loop = Task.Run(() => { }); public void Dispose() => Dispose(true); protected virtual void Dispose(bool disposing) => _loop.{|AC0010:Wait|}(); }", "DisposeAsync" },
        { "sealed class Pump : IDisposable, IAsyncDisposable { Task _loop = Task.Run(() => { }); public void Dispose() => _loop.{|AC0010:Wait|}(); public ValueTask DisposeAsync() => new(_loop); }", "already has DisposeAsync: steer callers to it" },
        { "sealed class Pump { Task _loop = Task.Run(() => { }); ~Pump() => _loop.{|AC0010:Wait|}(); }", "finalizer" },
        { "sealed class Wrapped : System.IO.MemoryStream { public override int Read(byte[] b, int o, int c) => ReadAsync(b, o, c).{|AC0010:Result|}; }", "MemoryStream" },
        { "interface IStore { string Get(string key); } sealed class Store : IStore { public string Get(string key) => Task.Run(() => key).{|AC0010:Result|}; }", "IStore" },
        { "sealed class Conn { public int EndRead(IAsyncResult result) => ((Task<int>)result).{|AC0010:Result|}; }", "Task-based method" },
        { "public static class Waits { public static void BlockingWait(Task t) => t.GetAwaiter().{|AC0010:GetResult|}(); }", "blocking_helpers" },
    };

    [Theory]
    [MemberData(nameof(SynchronousContracts))]
    public async Task Blocking_inside_a_synchronous_contract_is_AC0010_with_the_contracts_advice(string members, string advice)
    {
        await Verify.VerifyAsync(Snippet.Usings + members);
        var diagnostic = Assert.Single(await Verify.GetDiagnosticsAsync(Snippet.Usings + members));
        var message = diagnostic.GetMessage(System.Globalization.CultureInfo.InvariantCulture);
        Assert.Contains(advice, message, StringComparison.Ordinal);
        Assert.DoesNotContain("instead of blocking", message, StringComparison.Ordinal);
    }

    // Not a contract: an ordinary synchronous method, a lambda a constructor hands on (a function of its own), an
    // async method, a public method that is not an override or interface member (outside a package): AC0006's.
    [Fact]
    public Task Blocking_outside_a_synchronous_contract_stays_AC0006() =>
        Verify.VerifyAsync(Snippet.Usings + """
            public sealed class Service
            {
                readonly Func<int> _later;
                public Service(Func<Task<int>> find) => _later = () => find().[|Result|];
                public int Count(Func<Task<int>> count) => count().[|Result|];
                public async Task<int> Later(Func<Task<int>> count) { await Task.Yield(); return count().[|Result|]; }
                public void End(Func<Task> t) => t().[|Wait|]();
            }
            """, OutsideAPackage);

    // Issue 34: a method whose purpose is to block because it is named like the blocking member it stands in for (a
    // drop-in replacement of Task.Wait/WaitAll/WaitAny/Result, a wrapper's Result getter): AC0010, not AC0006. Not
    // GetResult: await calls an awaiter's only once complete, so one that blocks is a bug inside await (see Flags).
    [Fact]
    public Task A_member_named_like_the_blocking_api_it_stands_in_for_is_AC0010() =>
        Verify.VerifyAsync(Snippet.Usings + """
            public static class Replacements
            {
                public static bool Wait(Task task, int timeout) { Console.WriteLine(timeout); return task.{|AC0010:Wait|}(timeout); }
                public static int WaitAny(Task[] tasks) => Task.{|AC0010:WaitAny|}(tasks);
                public static void WaitAll(Task[] tasks) => Task.{|AC0010:WaitAll|}(tasks);
                public static T get_Result<T>(Task<T> task) { Console.WriteLine(); return task.{|AC0010:Result|}; }
            }
            public sealed class Pending<T>
            {
                private readonly Task<T> _task;
                public Pending(Task<T> task) => _task = task;
                public T Result => _task.{|AC0010:Result|};
                public void RunSynchronously() => _task.{|AC0010:Wait|}();
            }
            """);

    // Only those names, on a member that returns no task, in its own body: a getter named otherwise (`IsConnected`),
    // a name that merely starts like one, a Wait that returns a task, a lambda inside a RunSynchronously stay AC0006's.
    [Fact]
    public Task A_member_not_named_like_a_blocking_api_stays_AC0006() =>
        Verify.VerifyAsync(Snippet.Usings + """
            public sealed class Connection
            {
                private readonly Func<Task<bool>> _probe;
                public Connection(Func<Task<bool>> probe) => _probe = probe;
                public bool IsConnected => _probe().[|Result|];
                public bool Value => _probe().[|Result|];
                public bool WaitForReply() => _probe().[|Result|];
                public Task Wait() { _probe().[|Wait|](); return Task.CompletedTask; }
                public Action RunSynchronously() => () => _probe().[|Wait|]();
            }
            """, OutsideAPackage);

    // Issue 34: a wait in a method only this compilation calls, whose every call stands in a synchronous contract
    // (directly, or through other such methods): "await it" would have to cross the contract, so it is AC0010.
    [Fact]
    public Task A_helper_only_synchronous_contracts_call_is_AC0010() =>
        Verify.VerifyAsync(Snippet.Usings + """
            public interface IStatus { bool IsRunning { get; } string Name { get; } }
            public sealed class RemoteStatus : IStatus, IDisposable
            {
                private readonly Func<Task<string>> _fetch;
                public RemoteStatus(Func<Task<string>> fetch) => _fetch = fetch;
                public bool IsRunning => Details() == "running";
                public string Name => Details();
                public void Dispose() { Close(); Close(); }
                private string Details() => _fetch().GetAwaiter().{|AC0010:GetResult|}();
                private void Close() => Flush(3);
                private void Flush(int tries) { if (tries > 0) { _fetch().{|AC0010:Wait|}(); Flush(tries - 1); } }
            }
            public sealed class Lease : IDisposable
            {
                private readonly Task _release = Task.Run(() => { });
                public void Dispose()
                {
                    Release();
                    void Release() => _release.{|AC0010:Wait|}();
                }
            }
            internal sealed class Installer
            {
                public string Install(Func<Task<string>> download) => download().{|AC0010:Result|};
            }
            public sealed class Setup : IDisposable
            {
                public Setup(Func<Task<string>> download) => new Installer().Install(download);
                public void Dispose() { }
            }
            public sealed class Cache : IDisposable
            {
                private readonly Func<Task<int>> _load;
                public Cache(Func<Task<int>> load) { _load = load; _ = Get(_load); }
                public void Dispose() => _load.Drain();
                private static T Get<T>(Func<Task<T>> load) => load().{|AC0010:Result|};
            }
            internal static class Loads
            {
                internal static void Drain(this Func<Task<int>> load) => load().{|AC0010:Wait|}();
            }
            """);

    // A call from anywhere else keeps the wait AC0006's: an ordinary public method, a lambda inside a contract, an
    // async member, a use as a delegate, no call at all, recursion alone, (for an internal method) a friend assembly
    // other than tests, which may call it from outside, or a chain longer than the eight methods followed.
    [Fact]
    public Task A_helper_called_outside_synchronous_contracts_stays_AC0006() =>
        Verify.VerifyAsync(Snippet.Usings + """
            [assembly: System.Runtime.CompilerServices.InternalsVisibleTo("Shop.Web")]
            public sealed class Client : IDisposable
            {
                private readonly Func<Task<int>> _fetch;
                public Client(Func<Task<int>> fetch) { _fetch = fetch; Action later = () => Deferred(); later(); Handed(); }
                public void Dispose() { Both(); Task.Run(Handed); }
                public int Count() => Both();
                public async Task<int> CountAsync() { await Task.Yield(); return FromAsync(); }
                public void Close() => Dispose();
                private int Both() => _fetch().[|Result|];
                private int Deferred() => _fetch().[|Result|];
                private int FromAsync() => _fetch().[|Result|];
                private void Handed() => _fetch().[|Wait|]();
                private int Unused() => _fetch().[|Result|];
                private int Loop(int n) => n > 0 ? Loop(n - 1) : _fetch().[|Result|];
                internal int Shared() => _fetch().[|Result|];
                ~Client() => Shared();
            }
            public sealed class Deep : IDisposable
            {
                private readonly Task _pending = Task.Run(() => { });
                public void Dispose() => A1();
                void A1() => A2(); void A2() => A3(); void A3() => A4(); void A4() => A5();
                void A5() => A6(); void A6() => A7(); void A7() => A8(); void A8() => TooFar();
                void TooFar() => _pending.[|Wait|]();
            }
            """, OutsideAPackage);

    // With InternalsVisibleTo naming only test and benchmark assemblies (however the team spells them: Garnet names
    // "Garnet.test.cluster" and "BDN.benchmark"), internals are still this compilation's own: a public method of an
    // internal class that only a synchronous interface callback calls is AC0010.
    [Fact]
    public Task An_internal_helper_with_only_test_friends_follows_its_calls() =>
        Verify.VerifyAsync(Snippet.Usings + """
            [assembly: System.Runtime.CompilerServices.InternalsVisibleTo("Shop.Tests")]
            [assembly: System.Runtime.CompilerServices.InternalsVisibleTo("Shop.test.cluster")]
            [assembly: System.Runtime.CompilerServices.InternalsVisibleTo("Shop.benchmark")]
            public sealed class Client : IDisposable
            {
                private readonly Task _pending = Task.Run(() => { });
                public void Dispose() => Drain();
                internal void Drain() => _pending.{|AC0010:Wait|}();
            }
            public interface IRecordReader { bool Read(int record); }
            internal sealed class Fanout
            {
                private Task _flush = Task.CompletedTask;
                public bool Write(int record) { _flush.{|AC0010:Wait|}(); _flush = Task.Delay(record); return true; }
            }
            internal sealed class Snapshot : IRecordReader
            {
                private readonly Fanout _fanout = new();
                public bool Read(int record) => _fanout.Write(record);
            }
            """);

    // A library that publishes no package (its public methods' callers are the solution's own projects): where a test is
    // about another shape, its public members are not a package's synchronous API (AC0010, below).
    private static readonly TestOptions OutsideAPackage = TestOptions.Default.WithBuildProperty("AsyncCostPublishesPackage", "false");

    // Issue 34: in a project that publishes a package, a public synchronous method none of the package's async code
    // reaches is API that other assemblies call in its synchronous form: the fix is an async twin beside it, not an await
    // there, so its wait (and that of a helper only it calls) is AC0010, pointing to the twin where there is one.
    private const string PackageApi = """
        public sealed class Transfers
        {
            private readonly Func<string, Task<string>> _get;
            public Transfers(Func<string, Task<string>> get) => _get = get;
            public string Download(string url) => _get(url).{|AC0010:Result|};
            public Task<string> DownloadAsync(string url) => _get(url);
            public void Upload(string url) => Send(url);
            private void Send(string url) => _get(url).{|AC0010:Wait|}();
            public string Mirror(string url) => Download(url);
            public string Fetch(string url) => _get(url).{|AC0010:Result|};
            private Task<string> FetchAsync(string url) => _get(url);
        }
        public static class Aliases
        {
            public static string Copy(this Transfers transfers, string url) => Task.Run(() => url + transfers.GetHashCode()).{|AC0010:Result|};
            public static string CopyTwice(this Transfers transfers, string url) => transfers.Copy(url) + transfers.Copy(url);
        }
        """;

    [Fact]
    public async Task A_packages_synchronous_api_that_no_async_code_reaches_is_AC0010()
    {
        var options = TestOptions.Default.WithBuildProperty("AsyncCostPublishesPackage", "true");
        await Verify.VerifyAsync(Snippet.Usings + PackageApi, options);
        var messages = (await Verify.GetDiagnosticsAsync(Snippet.Usings + PackageApi, options))
            .Select(d => d.GetMessage(System.Globalization.CultureInfo.InvariantCulture)).ToList();
        Assert.Contains(messages, m => m.Contains("point them to Transfers.DownloadAsync", StringComparison.Ordinal));
        Assert.Contains(messages, m => m.Contains("only synchronous contracts call Send", StringComparison.Ordinal));
        // FetchAsync is private: no twin other assemblies can be pointed to.
        Assert.Contains(messages, m => m.Contains("Transfers.Fetch, synchronous API of this package", StringComparison.Ordinal) && m.Contains("offer an async twin beside it", StringComparison.Ordinal));
    }

    // Where the package's own async code reaches the method (directly, through a synchronous caller, from a lambda whose
    // caller is unknown, or as a delegate), the fix applies here: AC0006. So in an application, or a library that
    // publishes no package (its callers are the solution's own projects), and for a virtual member or a property.
    [Fact]
    public Task A_packages_synchronous_api_reached_from_its_own_async_code_stays_AC0006() =>
        Verify.VerifyAsync(Snippet.Usings + """
            public class Client
            {
                private readonly Func<Task<int>> _fetch;
                public Client(Func<Task<int>> fetch) => _fetch = fetch;
                public int Read() => _fetch().[|Result|];
                public int Peek() => _fetch().[|Result|];
                public int Probe() => _fetch().[|Result|];
                public int Handed() => _fetch().[|Result|];
                public virtual int Size() => _fetch().[|Result|];
                public bool IsConnected => _fetch().[|Result|] > 0;
                public async Task<int> SumAsync() { await Task.Yield(); return Read() + Twice(); }
                private int Twice() => Peek() * 2;
                public Func<int> Later() => () => Probe();
                public Task<int> Run() => Task.Run(Handed);
            }
            """, TestOptions.Default.WithBuildProperty("AsyncCostPublishesPackage", "true"));

    [Theory]
    [InlineData("AsyncCostPublishesPackage", "false")]
    [InlineData("OutputType", "Exe")]
    public Task Public_synchronous_methods_outside_a_package_stay_AC0006(string property, string value) =>
        Verify.VerifyAsync(Snippet.Usings + """
            public sealed class Transfers
            {
                private readonly Func<string, Task<string>> _get;
                public Transfers(Func<string, Task<string>> get) => _get = get;
                public string Download(string url) => _get(url).[|Result|];
            }
            """, TestOptions.Default.WithBuildProperty(property, value));

    // Issue 34: a common library's `BlockingWait(Task t)`, called from the solution's other projects, where it is only
    // an assembly reference with no body to read. Named in .editorconfig, its calls are reported in every project.
    private const string CommonLibrary = """
        namespace Shop.Common
        {
            public static class Waits
            {
                public static void BlockingWait(System.Threading.Tasks.Task t) => t.GetAwaiter().GetResult();
                public static T BlockingWait<T>(System.Threading.Tasks.Task<T> t) => t.GetAwaiter().GetResult();
            }
        }
        """;

    private const string CallsIntoCommon = """
        sealed class Session
        {
            public void Execute(Func<Task> command) => Shop.Common.Waits.[|BlockingWait|](command());
            public int Count(Func<Task<int>> count) => Shop.Common.Waits.[|BlockingWait|](count());
            public void Done() => Shop.Common.Waits.BlockingWait(Task.CompletedTask);
        }
        """;

    [Theory]
    [InlineData("BlockingWait")]
    [InlineData("Waits.BlockingWait")]
    [InlineData("Shop.Common.Waits.BlockingWait")]
    public Task A_helper_the_team_names_is_reported_at_its_calls_in_another_project(string named) =>
        Verify.VerifyAsync(Snippet.Usings + CallsIntoCommon, TestOptions.Default with
        {
            ReferencedProjects = [CommonLibrary],
            EditorConfig = TestOptions.Default.EditorConfig.Add("asynccost.AC0006.blocking_helpers", named),
        });

    [Fact]
    public Task A_helper_in_another_project_is_not_known_unless_named() =>
        Verify.VerifyAsync(Snippet.Usings + CallsIntoCommon.Replace("[|BlockingWait|]", "BlockingWait"), TestOptions.Default with
        {
            ReferencedProjects = [CommonLibrary],
            EditorConfig = TestOptions.Default.EditorConfig.Add("asynccost.AC0006.blocking_helpers", "Shop.Other.BlockingWait, Wait"),
        });

    // In its own project a named helper's body is not reported either: its calls are (the public helper's body is
    // otherwise AC0010's "a method whose purpose is to block").
    [Fact]
    public Task A_named_helpers_body_is_silent_and_its_calls_in_the_same_project_are_reported() =>
        Verify.VerifyAsync(Snippet.Usings + CommonLibrary + CallsIntoCommon, TestOptions.Default.WithEditorConfig("asynccost.AC0006.blocking_helpers", "BlockingWait"));

    public static TheoryData<string, string> MustFlag => new()
    {
        // The twin of the two raced tasks: three raced, or the check the other way round, proves nothing of the first.
        { "a raced task whose completion the winner's check does not prove", """
            async Task<int> M(Task<int> receiving, Task closing, Task other)
            {
                var winner = await Task.WhenAny(receiving, closing, other);
                if (winner == closing) { return -1; }
                return receiving.[|Result|];
            }
            async Task<int> N(Task<int> receiving, Task closing)
            {
                var winner = await Task.WhenAny(receiving, closing);
                if (winner != closing) { return -1; }
                return receiving.[|Result|];
            }
            """ },
        // The must-not-flag expression tree's twin: the same lambda as a delegate runs, and blocks.
        { "inside a lambda that is a delegate, not an expression tree", """
            interface IRepository { int Save(int value); }
            static int Run<T>(Func<T, int> call, T target) => call(target);
            int M(Func<Task<int>> load, IRepository repository) => Run<IRepository>(r => r.Save(load().[|Result|]), repository);
            """ },
        { ".Result in a sync method", """
            int M(Func<Task<int>> start) => start().[|Result|];
            async Task<int> Caller(Func<Task<int>> start) { await Task.Yield(); return M(start) + M(start); }
            """ },
        { "a GetResult of a type that is no awaiter, or of an awaiter on a task it is handed", """
            sealed class Job
            {
                private readonly Task<int> task;
                public Job(Task<int> task) => this.task = task;
                public int GetResult() => task.[|Result|];
            }
            sealed class Relay : System.Runtime.CompilerServices.INotifyCompletion
            {
                public bool IsCompleted => true;
                public void OnCompleted(Action continuation) => continuation();
                public int GetResult() => Other().[|Result|];
                private static Task<int> Other() => Task.Run(() => 1);
            }
            """ },
        { "WaitHandle.WaitAny picked another handle than the task's", """
            int Pump(Task<int> read, WaitHandle closed)
            {
                var handle = ((IAsyncResult)read).AsyncWaitHandle;
                if (WaitHandle.WaitAny(new[] { handle, closed }) == 1) { return read.GetAwaiter().[|GetResult|](); }
                return -1;
            }
            """ },
        { "a helper whose only work is to block on the task it is given: each call is the blocking, once per task", """
            int M(Task<int> t) => t.Result;
            async Task<int> Caller(Task<int> t, Task<int> u) { await Task.Yield(); await u; return [|M|](t) + M(t) + M(u); }
            """ },
        { "an internal helper whose name begins longer words in synchronous code (they are not its calls)", """
            internal static int Read(Task<int> t) => t.Result;
            async Task<int> Use(Task<int> t) { await Task.Yield(); return [|Read|](t); }
            int ReadAll() => ReaderCount; int ReaderCount => 0; // Read_ and _Read are other names too
            int Read_() => _Read; int _Read => 0;
            """ },
        { "an internal sync helper called only from async functions, in its own type and another", """
            internal static int Price(Task<int> quote) => quote.Result;
            async Task<int> Total(Task<int> quote) { await Task.Yield(); return [|Price|](quote) * 2; }
            sealed class Other { async Task<int> Run(Task<int> q) { await Task.Yield(); Func<Task<int>> later = async () => C.[|Price|](q); return await later(); } }
            """ },
        { "a comparison with a task not known complete, a local also given a running task, one filled through ref", """
            async Task<int> Same(Task<int> a, Task<int> b) { await Task.Yield(); return a == b ? a.[|Result|] : 0; }
            async Task<int> Mixed(Task<int> running, bool fast) { var pick = Task.FromResult(1); if (fast) { pick = running; } await Task.Yield(); return pick.[|Result|]; }
            async Task<int> Filled(Func<Task<int>> start) { Task<int>? slot = null; Fill(ref slot, start); await Task.Yield(); return slot!.[|Result|]; }
            static void Fill(ref Task<int>? slot, Func<Task<int>> start) => slot = start();
            """ },
        { ".Wait() in an async method", """
            async Task M(Task t) { t.[|Wait|](); await Task.Delay(1); }
            """ },
        { "GetAwaiter().GetResult()", """
            async Task<int> M(Func<Task<int>> start) => start().GetAwaiter().[|GetResult|]();
            """ },
        { "ConfigureAwait(false).GetAwaiter().GetResult()", """
            async Task M(Task t) => t.ConfigureAwait(false).GetAwaiter().[|GetResult|]();
            """ },
        { "Task.WaitAll", """
            async Task M(Task a, Task b) => Task.[|WaitAll|](a, b);
            """ },
        { "Task.WaitAny", """
            async Task<int> M(Task a, Task b) => Task.[|WaitAny|](a, b);
            """ },
        { "ValueTask<T>.Result", """
            async Task<int> M(ValueTask<int> t) => t.[|Result|];
            """ },
        { "Wait with a non-zero timeout", """
            async Task<bool> M(Task t) => t.[|Wait|](1000);
            """ },
        { "awaited only after the blocking use", """
            async Task<int> M(Task<int> t) { var x = t.[|Result|]; await t; return x; }
            """ },
        { "reassigned after the await", """
            async Task<int> M(Func<Task<int>> start) { var t = start(); await t; t = start(); return t.[|Result|]; }
            """ },
        { "a different task was checked", """
            async Task<int> M(Task<int> a, Task<int> b) => a.IsCompleted ? b.[|Result|] : 0;
            """ },
        { "the else branch of a completion check", """
            async Task<int> M(Task<int> t) { if (t.IsCompleted) { return 0; } else { return t.[|Result|]; } }
            """ },
        { "WhenAny does not complete every task", """
            async Task<int> M(Task<int> a, Task<int> b) { await Task.WhenAny(a, b); return a.[|Result|]; }
            """ },
        { "awaited in a lambda that may not have run", """
            async Task<int> M(Task<int> t) { Func<Task> f = async () => await t; return t.[|Result|]; }
            """ },
        { "inside an async lambda", """
            Func<Task<int>> M(Task<int> t) => async () => { await Task.Delay(1); return t.[|Result|]; };
            """ },
        { "a pattern on a different property", """
            async Task<int> M(Task<int> t) => t is { IsCompleted: false } ? t.[|Result|] : 0;
            """ },
        { "ValueTask GetAwaiter().GetResult()", """
            async Task<int> M(ValueTask<int> t) => t.GetAwaiter().[|GetResult|]();
            """ },
        { "WaitAll of a collection", """
            async Task M(List<Task> tasks) => Task.[|WaitAll|](tasks.ToArray());
            """ },
        { "the second wait after an IsFaulted check: on the other path the task may still run", """
            async Task M(Task t) { if (t.IsFaulted) { t.GetAwaiter().GetResult(); } Log(); t.GetAwaiter().[|GetResult|](); }
            static void Log() { }
            """ },
        { "a timed wait still blocks up to its timeout; the .Result after its success does not", """
            async Task<int> M(Task<int> t) { if (!t.[|Wait|](1000)) { throw new TimeoutException(); } return t.Result; }
            async Task<int> N(Task<int> t) { if (t.[|Wait|](TimeSpan.FromSeconds(1))) { return t.Result; } return -1; }
            """ },
        { "bool async callee that awaits whatever the flag", """
            void Open() => Open(false).GetAwaiter().[|GetResult|]();
            async Task Open(bool async) { await Task.Delay(1); }
            async Task Reopen() { await Task.Yield(); Open(); }
            """ },
        { "bool async callee returning a local that holds a task still running in the synchronous mode", """
            int Read() => Read(async: false).[|Result|];
            Task<int> Read(bool async) { var pending = Fetch(); return pending; }
            async Task<int> Fetch() { await Task.Delay(1); return 1; }
            async Task<int> ReadTwice() => Read() + await Read(async: true);
            """ },
        { "a conditional whose one arm may still be running", """
            bool _schemaOnly;
            public bool NextResult() => (_schemaOnly ? Fetch() : NextResult(false)).GetAwaiter().[|GetResult|]();
            async Task<bool> Fetch() { await Task.Delay(1); return false; }
            async Task<bool> NextResult(bool async) { if (async) { await Task.Delay(1).ConfigureAwait(false); } return true; }
            """ },
        { "a switch expression with one arm that may still be running", """
            int _mode;
            public bool NextResult() => (_mode switch { 0 => Fetch(), _ => NextResult(false) }).GetAwaiter().[|GetResult|]();
            async Task<bool> Fetch() { await Task.Delay(1); return false; }
            async Task<bool> NextResult(bool async) { if (async) { await Task.Delay(1).ConfigureAwait(false); } return true; }
            """ },
        { "bool async callee returning a local also written by out, or given itself", """
            int Read() => Read(async: false).[|Result|];
            int ReadAgain() => ReadAgain(async: false).[|Result|];
            Task<int> Read(bool async) { var result = Task.FromResult(0); Refill(out result); return result; }
            Task<int> ReadAgain(bool async) { var result = Task.FromResult(0); result = async ? Fetch() : result; return result; }
            void Refill(out Task<int> task) => task = Fetch();
            async Task<int> Fetch() { await Task.Delay(1); return 1; }
            async Task<int> ReadTwice() => Read() + ReadAgain() + await Read(async: true);
            """ },
        { "a callback handed with the task to a thread-pool queue, not a continuation", """
            void M(Task<int> task) => ThreadPool.QueueUserWorkItem(Deliver, task, preferLocal: false);
            static void Deliver(Task<int> task) => Console.WriteLine(task.[|Result|]);
            """ },
        { "bool async callee that awaits in the synchronous arm", """
            int Read() => Read(async: false).[|Result|];
            async Task<int> Read(bool async) { if (!async) { await Task.Delay(1); } return 1; }
            async Task<int> ReadTwice() => Read() + await Read(async: true);
            """ },
        { "a bool parameter not named for the async idiom, on a callee without a body to check", """
            interface IConnection { Task Open(bool flush); }
            async Task Open(IConnection connection) => connection.Open(false).GetAwaiter().[|GetResult|]();
            """ },
        { "a bool argument true is the async path", """
            void Open() => Open(true).[|Wait|]();
            async Task Open(bool async) { if (async) { await Task.Delay(1); } }
            async Task Reopen() { await Task.Yield(); Open(); }
            """ },
        { "a helper whose only work is a timed wait blocks; the .Result after it returned true does not", """
            static bool Within(Task pending) => pending.Wait(5000);
            public int TakeNow(Task<int> pending) => [|Within|](pending) ? pending.Result : -1;
            async Task<int> Take(Task<int> pending) { if (![|Within|](pending)) { throw new TimeoutException(); } await Task.Yield(); return pending.Result; }
            """ },
    };

    // Each task is reported at its first blocking use; later uses of the same task are the same finding.
    public static TheoryData<string, string> ReportedOnce => new()
    {
        { "the Wait and the .Result after it", """
            async Task<int> M(Task<int> t) { t.[|Wait|](); return t.Result; }
            """ },
        { "a timed Wait whose timeout is only logged", """
            async Task<int> M(Task<int> t) { if (!t.[|Wait|](1000)) { Log(); } return t.Result; }
            static void Log() { }
            """ },
        { "a timed Wait in a try and the .Result after it", """
            async Task<int> M(Task<int> t)
            {
                try { if (!t.[|Wait|](1000)) { throw new TimeoutException(); } }
                catch (AggregateException e) { throw e.InnerExceptions[0]; }
                return t.Result;
            }
            """ },
        { ".Result and GetResult on the same task", """
            async Task<int> M(Task<int> t) { var first = t.[|Result|]; return first + t.GetAwaiter().GetResult(); }
            """ },
        { "WaitAny covers none of its tasks", """
            async Task<int> M(Task<int> a, Task<int> b) { Task.[|WaitAny|](a, b); return a.[|Result|]; }
            """ },
        { "a WaitAll then each task's .Result", """
            async Task<int> M(Task<int> a, Task<int> b) { Task.[|WaitAll|](a, b); return a.Result + b.Result; }
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
        { "the GetResult of an awaiter, on the task or awaiter it wraps (await calls it once complete)", """
            struct Wrapped<T> : System.Runtime.CompilerServices.INotifyCompletion
            {
                private readonly Task<T> task;
                private System.Runtime.CompilerServices.TaskAwaiter<T> Inner => task.GetAwaiter();
                public Wrapped(Task<T> task) => this.task = task;
                public bool IsCompleted => task.IsCompleted;
                public void OnCompleted(Action continuation) => Inner.OnCompleted(continuation);
                public T GetResult() => Inner.GetResult();
            }
            sealed class Flag : System.Runtime.CompilerServices.INotifyCompletion
            {
                private readonly Task task;
                public Flag(Task task) => this.task = task;
                public bool IsCompleted => task.IsCompleted;
                public void OnCompleted(Action continuation) => task.ContinueWith(_ => continuation());
                public void GetResult() => this.task.Wait();
            }
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
        // An expression tree is data a library reads (a mocking library's Setup/Verify, a LINQ provider): never run here.
        { "inside an expression tree", """
            interface IRepository { int Save(int value); }
            sealed class Setup<T> { public void Returns(int value) { } }
            static Setup<T> Arrange<T>(System.Linq.Expressions.Expression<Func<T, int>> call) => new();
            static void Check<T>(System.Linq.Expressions.Expression<Action<T>> call) { }
            void M(Func<Task<int>> load) { Arrange<IRepository>(r => r.Save(load().Result)).Returns(1); Check<IRepository>(r => r.Save(load().GetAwaiter().GetResult())); }
            """ },
        { "complete by construction", """
            int M() { Task.CompletedTask.Wait(); var t = Task.FromResult(2); return Task.FromResult(1).Result + t.Result + new ValueTask<int>(3).Result; }
            """ },
        // Of two tasks raced, the winner is one of them: after leaving when it is the one, the other has completed.
        { "the other of two raced tasks, after leaving when the winner is the first", """
            async Task<int> M(Task<int> receiving, Task closing)
            {
                var winner = await Task.WhenAny(receiving, closing).ConfigureAwait(false);
                if (winner == closing) { return -1; }
                return receiving.Result;
            }
            async Task<int> N(Task<int> receiving, Task closing)
            {
                while (true)
                {
                    var winner = await Task.WhenAny(closing, receiving);
                    if (winner != receiving) { break; }
                    return receiving.GetAwaiter().GetResult();
                }
                return 0;
            }
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
        { "a bool async callee without a body, called directly: the parameter's name is the evidence", """
            abstract class Codec<T>
            {
                internal void Encode(T value) => Encode(async: false, value).GetAwaiter().GetResult();
                internal async Task EncodeAll(T[] values) { foreach (var v in values) { Encode(v); await Task.Yield(); } }
                protected abstract ValueTask Encode(bool async, T value);
            }
            interface ISession { Task Start(bool isAsync); }
            async Task Start(ISession session) => session.Start(false).GetAwaiter().GetResult();
            """ },
        { "bool async chains whose fast path returns a completed task however it is written", """
            int _buffered;
            async Task<int> Fill() => EnsureA(4, false).GetAwaiter().GetResult() + EnsureB(4, false).GetAwaiter().GetResult()
                + EnsureC(4, false).Result + EnsureD(4, false).GetAwaiter().GetResult() + EnsureE(4, false).Result;
            ValueTask<int> EnsureA(int n, bool async) => n <= _buffered ? new(n) : Refill(n, async);
            ValueTask<int> EnsureB(int n, bool async) => n <= _buffered ? ValueTask.FromResult(n) : Refill(n, async);
            Task<int> EnsureC(int n, bool async) => n <= _buffered ? Task.FromResult(n) : Refill(n, async).AsTask();
            ValueTask<int> EnsureD(int n, bool async) { if (n <= _buffered) { return new ValueTask<int>(n); } return Refill(n, async); }
            Task<int> EnsureE(int n, bool async) { if (n > _buffered) { return Refill(n, async).AsTask(); } return Task.FromResult(0); }
            async Task Skip() { SkipA(false).GetAwaiter().GetResult(); SkipB(false).GetAwaiter().GetResult(); SkipC(false).Wait(); await Task.Yield(); }
            ValueTask SkipA(bool async) => _buffered > 0 ? new() : Drain(async);
            ValueTask SkipB(bool async) => _buffered > 0 ? ValueTask.CompletedTask : Drain(async);
            Task SkipC(bool async) => _buffered > 0 ? Task.CompletedTask : Drain(async).AsTask();
            async ValueTask Drain(bool async) { if (async) { await Task.Delay(1).ConfigureAwait(false); } }
            async ValueTask<int> Refill(int n, bool async) { if (async) { await Task.Delay(n).ConfigureAwait(false); } return n; }
            """ },
        { "the bool async idiom returning a completed task held in a local, an interface's result, a switch, a throw", """
            byte[] _buffer = new byte[8];
            public string ReadString() => ReadString(async: false).GetAwaiter().GetResult();
            public object ReadMessage() => ReadMessage(async: false).GetAwaiter().GetResult();
            public int ReadKind(int kind) => ReadKind(async: false, kind).GetAwaiter().GetResult();
            public ValueTask<string> ReadString(bool async)
            {
                if (Array.IndexOf(_buffer, (byte)0) >= 0)
                {
                    var result = new ValueTask<string>("text");
                    return result;
                }
                return ReadLong(async);
            }
            ValueTask<IComparable> ReadMessage(bool async) => _buffer.Length > 4 ? new ValueTask<IComparable>(_buffer.Length) : ReadLongMessage(async);
            Task<int> ReadKind(bool async, int kind) => kind switch { 0 => Task.FromResult(0), 1 => ReadCount(async), _ => throw new ArgumentOutOfRangeException(nameof(kind)) };
            async ValueTask<string> ReadLong(bool async) { if (async) { await Task.Delay(1).ConfigureAwait(false); } return "text"; }
            async ValueTask<IComparable> ReadLongMessage(bool async) { if (async) { await Task.Delay(1).ConfigureAwait(false); } return 1; }
            async Task<int> ReadCount(bool async) { if (async) { await Task.Delay(1).ConfigureAwait(false); } return 1; }
            """ },
        { "a callback handed, wrapped with its task, to a method that continues that task (a function pointer and a delegate)", """
            readonly unsafe struct Continuation
            {
                public Continuation(object state, delegate*<Task, object, void> run) { }
            }
            readonly struct Callback
            {
                public Callback(object state, Action<Task> run) { }
            }
            static void AwaitTask(Task task, Continuation continuation) { }
            static void ContinueWith(Task task, Callback callback) { }
            unsafe Task M(Task<int> task)
            {
                AwaitTask(task, new Continuation(this, &SetResult));
                ContinueWith(task, new Callback(this, Deliver));
                return task;
                static void SetResult(Task task, object state) => Console.WriteLine(((Task<int>)task).Result);
                static void Deliver(Task task) => Console.WriteLine(new ValueTask<int>((Task<int>)task).Result);
            }
            unsafe ValueTask N<T>(ValueTask<T> pending)
            {
                AwaitTask(pending.AsTask(), new(this, &Unbox));
                return default;
                static void Unbox(Task task, object state) => Console.WriteLine(new ValueTask<T>(task: System.Runtime.CompilerServices.Unsafe.As<Task<T>>(task)).Result);
            }
            """ },
        { "the bool async idiom on every arm of a switch expression that is blocked on, a throw among them", """
            int _mode;
            public bool NextResult() => (_mode switch { 0 => NextSchemaOnly(false), 1 => NextResult(false), _ => throw new InvalidOperationException() }).GetAwaiter().GetResult();
            async Task<bool> NextSchemaOnly(bool async) { if (async) { await Task.Delay(1).ConfigureAwait(false); } return false; }
            async Task<bool> NextResult(bool async) { if (async) { await Task.Delay(1).ConfigureAwait(false); } return true; }
            """ },
        { "the bool async idiom on either arm of a conditional", """
            bool _schemaOnly;
            public bool NextResult() => (_schemaOnly ? NextSchemaOnly(false) : NextResult(false)).GetAwaiter().GetResult();
            async Task<bool> NextSchemaOnly(bool async) { if (async) { await Task.Delay(1).ConfigureAwait(false); } return false; }
            async Task<bool> NextResult(bool async) { if (async) { await Task.Delay(1).ConfigureAwait(false); } return true; }
            """ },
        { "the flag copied to a local before it is handed on", """
            async Task Flush() { await Task.Yield(); FlushCore(false).GetAwaiter().GetResult(); }
            async Task FlushCore(bool async) { var useAsync = async; await Send(useAsync).ConfigureAwait(false); }
            async Task Send(bool async) { if (async) { await Task.Delay(1).ConfigureAwait(false); } }
            """ },
        { "a switch on a local copy of the task's status", """
            async Task<object?> Describe(Task task)
            {
                var state = task.Status;
                switch (state)
                {
                    case TaskStatus.RanToCompletion: return ((Task<string>)task).Result;
                    default: await Task.Yield(); return null;
                }
            }
            """ },
        { "a private method every call of which passes a completed task", """
            async Task Relay(Task<int> attempt, TaskCompletionSource<int> sink)
            {
                if (attempt.IsCompleted) { Complete(attempt, sink); return; }
                await attempt.ConfigureAwait(false);
                Complete(attempt, sink);
            }
            static void Complete(Task<int> attempt, TaskCompletionSource<int> sink)
            {
                if (attempt.IsFaulted) { sink.TrySetException(attempt.Exception!.InnerExceptions); }
                else { sink.TrySetResult(attempt.GetAwaiter().GetResult()); }
            }
            """ },
        { "a callback reading its own completed task through Unsafe.As, registered as the continuation", """
            static void Deliver(Task done, object? sink) => ((Action<int>)sink!)(new ValueTask<int>(System.Runtime.CompilerServices.Unsafe.As<Task<int>>(done)).Result);
            Task Register(Task<int> work, Action<int> sink) => work.ContinueWith(Deliver, sink, TaskScheduler.Default);
            """ },
        { "the synchronous mode a library names (a flag field, an IsSynchronous property) and the sync arm of a bool async split", """
            sealed class Lease
            {
                private readonly bool _async;
                public Lease(bool async) => _async = async;
                internal void Release() { if (_async) { throw new InvalidOperationException(); } ReleaseAsync().GetAwaiter().GetResult(); }
                internal async Task Close() { Release(); await Task.Yield(); }
                private ValueTask ReleaseAsync() => _async ? new ValueTask(Task.Delay(1)) : default;
            }
            sealed class Options { public bool IsSynchronous { get; init; } }
            async Task Pause(Options options) { if (options.IsSynchronous) { Task.Delay(1).Wait(); return; } await Task.Delay(1); }
            async Task Acquire(bool async, SemaphoreSlim gate, Task<bool> pending)
            {
                if (async) { await gate.WaitAsync(); } else { _ = pending.Result; }
                await Load(async);
            }
            async Task Load(bool async) { if (async) { await Task.Delay(1); } }
            """ },
        { "the synchronous arm of a library's own synchronous mode, in a method returning a task", """
            internal sealed class Context { public bool IsSynchronous { get; init; } }
            internal static Task Schedule(Task work, Context context)
            {
                if (context.IsSynchronous && !work.IsCompleted) { work.GetAwaiter().GetResult(); }
                return work;
            }
            """ },
        { ".Result after await Task.WhenAll of instance calls with different result types (field, local and parameter receivers)", """
            sealed class Api { public Task<int> CountAsync() => Task.FromResult(1); public Task<string> NameAsync() => Task.FromResult(""); }
            readonly Api _api = new();
            async Task<string> M(Api api)
            {
                var local = new Api();
                var count = _api.CountAsync();
                var name = local.NameAsync();
                var other = api.CountAsync();
                await Task.WhenAll(count, name, other);
                return name.Result + count.Result + other.Result;
            }
            """ },
        { ".Result after await Task.WhenAll of an array created in place, and of a stored one", """
            async Task<string> M(Func<Task<int>> count, Func<Task<string>> name)
            {
                var c = count();
                var n = name();
                await Task.WhenAll(new Task[] { c, n }).ConfigureAwait(false);
                var d = count();
                var joined = Task.WhenAll(new[] { c, d });
                await joined;
                return n.Result + c.Result + d.Result;
            }
            """ },
        { "the enum mode idiom: a sync wrapper passes IOBehavior.Synchronous to a core that only awaits in its async arm", """
            enum IOBehavior { Synchronous, Asynchronous }
            public int Read() => ReadAsync(IOBehavior.Synchronous).GetAwaiter().GetResult();
            public int Peek() => PeekAsync(IOBehavior.Synchronous).Result;
            public void Flush() => FlushAsync(IOBehavior.Synchronous).GetAwaiter().GetResult();
            async ValueTask<int> ReadAsync(IOBehavior io)
            {
                if (io == IOBehavior.Asynchronous) { await Task.Delay(1).ConfigureAwait(false); } else { Thread.Sleep(1); }
                return await PeekAsync(io).ConfigureAwait(false);
            }
            async Task<int> PeekAsync(IOBehavior io) { if (io != IOBehavior.Synchronous) { await Task.Yield(); } return 1; }
            async Task FlushAsync(IOBehavior io) { if (io is IOBehavior.Synchronous) { return; } await Task.Delay(1); }
            """ },
        { "the enum mode idiom through a core without a body, and the synchronous mode named by the enum member", """
            enum IOBehavior { Synchronous, Asynchronous }
            interface IChannel { ValueTask<int> ReceiveAsync(IOBehavior io); }
            int Receive(IChannel channel) => channel.ReceiveAsync(IOBehavior.Synchronous).GetAwaiter().GetResult();
            Task<int> Settle(IOBehavior io, Task<int> pending)
            {
                if (io == IOBehavior.Synchronous) { return Task.FromResult(pending.GetAwaiter().GetResult()); }
                return pending;
            }
            """ },
        { "the enum mode idiom through a core that is not async and picks a completed task in the synchronous mode", """
            enum IOBehavior { Synchronous, Asynchronous }
            public int Read(System.IO.Stream stream, byte[] buffer) => ReadAsync(IOBehavior.Synchronous, stream, buffer).GetAwaiter().GetResult();
            static ValueTask<int> ReadAsync(IOBehavior io, System.IO.Stream stream, byte[] buffer) =>
                io == IOBehavior.Asynchronous ? new ValueTask<int>(stream.ReadAsync(buffer, 0, buffer.Length)) : new ValueTask<int>(stream.Read(buffer, 0, buffer.Length));
            """ },
        { "the task's own AsyncWaitHandle: picked by WaitHandle.WaitAny, waited for, or waited for within a timeout", """
            int Pump(System.IO.Stream input, byte[] buffer, WaitHandle closed)
            {
                var read = input.ReadAsync(buffer, 0, buffer.Length);
                var handle = ((IAsyncResult)read).AsyncWaitHandle;
                if (WaitHandle.WaitAny(new[] { handle, closed }) == 0) { return read.GetAwaiter().GetResult(); }
                return -1;
            }
            int Within(Task<int> pending) => ((IAsyncResult)pending).AsyncWaitHandle.WaitOne(100) ? pending.Result : -1;
            int Joined(Task<int> pending) { ((IAsyncResult)pending).AsyncWaitHandle.WaitOne(); return pending.Result; }
            """ },
        { "the task an awaited WhenAny handed back, compared with it, and a local only ever given completed tasks", """
            async Task<int> First(Task<int> work, Func<Task> timeout)
            {
                var winner = await Task.WhenAny(work, timeout());
                if (winner != work) { return -1; }
                return work.Result;
            }
            async Task<int> Within(Task<int> work) => await Task.WhenAny(work, Task.Delay(100)) == work ? work.Result : -1;
            async Task<int> Race(List<Task<int>> attempts)
            {
                Task<int>? success = null;
                while (attempts.Count > 0)
                {
                    var done = await Task.WhenAny(attempts);
                    attempts.Remove(done);
                    if (done.IsCompletedSuccessfully) { success = done; break; }
                }
                return success is null ? -1 : success.Result;
            }
            """ },
        { "a dedicated thread's start: a private method whose only use is new Thread(...), a lambda, a local function", """
            static int _code;
            static void Run(string[] args) { var worker = new Thread(Work) { Name = nameof(Work) }; worker.Start(args); worker.Join(); }
            private static void Work(object? state) => _code = ServeAsync().ConfigureAwait(false).GetAwaiter().GetResult();
            static Task<int> ServeAsync() => Task.Run(() => 0);
            void Pump(Func<Task> step) => new Thread(() => step().Wait()).Start();
            void Listen(Func<Task<int>> accept) { new Thread(new ThreadStart(Loop)).Start(); void Loop() { while (accept().Result > 0) { } } }
            """ },
        { "a TryX returning only completed tasks or null, with the bool async fallback", """
            static readonly Task<bool> Ready = Task.FromResult(true);
            int _pending;
            bool Next() => TryNext()?.Result ?? Next(false).GetAwaiter().GetResult();
            async Task<int> Count() { var n = 0; while (Next()) { n++; await Task.Yield(); } return n; }
            Task<bool>? TryNext() => _pending > 0 ? Ready : null;
            async Task<bool> Next(bool async) { if (async) { await Task.Delay(1); } return --_pending > 0; }
            """ },
        { "a TryX whose switch arms are completed tasks, null or a throw", """
            static readonly Task<bool> Ready = Task.FromResult(true);
            int _pending;
            bool Next() => TryNext()?.Result ?? false;
            async Task<int> Count() { var n = 0; while (Next()) { n++; await Task.Yield(); } return n; }
            Task<bool>? TryNext() => _pending switch { > 0 => Ready, 0 => Task.FromResult(false), < -1 => throw new InvalidOperationException(), _ => null };
            """ },
    };

    // Blocking in synchronous code: the thread is held just the same, and in an application this is how the thread
    // pool starves. Reported wherever the task is not known to be complete; the message says what to do there.
    public static TheoryData<string, string> InSynchronousCode => new()
    {
        { "a TryX with one switch arm that may still be running", """
            static readonly Task<bool> Ready = Task.FromResult(true);
            int _pending;
            bool Next() => TryNext()?.[|Result|] ?? false;
            async Task<int> Count() { var n = 0; while (Next()) { n++; await Task.Yield(); } return n; }
            Task<bool>? TryNext() => _pending switch { > 0 => Ready, 0 => Task.Run(() => false), < -1 => throw new InvalidOperationException(), _ => null };
            """ },
        { ".Result in a property getter", """
            Task<int> _count = Task.Run(() => 1);
            public int Count => _count.[|Result|];
            """ },
        { "GetAwaiter().GetResult() in a synchronous helper", """
            static Task<string> LoadAsync(string key) => Task.Run(() => key);
            static string Load(string key) => LoadAsync(key).GetAwaiter().[|GetResult|]();
            """ },
        { "Task.WaitAll and Task.WaitAny in synchronous code", """
            void All(Task a, Task b) => Task.[|WaitAll|](a, b);
            int Any(Task a, Task b) => Task.[|WaitAny|](a, b);
            """ },
        { ".Result inside a lock, in a synchronous method and in an async one", """
            readonly object _gate = new();
            int Sync(Task<int> t) { lock (_gate) { return t.[|Result|]; } }
            async Task<int> Async(Task<int> t, Task<int> u) { await Task.Yield(); lock (_gate) { return t.[|Result|] + u.[|Result|]; } }
            """ },
        { ".Wait() in a synchronous Dispose", """
            sealed class Pump : IDisposable
            {
                private readonly Task _loop = Task.Run(() => { });
                public void Dispose() => _loop.{|AC0010:Wait|}();
            }
            """ },
        { "GetResult() in a constructor and in a field initializer", """
            sealed class Settings
            {
                private static readonly string Root = Task.Run(() => "/").[|Result|];
                private readonly string _text;
                public Settings(Func<Task<string>> read) => _text = read().GetAwaiter().{|AC0010:GetResult|}();
            }
            """ },
        { "the .Result of a different task inside a ContinueWith callback", """
            Task<int> M(Task<int> first, Task<int> second) => first.ContinueWith(done => done.Result + second.[|Result|], TaskScheduler.Default);
            """ },
        { "a private synchronous method in a library blocking on real I/O, only synchronous code calling it", """
            public System.Net.IPAddress[] Resolve(string host) => Lookup(host);
            private static System.Net.IPAddress[] Lookup(string host) => System.Net.Dns.GetHostAddressesAsync(host).[|Result|];
            """ },
        { "a public synchronous member over an async one (no bridge option set)", """
            public int GetPrice(string symbol) => GetPriceAsync(symbol).[|Result|];
            public Task<int> GetPriceAsync(string symbol) => Task.Run(() => symbol.Length);
            """ },
        { "an explicit interface implementation and an override", """
            sealed class Report : IFormattable
            {
                string IFormattable.ToString(string? format, IFormatProvider? provider) => Task.Run(() => format ?? "").{|AC0010:Result|};
                public override string ToString() => Task.Run(() => "report").{|AC0010:Result|};
            }
            """ },
        { "a synchronous event handler lambda", """
            event EventHandler? Lost;
            public void Watch(Func<Task> reconnect) => Lost += (_, _) => reconnect().[|Wait|]();
            """ },
        { "a helper with a synchronous caller, and one whose name is spelled more than 32 times", """
            internal static int Read(Func<Task<int>> start) => start().[|Result|];
            int ReadAll(Func<Task<int>> start) => Read(start) + Get(start);
            private static int Get(Func<Task<int>> start) => start().[|Result|];
            int Many(Func<Task<int>> start) => CALLS;
            """.Replace("CALLS", string.Join(" + ", Enumerable.Repeat("Get(start)", 33))) },
        { "a thread's start that is also called directly, and a lambda a thread's start hands on", """
            void Work(Func<Task> step) => step().[|Wait|]();
            void Twice(Func<Task> step) { new Thread(() => Work(step)).Start(); Work(step); }
            void Spawn(Func<Task> step) => new Thread(() => Task.Run(() => step().[|Wait|]())).Start();
            """ },
        { "a timed wait in a synchronous public method", """
            public void Connect(Task handshake) { if (!handshake.[|Wait|](1000)) { throw new TimeoutException(); } }
            """ },
        { "a sync wrapper that passes the async mode of an enum, or a mode whose synchronous arm awaits", """
            enum IOBehavior { Synchronous, Asynchronous }
            public int Read() => ReadAsync(IOBehavior.Asynchronous).GetAwaiter().[|GetResult|]();
            public int Peek() => PeekAsync(IOBehavior.Synchronous).[|Result|];
            async Task<int> ReadAsync(IOBehavior io) { if (io == IOBehavior.Asynchronous) { await Task.Delay(1); } return 1; }
            async Task<int> PeekAsync(IOBehavior io) { if (io == IOBehavior.Synchronous) { await Task.Delay(1); } return 1; }
            """ },
    };

    [Theory]
    [MemberData(nameof(InSynchronousCode))]
    public Task Flags_blocking_in_synchronous_code(string name, string members)
    {
        _ = name;
        return Verify.VerifyAsync(Snippet.InClass(members));
    }

    [Fact]
    public Task Calls_of_a_blocking_helper_are_reported_and_its_body_is_not() =>
        Verify.VerifyAsync(Snippet.Usings + """
            public static class TaskSync
            {
                public static void Sync(this Task task) => task.ConfigureAwait(false).GetAwaiter().GetResult();
                public static T Sync<T>(this Task<T> task) { return task.GetAwaiter().GetResult(); }
                internal static void Block(Task task) => task.Wait();
                public static void Finish(Task task) => task.{|AC0010:Wait|}();
                public static int Twice(Task<int> task) => task.[|Result|] * 2;
            }
            public sealed class Server : IDisposable
            {
                public void Dispose() => DisposeAsync().AsTask().{|AC0010:Sync|}();
                public int Count() => CountAsync().[|Sync|]() + TaskSync.Twice(CountAsync());
                public void Stop() => TaskSync.[|Block|](Task.Delay(1));
                public void Done() => TaskSync.Finish(Task.CompletedTask);
                public async Task<int> Known() { var pending = CountAsync(); await pending; return pending.Sync(); }
                public Task<int> CountAsync() => Task.Run(() => 1);
                public ValueTask DisposeAsync() => new(Task.Delay(1));
            }
            """, OutsideAPackage);

    // A public method of a public type may be called by other assemblies: a thread start is not its only use. In an
    // internal type (no friend assembly but tests), a thread start that is its only use makes it that thread's edge.
    [Fact]
    public Task A_thread_start_visible_outside_is_flagged_and_an_internal_one_is_not() =>
        Verify.VerifyAsync(Snippet.Usings + """
            public sealed class Pump
            {
                public void Drain() => Task.Run(() => 1).[|Wait|]();
                void StartDrain() => new Thread(Drain).Start();
            }
            sealed class Worker
            {
                public void Drain() => Task.Run(() => 1).Wait();
                void StartDrain() => new Thread(Drain).Start();
            }
            """, OutsideAPackage);

    [Fact]
    public Task A_synchronous_console_Main_is_exempt() =>
        Verify.VerifyAsync(
            Snippet.Usings + """
            static class Program
            {
                static int Main() => Run().Result;
                static void Other() => Run().[|Wait|]();
                static async Task OtherAsync() { await Task.Yield(); Other(); }
                static Task<int> Run() => Task.Delay(1).ContinueWith(_ => 0, TaskScheduler.Default);
            }
            """,
            ConsoleApp);

    [Fact]
    public Task Top_level_statements_without_an_await_are_the_programs_edge_too() =>
        Verify.VerifyAsync(
            Snippet.Usings + """
            var answer = Compute().Result;
            Console.WriteLine(answer + Helper());
            static Task<int> Compute() => Task.Run(() => 42);
            static int Helper() => Compute().[|Result|];
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
                static async Task<int> Caller() { await Task.Yield(); return Main(); }
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
        var diagnostic = Assert.Single(await Verify.GetDiagnosticsAsync(Snippet.InClass("int M(Func<Task<int>> f) => f().Result; async Task<int> Caller(Func<Task<int>> f) => M(f);")));
        Assert.False(diagnostic.Properties.ContainsKey("AsyncCostCanAwait"));
    }

    [Fact]
    public async Task The_finding_names_the_method_whose_task_it_blocks_on_where_the_code_names_it()
    {
        var diagnostics = await Verify.GetDiagnosticsAsync("""
            using System.Threading.Tasks;
            namespace Shop
            {
                public static class Discounts { public static async Task<decimal> GetAsync(int customer) { await Task.Yield(); return customer; } }
                public sealed class Checkout
                {
                    public async Task<decimal> RunAsync(int customer, Task<decimal> handed)
                    {
                        var pending = Discounts.GetAsync(customer);
                        await Task.Yield();
                        return pending.Result + Discounts.GetAsync(customer + 1).GetAwaiter().GetResult() + handed.Result;
                    }
                }
            }
            """);

        Assert.Equal(3, diagnostics.Length);
        Assert.All(diagnostics, d => Assert.Equal("Shop.Checkout.RunAsync", d.Properties["AsyncCostMethod"]));
        // A local given one call, the call itself, and a task handed in by a caller (its method unknown here: no property).
        Assert.Equal(["Shop.Discounts.GetAsync", "Shop.Discounts.GetAsync", null],
            diagnostics.OrderBy(d => d.Location.SourceSpan.Start).Select(d => d.Properties.GetValueOrDefault("AsyncCostCostIn")));
    }

    [Fact]
    public async Task No_fix_is_offered_where_a_catch_depends_on_the_AggregateException_wrapper()
    {
        var diagnostics = await Verify.GetDiagnosticsAsync(Snippet.InClass("""
            async Task<int> M(Task<int> t, Task u)
            {
                await Task.Yield();
                try { u.Wait(); return t.Result + t.GetAwaiter().GetResult(); }
                catch (AggregateException e) { throw e.InnerExceptions[0]; }
            }
            async Task<int> N(Task<int> t) { await Task.Yield(); try { return t.GetAwaiter().GetResult(); } catch (AggregateException) { return -1; } }
            """));
        Assert.Equal(3, diagnostics.Length);
        Assert.Equal([false, false, true], diagnostics.Select(d => d.Properties.ContainsKey("AsyncCostCanAwait")));
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
                int Sync(Func<Task<int>> t) => t().Result;
                async Task<int> M(Task<int> a, Task b)
                {
                    await b.ConfigureAwait(false);
                    var x = await a.ConfigureAwait(false);
                    lock (this) { x += a.Result; }
                    return x;
                }
                void AlsoSync(Func<Task> t) => t().Wait();
                async Task Callers(Func<Task<int>> t) { Sync(t); AlsoSync(t); }
            """);
        await CodeFixVerifier<AC0006BlockingOnTaskAnalyzer, AC0006BlockingOnTaskCodeFix>.VerifyFixAllAsync(
            Snippet.InClass("""
                int Sync(Func<Task<int>> t) => t().[|Result|];
                async Task<int> M(Task<int> a, Task b)
                {
                    b.[|Wait|]();
                    var x = a.[|Result|];
                    lock (this) { x += a.Result; }
                    return x;
                }
                void AlsoSync(Func<Task> t) => t().[|Wait|]();
                async Task Callers(Func<Task<int>> t) { Sync(t); AlsoSync(t); }
            """),
            fixedSource);
        await AnalyzerVerifier<AC0004MissingConfigureAwaitAnalyzer>.VerifyAsync(fixedSource);
    }

    [Theory]
    [InlineData("int M(Func<Task<int>> start) => start().Result;", "'.Result' blocks", "; make the calling chain async and await it, or move the blocking to the program's edge (Main, or the one synchronous entry point a framework calls)")]
    [InlineData("void M(Task a, Task b) => Task.WaitAll(a, b);", "'Task.WaitAll' blocks", "; make the calling chain async and await Task.WhenAll, or move the blocking to the program's edge (Main, or the one synchronous entry point a framework calls)")]
    [InlineData("async Task<int> M(Task<int> t) { await Task.Yield(); lock (this) { return t.Result; } }", "'.Result' blocks", "; await it outside the lock (a SemaphoreSlim taken with WaitAsync can replace it)")]
    [InlineData("int M(Func<Task<int>> start) => start().Result; int Read(Func<Task<int>> s) => M(s); async Task<int> ReadAsync(Func<Task<int>> s) { await Task.Yield(); return Read(s); }",
        "'.Result' blocks", "; async code reaches it (C.ReadAsync → C.Read → C.M), so the wait blocks a thread inside that async flow: make that chain async and await it, keeping the blocking only for synchronous callers")]
    [InlineData("int M(Func<Task<int>> start) => start().Result; async Task<int> ReadAsync(Func<Task<int>> s) { await Task.Yield(); return Run(() => M(s)); } static int Run(Func<int> f) => f();",
        "'.Result' blocks", "; make the calling chain async and await it, or move the blocking to the program's edge (Main, or the one synchronous entry point a framework calls)")]
    [InlineData("int M(Func<Task<int>> s) => s().Result; int A(Func<Task<int>> s, int n) => n > 0 ? B(s, n) : M(s); int B(Func<Task<int>> s, int n) => A(s, n - 1); async Task<int> Go(Func<Task<int>> s) { await Task.Yield(); return B(s, 2); }",
        "'.Result' blocks", "; async code reaches it (C.Go → C.B → C.A → C.M), so the wait blocks a thread inside that async flow: make that chain async and await it, keeping the blocking only for synchronous callers")]
    [InlineData("int M(Func<Task<int>> s, int n) => n > 0 ? M(s, n - 1) : s().Result; int N(Func<Task<int>> s) => M(s, 3);",
        "'.Result' blocks", "; make the calling chain async and await it, or move the blocking to the program's edge (Main, or the one synchronous entry point a framework calls)")]
    [InlineData("int M(Func<Task<int>> s) => s().Result; int F1(Func<Task<int>> s) => M(s); int F2(Func<Task<int>> s) => F1(s); int F3(Func<Task<int>> s) => F2(s); int F4(Func<Task<int>> s) => F3(s); int F5(Func<Task<int>> s) => F4(s); int F6(Func<Task<int>> s) => F5(s); int F7(Func<Task<int>> s) => F6(s); async Task<int> Go(Func<Task<int>> s) { await Task.Yield(); return F7(s); }",
        "'.Result' blocks", "; async code reaches it (C.Go → C.F7 → C.F6 → C.F5 → C.F4 → C.F3 → C.F2 → C.F1 → C.M), so the wait blocks a thread inside that async flow: make that chain async and await it, keeping the blocking only for synchronous callers")]
    [InlineData("int M(Func<Task<int>> s) => s().Result; int F1(Func<Task<int>> s) => M(s); int F2(Func<Task<int>> s) => F1(s); int F3(Func<Task<int>> s) => F2(s); int F4(Func<Task<int>> s) => F3(s); int F5(Func<Task<int>> s) => F4(s); int F6(Func<Task<int>> s) => F5(s); int F7(Func<Task<int>> s) => F6(s); int F8(Func<Task<int>> s) => F7(s); async Task<int> Go(Func<Task<int>> s) { await Task.Yield(); return F8(s); }",
        "'.Result' blocks", "; make the calling chain async and await it, or move the blocking to the program's edge (Main, or the one synchronous entry point a framework calls)")]
    [InlineData("async Task<int> M(Task<int> t) => t.Result;", "'.Result' blocks", "; await it instead")]
    [InlineData("async Task M(Task a, Task b) => Task.WaitAll(a, b);", "'Task.WaitAll' blocks", "; await Task.WhenAll instead")]
    [InlineData("async Task<int> M(Task a, Task b) => Task.WaitAny(a, b);", "'Task.WaitAny' blocks", "; await Task.WhenAny instead")]
    public async Task Message_says_what_to_do_where_the_wait_stands(string members, string start, string end)
    {
        var diagnostic = Assert.Single(await Verify.GetDiagnosticsAsync(Snippet.InClass(members)));
        var message = diagnostic.GetMessage(System.Globalization.CultureInfo.InvariantCulture);
        Assert.StartsWith(start, message, StringComparison.Ordinal);
        Assert.EndsWith(end, message, StringComparison.Ordinal);
    }

    private static readonly TestOptions TestProject = TestOptions.Default.WithBuildProperty("IsTestProject", "true");

    // In a test project the same waits are AC0011, a suggestion: they cost the test run, not the service (issue 34: all
    // 20 of AC0006's findings in test projects were debatable). Contracts there are AC0011 too, and AC0006 says nothing.
    [Fact]
    public Task A_test_is_told_about_blocking_as_AC0011_but_not_about_timed_probes() =>
        Verify.VerifyAsync(
            Snippet.InClass("""
                static void ShouldBeFalse(bool value) { }
                void SyncTest(Task<int> t, Task u) { var x = t.{|AC0011:Result|}; u.{|AC0011:Wait|}(); Should(() => ShouldBeFalse(u.Wait(20))); }
                async Task AsyncTest(Task<int> t, Task u, CancellationToken ct)
                {
                    ShouldBeFalse(u.Wait(20, ct));
                    var x = t.{|AC0011:Result|};
                    await Task.Delay(1, ct);
                }
                static void Should(Action action) => action();
                sealed class Fixture : IDisposable { Task _server = Task.Run(() => { }); public void Dispose() => _server.{|AC0011:Wait|}(); }
                int Completed() => Task.FromResult(1).Result;
            """),
            TestProject);

    [Fact]
    public Task Fix_awaits_instead_of_blocking_in_an_async_test() =>
        CodeFixVerifier<AC0006BlockingOnTaskAnalyzer, AC0006BlockingOnTaskCodeFix>.VerifyFixAsync(
            Snippet.InClass("""
                async Task Test(Func<Task<int>> start) { var x = start().{|AC0011:Result|}; await Task.Delay(x); }
            """),
            Snippet.InClass("""
                async Task Test(Func<Task<int>> start) { var x = await start(); await Task.Delay(x); }
            """),
            TestProject);

    [Fact]
    public Task A_library_is_told_about_timed_waits_and_synchronous_blocking() =>
        Verify.VerifyAsync(Snippet.InClass("""
            static void ShouldBeFalse(bool value) { }
            void Sync(Task<int> t) { var x = t.[|Result|]; }
            async Task Caller(Task<int> t) { Sync(t); await Task.Delay(1).ConfigureAwait(false); }
            async Task Async(Task u, CancellationToken ct) { ShouldBeFalse(u.[|Wait|](20, ct)); await Task.Delay(1, ct).ConfigureAwait(false); }
            """));

    private const string Bridges = "asynccost.AC0006.public_sync_bridges";

    [Fact]
    public Task A_library_that_declares_its_public_sync_API_a_bridge_is_told_only_about_the_rest() =>
        Verify.VerifyAsync(
            Snippet.Usings + """
            public sealed class Client : IDisposable
            {
                private readonly Task _connected = Task.Run(() => { });
                public Client() => _connected.Wait();
                public int Get(string key) => GetAsync(key).Result;
                public int Count => GetAsync("count").GetAwaiter().GetResult();
                public void Dispose() => DisposeAsync().AsTask().Wait();
                protected int Protected() => GetAsync("p").Result;
                public Task<int> GetAsync(string key) => Task.Run(() => key.Length);
                public ValueTask DisposeAsync() => new(Task.Delay(1));
                public void Watch(Action<Action> subscribe) => subscribe(() => GetAsync("w").[|Wait|]());
                private int Helper() => GetAsync("h").[|Result|];
                internal int Internal() => GetAsync("i").[|Result|];
            }
            internal sealed class Hidden { public int Get(Func<Task<int>> start) => start().[|Result|]; }
            """,
            TestOptions.Default.WithEditorConfig(Bridges, "true"));

    [Fact]
    public Task The_bridge_option_set_to_false_changes_nothing() =>
        Verify.VerifyAsync(
            Snippet.Usings + """
            public sealed class Client
            {
                public int Get(string key) => GetAsync(key).[|Result|];
                public Task<int> GetAsync(string key) => Task.Run(() => key.Length);
            }
            """,
            OutsideAPackage.WithEditorConfig(Bridges, "false"));
}
