using AsyncCost.Analyzers.CodeFixes;
using AsyncCost.Analyzers.Rules;
using AsyncCost.Analyzers.Tests.Verification;
using Microsoft.CodeAnalysis;
using Verify = AsyncCost.Analyzers.Tests.Verification.AnalyzerVerifier<AsyncCost.Analyzers.Rules.AC0004MissingConfigureAwaitAnalyzer>;

namespace AsyncCost.Analyzers.Tests;

public class AC0004MissingConfigureAwaitTests
{
    private static string InLibrary(string members) => $$"""
        using System;
        using System.Collections.Generic;
        using System.IO;
        using System.Threading;
        using System.Threading.Tasks;
        public class Library
        {
        {{members}}
            static Task<int> GetAsync() => Task.FromResult(1);
            static ValueTask<int> GetValueAsync() => new(1);
            static Task<Task<int>> GetNestedAsync() => Task.FromResult(GetAsync());
            static async IAsyncEnumerable<int> StreamAsync() { yield return 1; await Task.CompletedTask.ConfigureAwait(false); }
            static Task<Stream> OpenAsync() => Task.FromResult<Stream>(new MemoryStream());
            static Task<Stream?> OpenOrNullAsync() => Task.FromResult<Stream?>(null);
        }
        """;

    // ---- must flag ----

    [Fact]
    public Task Flags_await_of_Task() =>
        Verify.VerifyAsync(InLibrary("async Task M() { await [|Task.Delay(1)|]; }"));

    [Fact]
    public Task Flags_await_of_Task_of_T() =>
        Verify.VerifyAsync(InLibrary("async Task<int> M() => await [|GetAsync()|];"));

    [Fact]
    public Task Flags_await_of_ValueTask_and_ValueTask_of_T() =>
        Verify.VerifyAsync(InLibrary("async Task M() { await [|new ValueTask(Task.Delay(1))|]; _ = await [|GetValueAsync()|]; }"));

    [Fact]
    public Task Flags_await_of_a_task_held_in_a_variable() =>
        Verify.VerifyAsync(InLibrary("async Task M() { var t = GetAsync(); await [|t|]; }"));

    [Fact]
    public Task Flags_both_awaits_of_await_await() =>
        Verify.VerifyAsync(InLibrary("async Task<int> M() => await [|await [|GetNestedAsync()|]|];"));

    [Fact]
    public Task Flags_await_foreach_over_IAsyncEnumerable() =>
        Verify.VerifyAsync(InLibrary("async Task M() { await foreach (var x in [|StreamAsync()|]) { } }"));

    [Fact]
    public Task Flags_await_foreach_with_only_WithCancellation() =>
        Verify.VerifyAsync(InLibrary("async Task M(CancellationToken ct) { await foreach (var x in [|StreamAsync().WithCancellation(ct)|]) { } }"));

    [Fact]
    public Task Flags_await_using_declaration() =>
        Verify.VerifyAsync(InLibrary("async Task M() { [|await using|] var s = new MemoryStream(); }"));

    [Fact]
    public Task Flags_the_DisposeAsync_of_await_using_with_a_configured_initializer() =>
        Verify.VerifyAsync(InLibrary("async Task M() { [|await using|] var s = await OpenAsync().ConfigureAwait(false); }"));

    [Fact]
    public Task Flags_await_using_statement_both_forms() =>
        Verify.VerifyAsync(InLibrary("""
                async Task M(Stream given)
                {
                    [|await using|] (var s = new MemoryStream()) { }
                    [|await using|] (given) { }
                }
            """));

    [Fact]
    public Task Flags_awaits_inside_lambdas_in_library_code() =>
        Verify.VerifyAsync(InLibrary("Func<Task> M() => async () => await [|Task.Delay(1)|];"));

    [Fact]
    public Task Flags_apps_and_tests_in_always_mode() =>
        Verify.VerifyAsync(InLibrary("async Task M() { await [|Task.Delay(1)|]; }"),
            TestOptions.Default.WithBuildProperty("OutputType", "Exe").WithEditorConfig("asynccost.AC0004.mode", "always"));

    [Fact]
    public Task Flags_a_library_without_the_package_props_by_its_output_kind() =>
        Verify.VerifyAsync(InLibrary("async Task M() { await [|Task.Delay(1)|]; }"),
            TestOptions.Default with { BuildProperties = TestOptions.Default.BuildProperties });

    [Fact]
    public Task Flags_tasks_that_only_look_complete() =>
        Verify.VerifyAsync(InLibrary("""
                static Task<bool> Reassignable = Task.FromResult(true);
                async Task M()
                {
                    await [|Reassignable|];
                    _ = await [|new ValueTask<int>(GetAsync())|];
                }
            """));

    [Fact]
    public Task Flags_the_await_of_Task_Run_and_lambdas_nested_in_its_body() =>
        Verify.VerifyAsync(InLibrary("""
                async Task M(List<Func<Task>> later)
                {
                    await [|Task.Run(async () =>
                    {
                        await Task.Delay(1);
                        later.Add(async () => await [|Task.Delay(1)|]);
                    })|];
                    await [|Task.Factory.StartNew(async () => await [|Task.Delay(1)|]).Unwrap()|];
                }
            """));

    [Fact]
    public Task Flags_packable_libraries() =>
        Verify.VerifyAsync(InLibrary("async Task M() { await [|Task.Delay(1)|]; }"), TestOptions.Default.WithBuildProperty("IsPackable", "true"));

    [Fact]
    public Task Flags_libraries_the_package_targets_find_publishing() =>
        Verify.VerifyAsync(InLibrary("async Task M() { await [|Task.Delay(1)|]; }"), TestOptions.Default.WithBuildProperty("AsyncCostPublishesPackage", "true"));

    [Fact]
    public Task Flags_an_applications_own_library_in_always_mode() =>
        Verify.VerifyAsync(InLibrary("async Task M() { await [|Task.Delay(1)|]; }"),
            TestOptions.Default.WithBuildProperty("AsyncCostPublishesPackage", "false").WithEditorConfig("asynccost.AC0004.mode", "always"));

    [Fact]
    public Task Flags_a_library_marked_not_packable_in_always_mode() =>
        Verify.VerifyAsync(InLibrary("async Task M() { await [|Task.Delay(1)|]; }"),
            TestOptions.Default.WithBuildProperty("IsPackable", "false").WithEditorConfig("asynccost.AC0004.mode", "always"));

    // ---- must not flag ----

    [Fact]
    public Task Ignores_awaits_of_tasks_complete_where_they_are_made() =>
        Verify.VerifyAsync(InLibrary("""
                static readonly Task<bool> True = Task.FromResult(true);
                static readonly Task Done = Task.CompletedTask;
                async Task<int> M()
                {
                    await Task.CompletedTask;
                    await ValueTask.CompletedTask;
                    await default(ValueTask);
                    await new ValueTask();
                    _ = await Task.FromResult(1);
                    _ = await ValueTask.FromResult(2);
                    _ = await new ValueTask<int>(3);
                    _ = await True;
                    await Done;
                    try { await Task.FromException(new InvalidOperationException()); } catch (InvalidOperationException) { }
                    return await Task.FromResult(4);
                }
            """));

    // Issue 46: the task an awaited WhenAny hands back has completed (it is the one that finished first), so its own
    // await never suspends; the await of WhenAny's task does, until one of them completes.
    [Fact]
    public Task Ignores_the_await_of_the_task_WhenAny_handed_back_but_flags_the_await_of_WhenAny() =>
        Verify.VerifyAsync(InLibrary("""
                async Task<int> M(Task<int> a, Task<int> b, Task c, Task d)
                {
                    var first = await await [|Task.WhenAny(a, b)|];
                    var winner = await [|Task.WhenAny(a, b)|];
                    first += await winner;
                    await await Task.WhenAny(c, d).ConfigureAwait(false);
                    var done = await Task.WhenAny(new[] { c, d }).ConfigureAwait(false);
                    await done;
                    return first;
                }
            """));

    [Fact]
    public Task Flags_a_local_given_the_winner_of_WhenAny_and_another_task() =>
        Verify.VerifyAsync(InLibrary("""
                async Task<int> M(Task<int> a, Task<int> b, bool other)
                {
                    var t = await Task.WhenAny(a, b).ConfigureAwait(false);
                    if (other) t = a;
                    var next = GetAsync();
                    return await [|t|] + await [|next|];
                }
            """));

    [Fact]
    public Task Ignores_the_body_of_a_lambda_handed_to_Task_Run() =>
        Verify.VerifyAsync(InLibrary("""
                Task M(Stream stream, CancellationToken ct) => Task.Run(async () =>
                {
                    await Task.Delay(1, ct);
                    await foreach (var x in StreamAsync()) { }
                    await using var copy = new MemoryStream();
                    await stream.CopyToAsync(copy, ct);
                }, ct);
                Task<int> N() => Task.Run(async () => await GetAsync());
            """));

    [Fact]
    public Task Ignores_the_body_of_a_lambda_a_Timer_or_the_thread_pool_calls_back() =>
        Verify.VerifyAsync(InLibrary("""
                Timer Poll(Func<Task> fetch) => new Timer(async _ => await fetch(), null, 0, 1000);
                void Queue(Func<Task> fetch)
                {
                    ThreadPool.QueueUserWorkItem(async _ => await fetch());
                    ThreadPool.UnsafeQueueUserWorkItem(async _ => await fetch(), null);
                }
            """));

    [Fact]
    public Task Flags_a_method_group_handed_to_a_Timer_which_other_callers_may_run_under_a_context() =>
        Verify.VerifyAsync(InLibrary("""
                Timer Start() => new Timer(Poll, null, 0, 1000);
                protected virtual async void Poll(object? state) => await [|Task.Delay(1)|];
            """));

    [Fact]
    public Task Ignores_libraries_the_build_marks_not_packable() =>
        Verify.VerifyAsync(InLibrary("async Task M() { await Task.Delay(1); }"), TestOptions.Default.WithBuildProperty("IsPackable", "false"));

    [Fact]
    public Task Ignores_libraries_that_publish_no_package() =>
        Verify.VerifyAsync(InLibrary("async Task M() { await Task.Delay(1); }"),
            TestOptions.Default.WithBuildProperty("AsyncCostPublishesPackage", "false").WithBuildProperty("IsPackable", "true"));

    [Fact]
    public Task Ignores_ConfigureAwait_false_and_true() =>
        Verify.VerifyAsync(InLibrary("async Task M() { await Task.Delay(1).ConfigureAwait(false); await Task.Delay(1).ConfigureAwait(true); _ = await GetValueAsync().ConfigureAwait(false); }"));

    [Fact]
    public Task Ignores_ConfigureAwaitOptions_including_ForceYielding() =>
        Verify.VerifyAsync(InLibrary("async Task M() { await Task.Delay(1).ConfigureAwait(ConfigureAwaitOptions.ForceYielding); await Task.Delay(1).ConfigureAwait(ConfigureAwaitOptions.None); }"));

    [Fact]
    public Task Ignores_Task_Yield() =>
        Verify.VerifyAsync(InLibrary("async Task M() { await Task.Yield(); }"));

    [Fact]
    public Task Ignores_custom_awaitables_without_ConfigureAwait() =>
        Verify.VerifyAsync(InLibrary("""
                async Task M() { await new MyAwaitable(); }
                public sealed class MyAwaitable { public System.Runtime.CompilerServices.TaskAwaiter GetAwaiter() => Task.CompletedTask.GetAwaiter(); }
            """));

    [Fact]
    public Task Ignores_configured_await_foreach_in_either_order() =>
        Verify.VerifyAsync(InLibrary("""
                async Task M(CancellationToken ct)
                {
                    await foreach (var x in StreamAsync().ConfigureAwait(false)) { }
                    await foreach (var x in StreamAsync().WithCancellation(ct).ConfigureAwait(false)) { }
                    await foreach (var x in StreamAsync().ConfigureAwait(false).WithCancellation(ct)) { }
                }
            """));

    [Fact]
    public Task Ignores_configured_await_using() =>
        Verify.VerifyAsync(InLibrary("""
                async Task M()
                {
                    var s = new MemoryStream();
                    await using var configured = s.ConfigureAwait(false);
                    await using (s.ConfigureAwait(false)) { }
                }
            """));

    [Fact]
    public Task Ignores_console_apps() =>
        Verify.VerifyAsync(InLibrary("public static void Main() { } async Task M() { await Task.Delay(1); }"), TestOptions.Default with { OutputKind = OutputKind.ConsoleApplication });

    [Fact]
    public Task Ignores_test_projects() =>
        Verify.VerifyAsync(InLibrary("async Task M() { await Task.Delay(1); }"), TestOptions.Default.WithBuildProperty("IsTestProject", "true"));

    [Fact]
    public Task Ignores_never_mode() =>
        Verify.VerifyAsync(InLibrary("async Task M() { await Task.Delay(1); }"), TestOptions.Default.WithEditorConfig("asynccost.AC0004.mode", "never"));

    [Fact]
    public Task Ignores_Blazor_components_and_WPF_view_models_but_not_other_types() =>
        Verify.VerifyAsync("""
            using System.ComponentModel;
            using System.Threading.Tasks;
            namespace Microsoft.AspNetCore.Components { public abstract class ComponentBase { } public interface IComponent { } }
            namespace System.Windows { public class DependencyObject { } }
            public class Counter : Microsoft.AspNetCore.Components.ComponentBase
            {
                async Task OnClick() { await Task.Delay(1); }
                class Nested { async Task M() { await Task.Delay(1); } }
            }
            public class Window : System.Windows.DependencyObject { async Task Load() { await Task.Delay(1); } }
            public class ViewModel : INotifyPropertyChanged
            {
                public event PropertyChangedEventHandler? PropertyChanged;
                async Task Refresh() { await Task.Delay(1); PropertyChanged?.Invoke(this, new("X")); }
            }
            public class Service { async Task M() { await [|Task.Delay(1)|]; } }
            """);

    // ASP.NET Core has no synchronization context: its request code resumes on the pool whatever the project's
    // packaging (a packable Razor class library's controllers and page models were issue 34's false positives).
    private const string AspNetCoreStubs = """
        namespace Microsoft.AspNetCore.Http
        {
            public abstract class HttpContext { }
            public delegate System.Threading.Tasks.Task RequestDelegate(HttpContext context);
            public interface IMiddleware { System.Threading.Tasks.Task InvokeAsync(HttpContext context, RequestDelegate next); }
        }
        namespace Microsoft.AspNetCore.Routing
        {
            public interface IEndpointRouteBuilder { }
            public sealed class RouteGroupBuilder : IEndpointRouteBuilder { }
            public static class EndpointRouteBuilderExtensions
            {
                public static void MapGet(this IEndpointRouteBuilder endpoints, string pattern, System.Delegate handler) { }
            }
        }
        namespace Microsoft.AspNetCore.Mvc { public abstract class ControllerBase { } public abstract class Controller : ControllerBase { } }
        namespace Microsoft.AspNetCore.Mvc.RazorPages { public abstract class PageModel { } }
        namespace Microsoft.AspNetCore.SignalR { public abstract class Hub { } public abstract class Hub<T> : Hub where T : class { } }
        """;

    [Fact]
    public Task Ignores_ASP_NET_Core_request_code_in_a_published_library_but_not_its_services() =>
        Verify.VerifyAsync("""
            using System;
            using System.Threading.Tasks;
            using Microsoft.AspNetCore.Http;
            using Microsoft.AspNetCore.Routing;
            """ + AspNetCoreStubs + """
            public class OrdersController : Microsoft.AspNetCore.Mvc.Controller { public async Task<int> Get() { await Task.Delay(1); return 1; } }
            public class IndexModel : Microsoft.AspNetCore.Mvc.RazorPages.PageModel { public async Task OnGetAsync() { await Task.Delay(1); } }
            public interface IChatClient { Task Receive(string m); }
            public class ChatHub : Microsoft.AspNetCore.SignalR.Hub<IChatClient> { public async Task Send(string m) { await Task.Delay(1); } }
            public class TimingMiddleware { readonly RequestDelegate _next; public TimingMiddleware(RequestDelegate next) => _next = next; public async Task InvokeAsync(HttpContext context) { await _next(context); } }
            public class AuditMiddleware : IMiddleware { public async Task InvokeAsync(HttpContext context, RequestDelegate next) { await next(context); } }
            public static class Endpoints
            {
                public static void Map(IEndpointRouteBuilder app, RouteGroupBuilder group)
                {
                    app.MapGet("/a", async () => { await Task.Delay(1); return 1; });
                    group.MapGet("/b", async (int id) => { await Task.Delay(id); });
                    Run(async () => await [|Task.Delay(1)|]);
                }
                static void Run(Func<Task> work) { }
            }
            public class OrderService { public async Task SaveAsync() { await [|Task.Delay(1)|]; } }
            """);

    // The team already decided these awaits under a peer's ID: CA2007, MA0004 or VSTHRD111 suppressed on the line or member.
    [Fact]
    public Task Respects_a_peers_suppression_on_the_line_or_member_and_nothing_else() =>
        Verify.VerifyAsync(InLibrary("""
                async Task Pragma()
                {
            #pragma warning disable CA2007 // resumes on the caller's context on purpose
                    await Task.Delay(1);
            #pragma warning restore CA2007
                    await [|Task.Delay(2)|];
                }
                [System.Diagnostics.CodeAnalysis.SuppressMessage("Usage", "MA0004:Use Task.ConfigureAwait")]
                async Task Attributed() { await Task.Delay(1); }
            #pragma warning disable VSTHRD111
                async Task Region() { await Task.Delay(1); }
            #pragma warning restore VSTHRD111
            #pragma warning disable VSTHRD002
                async Task OtherPeer() { await [|Task.Delay(1)|]; }
            #pragma warning restore VSTHRD002
            """));

    [Fact]
    public Task Ignores_view_models_only_when_a_XAML_framework_is_referenced() =>
        Verify.VerifyAsync("""
            using System.ComponentModel;
            using System.Threading.Tasks;
            public class Model : INotifyPropertyChanged
            {
                public event PropertyChangedEventHandler? PropertyChanged;
                async Task Refresh() { await [|Task.Delay(1)|]; PropertyChanged?.Invoke(this, new("X")); }
            }
            """);

    [Fact]
    public Task Does_not_crash_on_broken_code()
    {
        string[] broken =
        [
            "class C { async System.Threading.Tasks.Task M() { await ; } }",
            "class C { async System.Threading.Tasks.Task M() { await using var x = ; await foreach (var y in ) { } } }",
            "class C { async System.Threading.Tasks.Task M() { await Undefined(); await using (Missing m = null) { } } }",
            "class C { async void M() { await foreach (var x in 42) { } await using (var s = 1) { } }",
        ];
        return Task.WhenAll(broken.Select(Verify.VerifyNoCrashAsync));
    }

    // ---- fixes ----

    [Fact]
    public Task Fix_appends_ConfigureAwait_false_to_an_await() =>
        CodeFixVerifier<AC0004MissingConfigureAwaitAnalyzer, AC0004MissingConfigureAwaitCodeFix>.VerifyFixAsync(
            InLibrary("async Task<int> M() { await [|Task.Delay(1)|]; return await [|await [|GetNestedAsync()|]|]; }"),
            InLibrary("async Task<int> M() { await Task.Delay(1).ConfigureAwait(false); return await (await GetNestedAsync().ConfigureAwait(false)).ConfigureAwait(false); }"));

    [Fact]
    public Task Ignores_an_enumerable_configured_into_a_local_and_fixes_only_the_unconfigured_one() =>
        CodeFixVerifier<AC0004MissingConfigureAwaitAnalyzer, AC0004MissingConfigureAwaitCodeFix>.VerifyFixAsync(
            InLibrary("""
                async Task M(CancellationToken ct)
                {
                    var configured = StreamAsync().WithCancellation(ct).ConfigureAwait(false);
                    await foreach (var x in configured) { }
                    var cancelable = StreamAsync().WithCancellation(ct);
                    await foreach (var x in [|cancelable|]) { }
                }
                """),
            InLibrary("""
                async Task M(CancellationToken ct)
                {
                    var configured = StreamAsync().WithCancellation(ct).ConfigureAwait(false);
                    await foreach (var x in configured) { }
                    var cancelable = StreamAsync().WithCancellation(ct);
                    await foreach (var x in cancelable.ConfigureAwait(false)) { }
                }
                """));

    [Fact]
    public Task Ignores_a_local_enumerable_also_written_by_out() =>
        Verify.VerifyAsync(InLibrary("""
            void Refill(out System.Runtime.CompilerServices.ConfiguredCancelableAsyncEnumerable<int> items) => items = StreamAsync().ConfigureAwait(false);
            async Task M(CancellationToken ct)
            {
                var items = StreamAsync().WithCancellation(ct);
                Refill(out items);
                await foreach (var x in items) { }
            }
            """));

    [Fact]
    public Task Ignores_a_configured_enumerable_built_out_of_sight() =>
        Verify.VerifyAsync(InLibrary("async Task M(System.Runtime.CompilerServices.ConfiguredCancelableAsyncEnumerable<int> items) { await foreach (var x in items) { } }"));

    [Fact]
    public async Task Message_qualifies_the_deadlock()
    {
        var diagnostic = Assert.Single(await Verify.GetDiagnosticsAsync(InLibrary("async Task M() { await Task.Delay(1); }")));
        Assert.Contains("can deadlock callers that block on the result, under a single-threaded synchronization context",
            diagnostic.GetMessage(System.Globalization.CultureInfo.InvariantCulture), StringComparison.Ordinal);
    }

    [Fact]
    public Task Fix_configures_await_foreach_after_WithCancellation() =>
        CodeFixVerifier<AC0004MissingConfigureAwaitAnalyzer, AC0004MissingConfigureAwaitCodeFix>.VerifyFixAsync(
            InLibrary("async Task M(CancellationToken ct) { await foreach (var x in [|StreamAsync().WithCancellation(ct)|]) { } }"),
            InLibrary("async Task M(CancellationToken ct) { await foreach (var x in StreamAsync().WithCancellation(ct).ConfigureAwait(false)) { } }"));

    [Fact]
    public Task Fix_splits_await_using_declarations_keeping_the_variable_type() =>
        CodeFixVerifier<AC0004MissingConfigureAwaitAnalyzer, AC0004MissingConfigureAwaitCodeFix>.VerifyFixAsync(
            InLibrary("""
                    async Task<long> M()
                    {
                        [|await using|] var s = await OpenAsync().ConfigureAwait(false);
                        return s.Length;
                    }
                """),
            InLibrary("""
                    async Task<long> M()
                    {
                        var s = await OpenAsync().ConfigureAwait(false);
                        await using var sDisposal = s.ConfigureAwait(false);
                        return s.Length;
                    }
                """));

    // `await using` skips a null resource; the configured wrapper would call DisposeAsync on it and throw.
    [Fact]
    public Task Fix_leaves_await_using_of_a_resource_that_may_be_null() =>
        CodeFixVerifier<AC0004MissingConfigureAwaitAnalyzer, AC0004MissingConfigureAwaitCodeFix>.VerifyNoFixOfferedAsync(InLibrary("""
                async Task M(Stream? given, IAsyncDisposable? maybe)
                {
                    [|await using|] var s = await OpenOrNullAsync().ConfigureAwait(false);
                    [|await using|] (var t = await OpenOrNullAsync().ConfigureAwait(false)) { }
                    [|await using|] (given) { }
                    [|await using|] var m = maybe;
                #nullable disable
                    [|await using|] var oblivious = await OpenAsync().ConfigureAwait(false);
                #nullable restore
                }
            """));

    [Fact]
    public Task Fix_All_rewrites_resources_that_cannot_be_null_and_leaves_the_rest() =>
        CodeFixVerifier<AC0004MissingConfigureAwaitAnalyzer, AC0004MissingConfigureAwaitCodeFix>.VerifyFixAllAsync(
            InLibrary("""
                    async Task M()
                    {
                        [|await using|] var maybe = await OpenOrNullAsync().ConfigureAwait(false);
                #nullable disable
                        [|await using|] var created = new MemoryStream();
                #nullable restore
                        [|await using|] var opened = await OpenAsync().ConfigureAwait(false);
                    }
                """),
            InLibrary("""
                    async Task M()
                    {
                        await using var maybe = await OpenOrNullAsync().ConfigureAwait(false);
                #nullable disable
                        var created = new MemoryStream();
                        await using var createdDisposal = created.ConfigureAwait(false);
                #nullable restore
                        var opened = await OpenAsync().ConfigureAwait(false);
                        await using var openedDisposal = opened.ConfigureAwait(false);
                    }
                """));

    [Fact]
    public Task Fix_All_handles_every_form_in_one_pass() =>
        CodeFixVerifier<AC0004MissingConfigureAwaitAnalyzer, AC0004MissingConfigureAwaitCodeFix>.VerifyFixAllAsync(
            InLibrary("""
                    async Task<int> M(Stream given, CancellationToken ct)
                    {
                        [|await using|] var s = await [|OpenAsync()|];
                        [|await using|] (var m = new MemoryStream())
                        {
                            await [|m.FlushAsync(ct)|];
                        }
                        [|await using|] (var m = new MemoryStream()) { }
                        [|await using|] (given) { }
                        await foreach (var x in [|StreamAsync()|]) { }
                        return await [|await [|GetNestedAsync()|]|] + await [|GetValueAsync()|];
                    }
                """),
            InLibrary("""
                    async Task<int> M(Stream given, CancellationToken ct)
                    {
                        var s = await OpenAsync().ConfigureAwait(false);
                        await using var sDisposal = s.ConfigureAwait(false);
                        {
                            var m = new MemoryStream();
                            await using (m.ConfigureAwait(false))
                            {
                                await m.FlushAsync(ct).ConfigureAwait(false);
                            }
                        }

                        {
                            var m = new MemoryStream();
                            await using (m.ConfigureAwait(false)) { }
                        }

                        await using (given.ConfigureAwait(false)) { }
                        await foreach (var x in StreamAsync().ConfigureAwait(false)) { }
                        return await (await GetNestedAsync().ConfigureAwait(false)).ConfigureAwait(false) + await GetValueAsync().ConfigureAwait(false);
                    }
                """));

    [Fact]
    public async Task Every_finding_carries_the_containing_method_key()
    {
        var diagnostics = await Verify.GetDiagnosticsAsync(InLibrary("async Task M() { await Task.Delay(1); }"));
        Assert.Equal("Library.M", Assert.Single(diagnostics).Properties["AsyncCostMethod"]);
    }
}
