using AsyncCost.Analyzers.CodeFixes;
using AsyncCost.Analyzers.Rules;
using AsyncCost.Analyzers.Tests.Verification;
using Verify = AsyncCost.Analyzers.Tests.Verification.AnalyzerVerifier<AsyncCost.Analyzers.Rules.AC0007BlockingWaitInAsyncAnalyzer>;

namespace AsyncCost.Analyzers.Tests;

public class AC0007BlockingWaitInAsyncTests : RuleTheories<AC0007BlockingWaitInAsyncAnalyzer>
{
    public static TheoryData<string, string> MustFlag => new()
    {
        { "Thread.Sleep", """
            async Task M() { await Task.Delay(1); [|Thread.Sleep(100)|]; }
            """ },
        { "Thread.Sleep(TimeSpan)", """
            async Task M() { [|Thread.Sleep(TimeSpan.FromSeconds(1))|]; await Task.Delay(1); }
            """ },
        { "AutoResetEvent.WaitOne", """
            async Task M(AutoResetEvent e) { [|e.WaitOne()|]; await Task.Delay(1); }
            """ },
        { "ManualResetEvent.WaitOne with a timeout", """
            async Task<bool> M(ManualResetEvent e) { await Task.Delay(1); return [|e.WaitOne(500)|]; }
            """ },
        { "WaitHandle.WaitAll", """
            async Task M(WaitHandle[] handles) { await Task.Delay(1); [|WaitHandle.WaitAll(handles)|]; }
            """ },
        { "SemaphoreSlim.Wait", """
            async Task M(SemaphoreSlim gate) { [|gate.Wait()|]; try { await Task.Delay(1); } finally { gate.Release(); } }
            """ },
        { "SemaphoreSlim.Wait with a token", """
            async Task M(SemaphoreSlim gate, CancellationToken ct) { [|gate.Wait(ct)|]; await Task.Delay(1, ct); gate.Release(); }
            """ },
        { "ManualResetEventSlim.Wait", """
            async Task M(ManualResetEventSlim e) { await Task.Delay(1); [|e.Wait()|]; }
            """ },
        { "Monitor.Wait", """
            readonly object _gate = new();
            async Task M() { await Task.Delay(1); lock (_gate) { [|Monitor.Wait(_gate)|]; } }
            """ },
        { "Thread.Join", """
            async Task M(Thread worker) { await Task.Delay(1); [|worker.Join()|]; }
            """ },
        { "CountdownEvent.Wait", """
            async Task M(CountdownEvent done) { await Task.Delay(1); [|done.Wait()|]; }
            """ },
        { "Barrier.SignalAndWait", """
            async Task M(Barrier barrier) { await Task.Delay(1); [|barrier.SignalAndWait()|]; }
            """ },
        { "BlockingCollection.Take", """
            async Task<int> M(BlockingCollection<int> queue) { await Task.Delay(1); return [|queue.Take()|]; }
            """ },
        { "BlockingCollection.TryTake with an infinite timeout", """
            async Task M(BlockingCollection<int> queue) { await Task.Delay(1); [|queue.TryTake(out var item, Timeout.Infinite)|]; }
            """ },
        { "BlockingCollection.GetConsumingEnumerable", """
            async Task M(BlockingCollection<int> queue) { foreach (var item in [|queue.GetConsumingEnumerable()|]) { await Task.Delay(item); } }
            """ },
        { "async lambda", """
            Func<Task> M() => async () => { [|Thread.Sleep(10)|]; await Task.Delay(1); };
            """ },
        { "async local function", """
            Task M() { return Local(); async Task Local() { [|Thread.Sleep(10)|]; await Task.Delay(1); } }
            """ },
        { "a bool parameter that does not choose between awaiting and blocking", """
            async Task M(bool log) { if (!log) { [|Thread.Sleep(1)|]; } await Task.Delay(1); }
            """ },
        { "a wait on the flag's false arm while the method also awaits unconditionally", """
            async Task M(bool async, SemaphoreSlim gate) { if (!async) { [|gate.Wait()|]; } await Task.Delay(1); }
            """ },
        { "an enum mode whose synchronous arm also awaits: the wait is not the caller's choice", """
            enum IOBehavior { Synchronous, Asynchronous }
            async Task Enter(IOBehavior io, SemaphoreSlim gate) { if (io == IOBehavior.Asynchronous) { await gate.WaitAsync(); } else { [|gate.Wait()|]; } await Task.Delay(1); }
            """ },
        { "an enum parameter that is not compared in the method", """
            enum Priority { Low, High }
            async Task Enter(Priority priority, SemaphoreSlim gate) { [|gate.Wait()|]; await Task.Delay((int)priority); }
            """ },
        { "a synchronous helper of this compilation that polls with Thread.Sleep in a loop", """
            volatile bool _done;
            void WaitUntilDone() { while (!_done) Thread.Sleep(100); }
            async Task M() { [|WaitUntilDone()|]; await Task.Delay(1); }
            """ },
        { "a helper in another type whose poll is a for or do loop, Sleep(TimeSpan) or a spin of Sleep(0)", """
            static class Poller
            {
                public static bool Poll(Func<bool> ready) { for (var i = 0; i < 50; i++) { if (ready()) return true; Thread.Sleep(TimeSpan.FromMilliseconds(20)); } return false; }
                public static void Spin(Func<bool> ready) { do { Thread.Sleep(0); } while (!ready()); }
                public static Task PollTask(Func<bool> ready) { while (!ready()) { Thread.Sleep(10); } return Task.CompletedTask; }
            }
            async Task<bool> M(Func<bool> ready) { [|Poller.Spin(ready)|]; await [|Poller.PollTask(ready)|]; await Task.Delay(1); return [|Poller.Poll(ready)|]; }
            """ },
        { "a helper that retries with a sleep between tries", """
            static void DeleteWithRetry(string path) { for (var i = 0; i < 3; i++) { try { System.IO.File.Delete(path); return; } catch (System.IO.IOException) { Thread.Sleep(100); } } }
            async Task M(string path) { [|DeleteWithRetry(path)|]; await Task.Delay(1); }
            """ },
        { "a polling local function called from its async method, and a helper called from an async lambda", """
            static void Wait(Func<bool> ready) { while (!ready()) { Thread.Sleep(5); } }
            async Task M(Func<bool> ready) { [|Local()|]; await Task.Delay(1); void Local() { while (!ready()) Thread.Sleep(5); } }
            Func<Task> L(Func<bool> ready) => async () => { await Task.Delay(1); [|Wait(ready)|]; };
            """ },
        { "async method without awaits still runs on the caller's thread", """
            #pragma warning disable CS1998
            async Task M() { [|Thread.Sleep(10)|]; }
            """ },
    };

    public static TheoryData<string, string> MustNotFlag => new()
    {
        { "sync method", """
            void M(SemaphoreSlim gate) { gate.Wait(); Thread.Sleep(10); gate.Release(); }
            """ },
        { "sync lambda handed to Task.Run", """
            async Task M() { await Task.Run(() => Thread.Sleep(10)); }
            """ },
        { "sync local function declared in an async method", """
            async Task M(AutoResetEvent e) { await Task.Run(Local); void Local() => e.WaitOne(); }
            """ },
        { "SemaphoreSlim.Wait(0) probe", """
            async Task M(SemaphoreSlim gate) { if (gate.Wait(0)) { try { await Task.Delay(1); } finally { gate.Release(); } } }
            """ },
        { "SemaphoreSlim.Wait(TimeSpan.Zero) probe", """
            async Task M(SemaphoreSlim gate) { if (gate.Wait(TimeSpan.Zero)) { await Task.Delay(1); gate.Release(); } }
            """ },
        { "WaitOne(0) probe", """
            async Task<bool> M(ManualResetEvent e) { await Task.Delay(1); return e.WaitOne(0); }
            """ },
        { "TryTake without a timeout", """
            async Task M(BlockingCollection<int> queue) { while (queue.TryTake(out var item)) { await Task.Delay(item); } }
            """ },
        { "the async equivalents", """
            async Task M(SemaphoreSlim gate, System.Threading.Channels.Channel<int> channel) { await gate.WaitAsync(); await Task.Delay(10); await channel.Reader.ReadAsync(); gate.Release(); }
            """ },
        { "EF Core-style Add with an AddAsync twin", """
            sealed class Blog { }
            sealed class DbSet<T> { public void Add(T item) { } public ValueTask AddAsync(T item) => default; }
            sealed class DbContext { public DbSet<Blog> Blogs { get; } = new(); public Task<int> SaveChangesAsync() => Task.FromResult(1); }
            async Task M(DbContext db) { db.Blogs.Add(new Blog()); await db.SaveChangesAsync(); }
            """ },
        { "BlockingCollection.Add and signalling calls", """
            async Task M(BlockingCollection<int> queue, ManualResetEventSlim e, SemaphoreSlim gate) { queue.Add(1); e.Set(); gate.Release(); await Task.Delay(1); }
            """ },
        { "Thread.Sleep(0)", """
            async Task M() { Thread.Sleep(0); await Task.Delay(1); }
            """ },
        { "Task.Wait is AC0006's, not this rule's", """
            async Task M(Task t) { t.Wait(); await Task.Delay(1); }
            """ },
        { "the synchronous arm of a bool async split", """
            async Task Enter(bool async, SemaphoreSlim gate, CancellationToken ct) { if (async) { await gate.WaitAsync(ct); } else { gate.Wait(ct); } }
            async Task<bool> TryEnter(bool async, SemaphoreSlim gate, CancellationToken ct) => async ? await gate.WaitAsync(1000, ct) : gate.Wait(1000, ct);
            async Task Pause(bool async) { if (async) await Task.Delay(1); else Thread.Sleep(1); }
            async Task PauseFirst(bool async) { if (!async) { Thread.Sleep(1); return; } await Task.Delay(1); }
            async Task PauseAfter(bool async) { if (async) { await Task.Delay(1); return; } Thread.Sleep(1); }
            """ },
        { "the synchronous arm of a bool async split whose other awaits hand the flag on", """
            async Task Setup(bool async, SemaphoreSlim gate, CancellationToken ct)
            {
                var entered = async ? await gate.WaitAsync(500, ct).ConfigureAwait(false) : gate.Wait(500, ct);
                if (!entered) { throw new TimeoutException(); }
                await Fetch(async, ct).ConfigureAwait(false);
            }
            async Task<int> Take(bool async, Task<int> next, CancellationToken ct)
            {
                await Fetch(async, ct).ConfigureAwait(false);
                if (async) { return await next.ConfigureAwait(false); }
                using var signal = new ManualResetEventSlim();
                next.GetAwaiter().UnsafeOnCompleted(() => signal.Set());
                signal.Wait(CancellationToken.None);
                return next.Result;
            }
            async Task Fetch(bool async, CancellationToken ct) { if (async) { await Task.Delay(1, ct).ConfigureAwait(false); } }
            """ },
        { "the synchronous arm of an enum mode split (IOBehavior), in each way it is written", """
            enum IOBehavior { Synchronous, Asynchronous }
            readonly SemaphoreSlim _gate = new(1);
            async Task Enter(IOBehavior io, CancellationToken ct) { if (io == IOBehavior.Asynchronous) await _gate.WaitAsync(ct); else _gate.Wait(ct); }
            async Task EnterFirst(IOBehavior io, CancellationToken ct) { if (io == IOBehavior.Synchronous) { _gate.Wait(ct); return; } await _gate.WaitAsync(ct); }
            async Task<bool> TryEnter(IOBehavior io, CancellationToken ct) => io != IOBehavior.Synchronous ? await _gate.WaitAsync(100, ct) : _gate.Wait(100, ct);
            async Task Pause(IOBehavior io) { if (io is IOBehavior.Synchronous) { Thread.Sleep(1); } else { await Task.Delay(1); } await Load(io); }
            async Task Load(IOBehavior io) { if (io == IOBehavior.Asynchronous) { await Task.Delay(1); } }
            """ },
        { "the polling helper called from synchronous code", """
            volatile bool _done;
            void WaitUntilDone() { while (!_done) Thread.Sleep(100); }
            void M() { WaitUntilDone(); }
            Task N() { WaitUntilDone(); return Task.CompletedTask; }
            """ },
        { "a helper whose one Sleep is not in a loop: a bounded pause, not a poll", """
            void Settle() { Thread.Sleep(50); }
            async Task M() { Settle(); await Task.Delay(1); }
            """ },
        { "the polling helper run on a thread of its own or handed to the pool", """
            volatile bool _done;
            void WaitUntilDone() { while (!_done) Thread.Sleep(100); }
            async Task M()
            {
                new Thread(WaitUntilDone).Start();
                await Task.Run(() => WaitUntilDone());
                await Task.Factory.StartNew(WaitUntilDone, TaskCreationOptions.LongRunning);
            }
            """ },
        { "a helper whose loop hands the Sleep to a lambda, and one that sleeps only in a loop of its lambda", """
            void Schedule(List<Action> actions) { for (var i = 0; i < 3; i++) { actions.Add(() => Thread.Sleep(1)); } }
            Action Later(Func<bool> ready) => () => { while (!ready()) Thread.Sleep(1); };
            async Task M(List<Action> actions, Func<bool> ready) { Schedule(actions); Later(ready); await Task.Delay(1); }
            """ },
        { "the polling helper in the synchronous arm of a bool async split", """
            static void WaitUntil(Func<bool> ready) { while (!ready()) Thread.Sleep(10); }
            async Task Settle(bool async, Func<bool> ready) { if (async) { await Task.Delay(10); } else { WaitUntil(ready); } }
            """ },
        { "a user-defined Wait", """
            sealed class Gate { public void Wait() { } }
            async Task M(Gate gate) { gate.Wait(); await Task.Delay(1); }
            """ },
    };

    public static TheoryData<string> BrokenCode => new()
    {
        { "async Task M() { Thread.Sleep(; }" },
        { "async Task M(SemaphoreSlim s) { s.Wait(0, ); await }" },
        { "async Task M() { Undefined.WaitOne(); }" },
        { "async Task M(BlockingCollection<int> q) { q.TryTake(out var x, ) }" },
        { "async Task M() => Monitor.Wait();" },
        { "async Task M(bool async) { if (async) await Task.Delay(1); else Thread.Sleep(; }" },
        { "enum IO { Sync, Async } async Task M(IO io, SemaphoreSlim s) { if (io == IO.) await s.WaitAsync(); else s.Wait(; }" },
    };

    [Fact]
    public Task A_test_project_is_not_told_about_its_thread_choreography() =>
        Verify.VerifyAsync(
            Snippet.InClass("""
                async Task Test(CancellationToken ct)
                {
                    using var executing = new ManualResetEvent(false);
                    using var release = new ManualResetEvent(false);
                    var work = Task.Run(() => { executing.Set(); release.WaitOne(); }, ct);
                    executing.WaitOne();
                    Thread.Sleep(10);
                    release.Set();
                    await work;
                }
                """),
            TestOptions.Default.WithBuildProperty("IsTestProject", "true"));

    [Fact]
    public Task A_project_that_says_it_is_not_a_test_project_is_told() =>
        Verify.VerifyAsync(
            Snippet.InClass("async Task M(ManualResetEvent e) { [|e.WaitOne()|]; await Task.Delay(1); }"),
            TestOptions.Default.WithBuildProperty("IsTestProject", "false"));

    [Fact]
    public async Task Message_names_the_wait_and_its_async_equivalent()
    {
        var diagnostic = Assert.Single(await Verify.GetDiagnosticsAsync(Snippet.InClass("async Task M(SemaphoreSlim s) { s.Wait(); await Task.Delay(1); }")));
        var message = diagnostic.GetMessage(System.Globalization.CultureInfo.InvariantCulture);
        Assert.Contains("SemaphoreSlim.Wait", message, StringComparison.Ordinal);
        Assert.Contains("WaitAsync", message, StringComparison.Ordinal);
        Assert.Equal("C.M", diagnostic.Properties["AsyncCostMethod"]);
    }

    [Fact]
    public Task A_polling_helper_of_another_project_is_not_read() =>
        Verify.VerifyAsync(
            Snippet.InClass("async Task M(Func<bool> ready) { Other.Poller.WaitUntil(ready); await Task.Delay(1); }"),
            TestOptions.Default with
            {
                ReferencedProjects = ["namespace Other { public static class Poller { public static void WaitUntil(System.Func<bool> ready) { while (!ready()) System.Threading.Thread.Sleep(10); } } }"],
            });

    [Fact]
    public async Task Message_names_the_polling_helper_and_where_its_cost_is_spent()
    {
        var diagnostic = Assert.Single(await Verify.GetDiagnosticsAsync(Snippet.InClass("""
            static class Device { public static void WaitReady(Func<bool> ready) { while (!ready()) Thread.Sleep(100); } }
            async Task M(Func<bool> ready) { Device.WaitReady(ready); await Task.Delay(1); }
            """)));
        var message = diagnostic.GetMessage(System.Globalization.CultureInfo.InvariantCulture);
        Assert.Contains("'Device.WaitReady'", message, StringComparison.Ordinal);
        Assert.Contains("Thread.Sleep in a loop", message, StringComparison.Ordinal);
        Assert.Equal("C.M", diagnostic.Properties["AsyncCostMethod"]);
        Assert.Equal("C.Device.WaitReady", diagnostic.Properties["AsyncCostCostIn"]);
        Assert.False(diagnostic.Properties.ContainsKey(AC0007BlockingWaitInAsyncAnalyzer.ReplacementProperty)); // no mechanical fix
    }

    [Fact]
    public Task Fix_replaces_Thread_Sleep_with_Task_Delay() =>
        CodeFixVerifier<AC0007BlockingWaitInAsyncAnalyzer, AC0007BlockingWaitInAsyncCodeFix>.VerifyFixAsync(
            Snippet.InClass("""
                async Task M(TimeSpan pause)
                {
                    [|Thread.Sleep(100)|];
                    [|Thread.Sleep(pause)|];
                    await Task.Delay(1);
                }
            """),
            Snippet.InClass("""
                async Task M(TimeSpan pause)
                {
                    await Task.Delay(100);
                    await Task.Delay(pause);
                    await Task.Delay(1);
                }
            """));

    [Fact]
    public Task Fix_replaces_SemaphoreSlim_Wait_with_WaitAsync_keeping_arguments_and_results() =>
        CodeFixVerifier<AC0007BlockingWaitInAsyncAnalyzer, AC0007BlockingWaitInAsyncCodeFix>.VerifyFixAsync(
            Snippet.InClass("""
                async Task<bool> M(SemaphoreSlim gate, CancellationToken ct)
                {
                    [|gate.Wait(ct)|];
                    gate.Release();
                    if (![|gate.Wait(100, ct)|])
                    {
                        return false;
                    }
                    await Task.Delay(1, ct);
                    return true;
                }
            """),
            Snippet.InClass("""
                async Task<bool> M(SemaphoreSlim gate, CancellationToken ct)
                {
                    await gate.WaitAsync(ct);
                    gate.Release();
                    if (!await gate.WaitAsync(100, ct))
                    {
                        return false;
                    }
                    await Task.Delay(1, ct);
                    return true;
                }
            """));

    [Fact]
    public async Task No_fix_inside_a_lock_where_await_is_not_allowed()
    {
        var diagnostic = Assert.Single(await Verify.GetDiagnosticsAsync(Snippet.InClass("""
            readonly object _gate = new();
            async Task M() { await Task.Delay(1); lock (_gate) { Thread.Sleep(1); } }
            """)));
        Assert.False(diagnostic.Properties.ContainsKey("AsyncCostCanAwait"));
    }
}
