using AsyncCost.Analyzers.CodeFixes;
using AsyncCost.Analyzers.Rules;
using AsyncCost.Analyzers.Tests.Verification;
using Verify = AsyncCost.Analyzers.Tests.Verification.AnalyzerVerifier<AsyncCost.Analyzers.Rules.AC0012LongRunningAsyncStartAnalyzer>;

namespace AsyncCost.Analyzers.Tests;

public class AC0012LongRunningAsyncStartTests : RuleTheories<AC0012LongRunningAsyncStartAnalyzer>
{
    public static TheoryData<string, string> MustFlag => new()
    {
        { "an async lambda, the Task<Task> kept in a field", """
            Task<Task>? _loop;
            void Start() { _loop = [|Task.Factory.StartNew|](async () => { while (true) { await Task.Delay(100); } }, TaskCreationOptions.LongRunning); }
            """ },
        { "a lambda that returns a task without being async", """
            Task RunAsync() => Task.Delay(1);
            Task Start() => [|Task.Factory.StartNew|](() => RunAsync(), TaskCreationOptions.LongRunning);
            """ },
        { "a method group that returns a task", """
            async Task RunAsync() { await Task.Delay(1); }
            void Start() { _ = [|Task.Factory.StartNew|](RunAsync, TaskCreationOptions.LongRunning); }
            """ },
        { "the overload with a token and a scheduler", """
            Task Start(CancellationToken ct) => [|Task.Factory.StartNew|](async () => await Task.Delay(1, ct), ct, TaskCreationOptions.LongRunning, TaskScheduler.Default);
            """ },
        { "LongRunning among other options", """
            Task Start() => [|Task.Factory.StartNew|](async () => await Task.Delay(1), TaskCreationOptions.LongRunning | TaskCreationOptions.DenyChildAttach);
            """ },
        { "the overload with a state object", """
            Task Start() => [|Task.Factory.StartNew|](async state => await Task.Delay((int)state!), 5, TaskCreationOptions.LongRunning);
            """ },
        { "an async lambda with a result", """
            Task<Task<int>> Start() => [|Task.Factory.StartNew|](async () => { await Task.Delay(1); return 1; }, TaskCreationOptions.LongRunning);
            """ },
        { "already unwrapped: the thread is still for nothing", """
            async Task Start() { await [|Task.Factory.StartNew|](async () => await Task.Delay(1), TaskCreationOptions.LongRunning).Unwrap(); }
            """ },
        { "LongRunning bound as the state object of a lambda with one parameter", """
            Task<Task>? _loop;
            void Start() { _loop = [|Task.Factory.StartNew|](async _ => { while (true) { await Task.Delay(100); } }, TaskCreationOptions.LongRunning); }
            """ },
        { "a factory of its own, LongRunning on the call", """
            readonly TaskFactory _factory = new();
            void Start() { _ = [|_factory.StartNew|](async () => await Task.Delay(1), TaskCreationOptions.LongRunning); }
            """ },
    };

    public static TheoryData<string, string> MustNotFlag => new()
    {
        { "LongRunning with a synchronous lambda: a real dedicated thread", """
            volatile bool _stop;
            Task Start() => Task.Factory.StartNew(() => { while (!_stop) { Thread.Sleep(10); } }, TaskCreationOptions.LongRunning);
            """ },
        { "an async lambda that never awaits runs to its end on the thread", """
            #pragma warning disable CS1998
            void Work() { }
            Task Start() => Task.Factory.StartNew(async () => { Work(); }, TaskCreationOptions.LongRunning);
            """ },
        { "a lambda that does its work before returning a completed task", """
            void Work() { }
            Task Start() => Task.Factory.StartNew(() => { Work(); return Task.CompletedTask; }, TaskCreationOptions.LongRunning);
            """ },
        { "an async lambda without LongRunning, unwrapped", """
            async Task Start() { await Task.Factory.StartNew(async () => await Task.Delay(1)).Unwrap(); }
            """ },
        { "an async lambda without LongRunning, not unwrapped (the nested task alone is AsyncFixer05's)", """
            Task Start() => Task.Factory.StartNew(async () => await Task.Delay(1), CancellationToken.None, TaskCreationOptions.DenyChildAttach, TaskScheduler.Default);
            """ },
        { "Task.Run", """
            Task Start() => Task.Run(async () => { while (true) { await Task.Delay(100); } });
            """ },
        { "options that are not a constant", """
            Task Start(TaskCreationOptions options) => Task.Factory.StartNew(async () => await Task.Delay(1), options);
            """ },
        { "LongRunning given to the factory, not the call", """
            readonly TaskFactory _factory = new(TaskCreationOptions.LongRunning, TaskContinuationOptions.None);
            void Start() { _ = _factory.StartNew(async () => await Task.Delay(1)); }
            """ },
        { "a state object that is an option without LongRunning", """
            Task Start() => Task.Factory.StartNew(async _ => await Task.Delay(1), TaskCreationOptions.None).Unwrap();
            """ },
        { "a state object that is a number", """
            Task Start() => Task.Factory.StartNew(async state => await Task.Delay((int)state!), 2).Unwrap();
            """ },
        { "a StartNew of one's own", """
            sealed class Scheduler { public Task StartNew(Func<Task> work, TaskCreationOptions options) => work(); }
            Task Start(Scheduler scheduler) => scheduler.StartNew(async () => await Task.Delay(1), TaskCreationOptions.LongRunning);
            """ },
    };

    public static TheoryData<string> BrokenCode => new()
    {
        { "Task M() => Task.Factory.StartNew(async () => await , TaskCreationOptions.LongRunning);" },
        { "Task M() => Task.Factory.StartNew(TaskCreationOptions.LongRunning);" },
        { "Task M() => Task.Factory.StartNew(async () => await Task.Delay(1), TaskCreationOptions.);" },
        { "Task M() => Task.Factory.StartNew(Undefined, TaskCreationOptions.LongRunning).Unwrap(;" },
    };

    [Fact]
    public async Task Message_says_the_nested_task_completes_early_unless_unwrapped()
    {
        var diagnostics = await Verify.GetDiagnosticsAsync(Snippet.InClass("""
            Task<Task>? _loop;
            void Start() { _loop = Task.Factory.StartNew(async () => await Task.Delay(1), TaskCreationOptions.LongRunning); }
            Task Unwrapped() => Task.Factory.StartNew(async () => await Task.Delay(1), TaskCreationOptions.LongRunning).Unwrap();
            """));
        Assert.Equal(2, diagnostics.Length);
        var nested = diagnostics[0].GetMessage(System.Globalization.CultureInfo.InvariantCulture);
        var unwrapped = diagnostics[1].GetMessage(System.Globalization.CultureInfo.InvariantCulture);
        Assert.Contains("an async lambda", nested, StringComparison.Ordinal);
        Assert.Contains("Task<Task>", nested, StringComparison.Ordinal);
        Assert.Contains("Task.Run", nested, StringComparison.Ordinal);
        Assert.DoesNotContain("Task<Task>", unwrapped, StringComparison.Ordinal);
        Assert.Equal("true", diagnostics[1].Properties[AC0012LongRunningAsyncStartAnalyzer.UnwrappedProperty]);
        Assert.Equal("C.Start", diagnostics[0].Properties["AsyncCostMethod"]);
    }

    [Fact]
    public async Task Message_says_LongRunning_passed_as_the_state_object_is_no_option_and_no_fix_is_offered()
    {
        var diagnostic = Assert.Single(await Verify.GetDiagnosticsAsync(Snippet.InClass("""
            Task<Task>? _loop;
            void Start() { _loop = Task.Factory.StartNew(async _ => await Task.Delay(1), TaskCreationOptions.LongRunning); }
            """)));
        var message = diagnostic.GetMessage(System.Globalization.CultureInfo.InvariantCulture);
        Assert.Contains("as the state object", message, StringComparison.Ordinal);
        Assert.Contains("no option applies", message, StringComparison.Ordinal);
        Assert.Contains("Task<Task>", message, StringComparison.Ordinal);
        Assert.DoesNotContain("thread of its own", message, StringComparison.Ordinal);
        Assert.False(diagnostic.Properties.ContainsKey(AC0012LongRunningAsyncStartAnalyzer.TaskRunProperty));
    }

    [Fact]
    public Task A_test_project_is_told_too_its_outer_task_ends_before_the_work() =>
        Verify.VerifyAsync(
            Snippet.InClass("async Task Test() { await [|Task.Factory.StartNew|](async () => await Task.Delay(1), TaskCreationOptions.LongRunning); }"),
            TestOptions.Default.WithBuildProperty("IsTestProject", "true"));

    [Fact]
    public Task Fix_makes_Task_Run_where_the_result_takes_the_unwrapped_task() =>
        CodeFixVerifier<AC0012LongRunningAsyncStartAnalyzer, AC0012LongRunningAsyncStartCodeFix>.VerifyFixAsync(
            Snippet.InClass("""
                Task? _loop;
                async Task<int> Start(Func<Task> work, CancellationToken ct)
                {
                    _loop = [|Task.Factory.StartNew|](async () => { while (!ct.IsCancellationRequested) { await Task.Delay(100, ct); } }, TaskCreationOptions.LongRunning);
                    [|Task.Factory.StartNew|](work, TaskCreationOptions.LongRunning | TaskCreationOptions.DenyChildAttach);
                    _ = [|Task.Factory.StartNew|](work, ct, TaskCreationOptions.LongRunning, TaskScheduler.Default);
                    return await [|Task.Factory.StartNew|](async () => { await Task.Delay(1); return 1; }, TaskCreationOptions.LongRunning).Unwrap();
                }
            """),
            Snippet.InClass("""
                Task? _loop;
                async Task<int> Start(Func<Task> work, CancellationToken ct)
                {
                    _loop = Task.Run(async () => { while (!ct.IsCancellationRequested) { await Task.Delay(100, ct); } });
                    Task.Run(work);
                    _ = Task.Run(work, ct);
                    return await Task.Run(async () => { await Task.Delay(1); return 1; });
                }
            """));

    [Fact]
    public async Task No_fix_where_Task_Run_would_mean_something_else_or_not_compile()
    {
        var diagnostics = await Verify.GetDiagnosticsAsync(Snippet.InClass("""
            Task<Task>? _nested;
            readonly TaskFactory _factory = new();
            async Task Start(Func<Task> work, Func<ValueTask> valueWork, TaskScheduler scheduler)
            {
                _nested = Task.Factory.StartNew(work, TaskCreationOptions.LongRunning);
                await Task.Factory.StartNew(work, TaskCreationOptions.LongRunning);
                _ = Task.Factory.StartNew(work, CancellationToken.None, TaskCreationOptions.LongRunning, scheduler);
                _ = Task.Factory.StartNew(work, TaskCreationOptions.LongRunning | TaskCreationOptions.AttachedToParent);
                _ = Task.Factory.StartNew(async state => await Task.Delay((int)state!), 5, TaskCreationOptions.LongRunning);
                _ = Task.Factory.StartNew(valueWork, TaskCreationOptions.LongRunning);
                _ = _factory.StartNew(work, TaskCreationOptions.LongRunning);
            }
            """));
        Assert.Equal(7, diagnostics.Length);
        Assert.All(diagnostics, d => Assert.False(d.Properties.ContainsKey(AC0012LongRunningAsyncStartAnalyzer.TaskRunProperty), d.ToString()));
    }
}
