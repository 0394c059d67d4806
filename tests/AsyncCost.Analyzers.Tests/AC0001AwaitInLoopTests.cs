using AsyncCost.Analyzers.CodeFixes;
using AsyncCost.Analyzers.Rules;
using AsyncCost.Analyzers.Tests.Verification;
using Verify = AsyncCost.Analyzers.Tests.Verification.AnalyzerVerifier<AsyncCost.Analyzers.Rules.AC0001AwaitInLoopAnalyzer>;
using Fix = AsyncCost.Analyzers.Tests.Verification.CodeFixVerifier<AsyncCost.Analyzers.Rules.AC0001AwaitInLoopAnalyzer, AsyncCost.Analyzers.CodeFixes.AC0001AwaitInLoopCodeFix>;

namespace AsyncCost.Analyzers.Tests;

public class AC0001AwaitInLoopTests
{
    // Members of a class Work that has the helpers below, and optionally more types beside it.
    private static string Code(string members, string types = "") => $$"""
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
        {{types}}
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
        Verify.VerifyAsync(Code(
            """
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
        Verify.VerifyAsync(Code("async Task M(int[] xs) { foreach (var x in xs) [|await F(x).ConfigureAwait(false)|]; foreach (var x in xs) [|await FV(x)|]; }"));

    [Fact]
    public Task Flags_an_index_loop_of_lookups_each_into_its_own_slot() =>
        Verify.VerifyAsync(Code("""
                async Task<System.Net.IPAddress[][]> M(string[] hostNames)
                {
                    var addresses = new System.Net.IPAddress[hostNames.Length][];
                    for (var i = 0; i < hostNames.Length; i++)
                        addresses[i] = [|await System.Net.Dns.GetHostAddressesAsync(hostNames[i])|];
                    return addresses;
                }
            """));

    [Fact]
    public Task Flags_a_while_loop_starting_Task_Run_per_index() =>
        Verify.VerifyAsync(Code("""
                async Task<int[]> M(int count)
                {
                    var results = new int[count];
                    var i = 0;
                    while (i < count)
                    {
                        var index = i;
                        results[index] = [|await Task.Run(() => Square(index))|];
                        i++;
                    }
                    return results;
                }
                static int Square(int x) => x * x;
            """));

    [Fact]
    public Task Flags_framework_file_io_per_path_with_results_collected_or_keyed() =>
        Verify.VerifyAsync(Code("""
                async Task<Dictionary<string, string>> M(string[] paths)
                {
                    var texts = new List<string>();
                    foreach (var path in paths) texts.Add([|await File.ReadAllTextAsync(path)|]);
                    var byPath = new Dictionary<string, string>();
                    foreach (var path in paths) byPath[path] = [|await File.ReadAllTextAsync(path)|];
                    return byPath;
                }
            """));

    [Fact]
    public Task Flags_each_iterations_own_object_and_a_result_stored_on_it() =>
        Verify.VerifyAsync(Code("""
                async Task M(List<Document> documents, Document[] byIndex)
                {
                    foreach (var document in documents) [|await document.LoadAsync()|];
                    for (var i = 0; i < byIndex.Length; i++) [|await byIndex[i].LoadAsync()|];
                    foreach (var document in documents) document.Size = [|await document.MeasureAsync()|];
                }
            """,
            """
            public sealed class Document
            {
                public long Size { get; set; }
                public Task LoadAsync() => Task.CompletedTask;
                public Task<long> MeasureAsync() => Task.FromResult(1L);
            }
            """));

    [Fact]
    public Task Flags_a_numeric_sum_of_independent_results() =>
        Verify.VerifyAsync(Code("async Task<long> M(string[] paths) { long total = 0; foreach (var p in paths) total += ([|await File.ReadAllBytesAsync(p)|]).Length; return total; }"));

    [Fact]
    public Task Flags_an_extension_method_on_a_shared_HttpClient() =>
        Verify.VerifyAsync(Code("""
                async Task<List<string>> M(HttpClient http, string[] urls)
                {
                    var pages = new List<string>();
                    foreach (var url in urls) pages.Add([|await http.GetTextAsync(url)|]);
                    return pages;
                }
            """,
            """
            public static class HttpExtensions
            {
                public static Task<string> GetTextAsync(this HttpClient client, string url) => client.GetStringAsync(url);
            }
            """));

    [Fact]
    public Task Flags_a_shared_service_the_team_declares_safe_for_concurrent_use() =>
        Verify.VerifyAsync(
            Code("""
                    readonly Shop.Catalog _catalog = new();
                    async Task<List<string>> M(IPrices prices, int[] ids)
                    {
                        var results = new List<string>();
                        foreach (var id in ids) results.Add([|await _catalog.GetAsync(id)|]);
                        foreach (var id in ids) Use((int)[|await prices.GetPriceAsync(id)|]);
                        return results;
                    }
                """,
                CatalogAndPrices),
            TestOptions.Default.WithEditorConfig("asynccost.AC0001.concurrency_safe_types", "Shop.Catalog, IPrices"));

    private const string CatalogAndPrices = """
        namespace Shop
        {
            public sealed class Catalog
            {
                private readonly HttpClient _http = new();
                public Task<string> GetAsync(int id) => _http.GetStringAsync("items/" + id);
            }
        }
        public interface IPrices { Task<decimal> GetPriceAsync(int id); }
        """;

    // Issue 46's miss: independent requests, one per item, on a shared HttpClient that is a field of this: each reads
    // its own response, or takes values of this that it can only read (a base address, JSON options), or the client
    // is handed to a static helper. Found on code no rule had been tuned on; written here as our own minimal shapes.
    [Fact]
    public async Task Flags_requests_on_a_shared_client_that_read_their_own_response_or_take_read_only_members_of_this()
    {
        var code = WithJson(Code("""
                readonly HttpClient _http = new();
                readonly string _baseUrl = "https://example.test/items/";
                readonly System.Text.Json.JsonSerializerOptions _json = new();
                async Task<List<string>> Bodies(int[] ids, CancellationToken ct)
                {
                    var bodies = new List<string>();
                    foreach (var id in ids)
                    {
                        using var response = [|await _http.GetAsync(_baseUrl + id, ct)|];
                        response.EnsureSuccessStatusCode();
                        bodies.Add(await response.Content.ReadAsStringAsync(ct));
                    }
                    return bodies;
                }
                async Task<List<Item?>> Items(int[] ids, CancellationToken ct)
                {
                    var items = new List<Item?>();
                    foreach (var id in ids) items.Add([|await _http.GetFromJsonAsync<Item>(_baseUrl + id, _json, ct)|]);
                    return items;
                }
                async Task<string[]> Pages(int[] ids)
                {
                    var pages = new string[ids.Length];
                    for (var i = 0; i < ids.Length; i++) pages[i] = [|await FetchAsync(_http, _baseUrl, ids[i])|];
                    return pages;
                }
                static Task<string> FetchAsync(HttpClient http, string baseUrl, int id) => http.GetStringAsync(baseUrl + id);
            """,
            "public sealed class Item { public int Id { get; set; } }"));
        await Verify.VerifyAsync(code);
        var messages = (await Verify.GetDiagnosticsAsync(code)).Select(d => d.GetMessage(System.Globalization.CultureInfo.InvariantCulture)).ToList();
        Assert.Contains("a call on a shared client that is safe for concurrent use", messages[0], StringComparison.Ordinal);
        Assert.Contains("a static call with this iteration's arguments", messages[2], StringComparison.Ordinal);
    }

    [Fact]
    public async Task Message_names_the_call_its_evidence_what_the_user_gains_and_when_not_to()
    {
        var diagnostic = Assert.Single(await Verify.GetDiagnosticsAsync(Code("""
                async Task M(string[] hosts) { foreach (var host in hosts) Use((await System.Net.Dns.GetHostAddressesAsync(host)).Length); }
            """)));
        var message = diagnostic.GetMessage(System.Globalization.CultureInfo.InvariantCulture);
        Assert.StartsWith("'GetHostAddressesAsync' is awaited once per iteration", message, StringComparison.Ordinal);
        Assert.Contains("a static call with this iteration's arguments", message, StringComparison.Ordinal);
        Assert.Contains("Task.WhenAll", message, StringComparison.Ordinal);
        Assert.Contains("Parallel.ForEachAsync", message, StringComparison.Ordinal);
        Assert.Contains("ordering, a rate limit", message, StringComparison.Ordinal);
    }

    // Issue 34's misses: each element's own client connected with a port read off this and the token of a field's
    // CancellationTokenSource (values copied into the call, nothing shared); one read-only payload written to each
    // element's own stream (the call reads the buffer, it does not advance it).
    [Fact]
    public Task Flags_connecting_each_elements_own_client_with_a_port_field_and_a_field_sources_token() =>
        Verify.VerifyAsync(Code(
            """
                readonly int _port = 1883;
                readonly CancellationTokenSource _cts = new();
                async Task M(List<Client> clients) { foreach (var client in clients) [|await client.ConnectAsync(_port, _cts.Token)|]; }
            """,
            "public sealed class Client { public Task ConnectAsync(int port, CancellationToken ct) => Task.Delay(port, ct); }"));

    [Fact]
    public Task Flags_a_fan_out_of_one_read_only_buffer_to_each_elements_own_stream() =>
        Verify.VerifyAsync(Code(
            """
                async Task M(List<Subscriber> subscribers, byte[] payload, ReadOnlyMemory<byte> frame, CancellationToken ct)
                {
                    foreach (var s in subscribers) [|await s.Stream.WriteAsync(payload, 0, payload.Length, ct)|];
                    foreach (var s in subscribers) [|await s.SendAsync(frame, ct)|];
                }
            """,
            "public sealed class Subscriber { public Stream Stream { get; } = new MemoryStream(); public Task SendAsync(ReadOnlyMemory<byte> frame, CancellationToken ct) => Stream.WriteAsync(frame, ct).AsTask(); }"));

    // Must not flag: the loop only waits for work each element started earlier (their waits already overlap).
    [Fact]
    public Task Ignores_a_loop_that_only_awaits_work_already_started() =>
        Verify.VerifyAsync(Code(
            """
                async Task M(List<Worker> workers, List<Pending> pending, CancellationToken ct)
                {
                    foreach (var w in workers) await w.StopAsync();
                    foreach (var p in pending) Use(await p.WaitAsync(ct));
                    foreach (var w in workers) await w.Completion;
                }
            """,
            """
                public sealed class Worker
                {
                    readonly CancellationTokenSource _stop = new();
                    readonly Task _run = Task.Delay(1000);
                    public Task Completion => _run;
                    public async Task StopAsync() { _stop.Cancel(); await _run.ConfigureAwait(false); }
                }
                public sealed class Pending
                {
                    readonly TaskCompletionSource<int> _done = new();
                    public Task<int> WaitAsync(CancellationToken ct) => _done.Task.WaitAsync(ct);
                }
            """));

    // An element's method that starts new work (not only waits for a stored task) is still work the loop serializes.
    [Fact]
    public Task Flags_an_elements_method_that_starts_work_before_awaiting_a_stored_task() =>
        Verify.VerifyAsync(Code(
            "async Task M(List<Job> jobs) { foreach (var j in jobs) [|await j.RunAsync()|]; }",
            "public sealed class Job { readonly Task _warm = Task.CompletedTask; public async Task RunAsync() { await _warm; await Task.Delay(10); } }"));

    // A shared writable buffer handed to a call that fills it is still one ordered resource.
    [Fact]
    public Task Ignores_reading_into_one_shared_buffer_from_each_elements_stream() =>
        Verify.VerifyAsync(Code(
            "async Task M(List<Stream> streams, byte[] buffer) { foreach (var s in streams) Use(await s.ReadAsync(buffer, 0, buffer.Length)); }"));

    [Fact]
    public async Task The_finding_names_the_awaited_callees_of_another_class_its_cost_is_spent_in()
    {
        var diagnostic = Assert.Single(await Verify.GetDiagnosticsAsync("""
            using System.Threading.Tasks;
            namespace Shop
            {
                public static class Stock { public static async Task<long> ReserveAsync(int sku) { await Task.Yield(); return sku; } }
                public static class Prices { public static Task<decimal> GetAsync(int sku) => Task.FromResult(1m); }
                public sealed class Checkout
                {
                    public async Task<decimal> RunAsync(int[] skus)
                    {
                        var total = 0m;
                        foreach (var sku in skus) { await Stock.ReserveAsync(sku).ConfigureAwait(false); total += await Prices.GetAsync(sku); }
                        return total;
                    }
                }
            }
            """));

        Assert.Equal("Shop.Checkout.RunAsync", diagnostic.Properties["AsyncCostMethod"]);
        Assert.Equal("Shop.Stock.ReserveAsync;Shop.Prices.GetAsync", diagnostic.Properties["AsyncCostCostIn"]);
    }

    [Fact]
    public Task Flags_one_finding_per_loop_on_its_first_await() =>
        Verify.VerifyAsync(Code("async Task M(int[] xs) { foreach (var x in xs) { Use([|await G(x)|]); await F(x); await FV(x); } }"));

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
        Verify.VerifyAsync(Code("async Task M(int[] xs) { foreach (var x in xs) { var a = [|await F(x)|]; Use(await G(a)); } }"));

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
    public Task Does_not_flag_ordered_writes_through_the_objects_own_state_implicit_this() =>
        Verify.VerifyAsync(Code("", """
            public sealed class RowImporter
            {
                private int _column;
                public async Task WriteRowAsync(object?[] values, CancellationToken ct)
                {
                    _column = 0;
                    foreach (var value in values)
                        await WriteAsync(value, ct).ConfigureAwait(false);
                }
                private Task WriteAsync(object? value, CancellationToken ct) { _column++; return Task.CompletedTask; }
            }
            """));

    [Fact]
    public Task Does_not_flag_a_clients_own_methods_serialized_by_its_semaphore() =>
        Verify.VerifyAsync(Code("", """
            public sealed class FtpLikeClient
            {
                private readonly SemaphoreSlim _gate = new(1, 1);
                public async Task DeleteTreeAsync(string[] pathsChildrenFirst)
                {
                    foreach (var p in pathsChildrenFirst) await DeleteFile(p);
                    foreach (var p in pathsChildrenFirst) await this.DeleteFile(p);
                }
                public async Task<long> TotalSizeAsync(string[] files)
                {
                    long total = 0;
                    foreach (var f in files) total += await GetFileSize(f);
                    return total;
                }
                private async Task DeleteFile(string path) { await _gate.WaitAsync(); try { await Task.Yield(); } finally { _gate.Release(); } }
                private async Task<long> GetFileSize(string path) { await _gate.WaitAsync(); try { await Task.Yield(); return path.Length; } finally { _gate.Release(); } }
            }
            """));

    [Fact]
    public Task Does_not_flag_a_shared_service_nobody_declared_safe_nor_a_shared_delegate() =>
        Verify.VerifyAsync(Code("""
                readonly Shop.Catalog _catalog = new();
                readonly Func<int, Task<int>> _fetch = F;
                async Task<List<string>> M(IPrices prices, int[] ids)
                {
                    var results = new List<string>();
                    foreach (var id in ids) results.Add(await _catalog.GetAsync(id));
                    foreach (var id in ids) Use((int)await prices.GetPriceAsync(id));
                    foreach (var id in ids) Use(await _fetch(id));
                    return results;
                }
            """,
            CatalogAndPrices));

    // The stateful twins of the requests above: the same loops where the iterations share something that changes or
    // is used in order. A shared stream each response is copied into; a settings object with a setter, or an interface
    // nobody declared safe, handed to the helper; the shared client also changed by each iteration before its request;
    // a response kept where the next iteration overwrites it; a value a listed safe type hands out (it may hand every
    // caller the same object: only the framework's HTTP client makes a response per request); and receivers that
    // are stateful themselves (a stream, a connection, a client with a cursor).
    [Fact]
    public Task Does_not_flag_requests_that_share_a_stateful_object() =>
        Verify.VerifyAsync(
            WithJson(Code("""
                    readonly HttpClient _http = new();
                    readonly Stream _output = Stream.Null;
                    readonly Settings _settings = new();
                    readonly IStore _store = new Store();
                    readonly Shop.Cache _cache = new();
                    readonly PagedClient _paged = new();
                    HttpResponseMessage? _last;
                    async Task Copy(int[] ids)
                    {
                        foreach (var id in ids)
                        {
                            using var response = await _http.GetAsync("items/" + id);
                            await response.Content.CopyToAsync(_output);
                        }
                    }
                    async Task Helpers(int[] ids)
                    {
                        foreach (var id in ids) await FetchAsync(_http, _settings, id);
                        foreach (var id in ids) await SaveAsync(_store, id);
                        foreach (var id in ids) { Authorize(_http, id); await GetAsync(_http, id); }
                    }
                    async Task Kept(int[] ids)
                    {
                        foreach (var id in ids) { _last = await _http.GetAsync("items/" + id); Use((await _last.Content.ReadAsStringAsync()).Length); }
                    }
                    async Task Handed(int[] ids)
                    {
                        foreach (var id in ids) { var entry = await _cache.GetAsync(id); await entry.RefreshAsync(); }
                    }
                    async Task Stateful(int[] ids, byte[][] chunks, System.Data.Common.DbConnection connection)
                    {
                        foreach (var id in ids) await _output.WriteAsync(chunks[id]);
                        foreach (var id in ids) await connection.ChangeDatabaseAsync("shard" + id);
                        foreach (var id in ids) Use(await _paged.NextAsync(id));
                    }
                    static Task FetchAsync(HttpClient http, Settings settings, int id) => http.GetStringAsync(settings.BaseUrl + id);
                    static Task SaveAsync(IStore store, int id) => store.SaveAsync(id);
                    static Task GetAsync(HttpClient http, int id) => http.GetStringAsync("items/" + id);
                    static void Authorize(HttpClient http, int id) => http.DefaultRequestHeaders.Add("X-Item", id.ToString());
                """,
                """
                public sealed class Settings { public static readonly Settings Default = new(); public string BaseUrl { get; set; } = "https://example.test/"; }
                public interface IStore { Task SaveAsync(int id); }
                public sealed class Store : IStore { public Task SaveAsync(int id) => Task.CompletedTask; }
                public sealed class PagedClient { private int _cursor; public Task<int> NextAsync(int id) { _cursor += id; return Task.FromResult(_cursor); } }
                namespace Shop
                {
                    public sealed class Entry { public Task RefreshAsync() => Task.CompletedTask; }
                    public sealed class Cache { private readonly Entry _entry = new(); public Task<Entry> GetAsync(int id) => Task.FromResult(_entry); }
                }
                """)),
            TestOptions.Default.WithEditorConfig("asynccost.AC0001.concurrency_safe_types", "Shop.Cache"));

    [Fact]
    public Task Does_not_flag_an_elements_method_that_hands_the_work_to_one_shared_static_service() =>
        Verify.VerifyAsync(Code("""
                async Task M(List<Episode> episodes)
                {
                    foreach (var episode in episodes) await episode.RestoreWatchedStateAsync();
                    foreach (var episode in episodes) await episode.SaveAsync();
                }
            """,
            """
            public sealed class Library
            {
                public Task RestoreAsync(Episode episode) => Task.Delay(1);
            }
            public sealed class Episode
            {
                public static Library Library { get; set; } = new();
                private static readonly Library Store = new();
                public async Task RestoreWatchedStateAsync() => await Library.RestoreAsync(this).ConfigureAwait(false);
                public Task SaveAsync() => Store.RestoreAsync(this);
            }
            """));

    [Fact]
    public Task Flags_an_elements_method_whose_shared_static_service_the_team_declared_safe() =>
        Verify.VerifyAsync(Code("""
                async Task M(List<Episode> episodes)
                {
                    foreach (var episode in episodes) [|await episode.FetchArtworkAsync()|];
                }
            """,
            """
            public sealed class ArtworkClient
            {
                public Task FetchAsync(string url) => Task.Delay(1);
            }
            public sealed class Episode
            {
                public string Url { get; set; } = "";
                private static readonly ArtworkClient Client = new();
                public Task FetchArtworkAsync() => Client.FetchAsync(Url);
            }
            """),
            TestOptions.Default.WithEditorConfig("asynccost.AC0001.concurrency_safe_types", "ArtworkClient"));

    [Fact]
    public Task Flags_an_elements_method_that_calls_through_the_elements_own_client() =>
        Verify.VerifyAsync(Code("""
                async Task M(List<Episode> episodes)
                {
                    foreach (var episode in episodes) [|await episode.FetchArtworkAsync()|];
                }
            """,
            """
            public sealed class ArtworkClient
            {
                public Task FetchAsync(string url) => Task.Delay(1);
            }
            public sealed class Episode
            {
                public string Url { get; set; } = "";
                private readonly ArtworkClient _client = new();
                public Task FetchArtworkAsync() => _client.FetchAsync(Url);
            }
            """));

    [Fact]
    public Task Does_not_flag_a_local_function_that_writes_to_the_methods_writer() =>
        Verify.VerifyAsync(Code(
            """
                async Task M(string[] records, Stream s)
                {
                    var writer = new StreamWriter(s);
                    foreach (var r in records) await WriteEntryAsync(r);
                    async Task WriteEntryAsync(string record) => await writer.WriteLineAsync(record);
                }
            """));

    [Fact]
    public Task Flags_a_local_function_that_uses_only_its_arguments() =>
        Verify.VerifyAsync(Code(
            """
                async Task M(int[] xs)
                {
                    foreach (var x in xs) [|await Square(x)|];
                    static Task<int> Square(int v) => Task.FromResult(v * v);
                }
                async Task N(int[] xs)
                {
                    foreach (var x in xs) [|await Twice(x)|];
                    Task<int> Twice(int v) => Task.FromResult(v * 2);
                }
            """));

    [Fact]
    public Task Does_not_flag_a_shared_writer_passed_in_as_a_parameter() =>
        Verify.VerifyAsync(Code("""
                static async Task Dump(PacketWriter output, string[] lines) { foreach (var line in lines) await Format(output, line); }
                static Task Format(PacketWriter output, string line) => output.WriteAsync(line);
            """,
            """
            public sealed class PacketWriter { public Task WriteAsync(string s) => Task.CompletedTask; }
            """));

    [Fact]
    public Task Does_not_flag_consecutive_packets_on_one_socket_in_a_do_while() =>
        Verify.VerifyAsync(Code("""
                async Task M(System.Net.Sockets.Socket socket, byte[][] packets)
                {
                    var i = 0;
                    do { await socket.SendAsync(packets[i], System.Net.Sockets.SocketFlags.None); i++; } while (i < packets.Length);
                    var offset = 0;
                    var data = packets[0];
                    do { var n = await socket.SendAsync(data.AsMemory(offset), System.Net.Sockets.SocketFlags.None); offset += n; } while (offset < data.Length);
                }
            """));

    [Fact]
    public Task Does_not_flag_a_result_kept_in_shared_state_where_the_last_one_wins() =>
        Verify.VerifyAsync(Code("""
                string? _latest;
                async Task<string?> M(HttpClient client, string[] urls)
                {
                    string? last = null;
                    foreach (var url in urls) last = await client.GetStringAsync(url);
                    foreach (var url in urls) { var page = await client.GetStringAsync(url); _latest = page; }
                    var text = "";
                    foreach (var url in urls) text += await client.GetStringAsync(url);
                    return last + text;
                }
            """));

    [Fact]
    public Task Does_not_flag_a_static_method_that_moves_shared_static_state_on() =>
        Verify.VerifyAsync(Code("", """
            public static class Journal
            {
                private static int _sequence;
                public static async Task AppendAsync(string[] entries) { foreach (var e in entries) await Write(e); }
                private static Task Write(string entry) { _sequence++; return Task.CompletedTask; }
            }
            """));

    [Fact]
    public Task Does_not_flag_Task_Run_over_the_objects_own_method_or_a_shared_unsafe_object() =>
        Verify.VerifyAsync(Code("", """
            public sealed class Renderer
            {
                private readonly List<int> _done = new();
                private int _frames;
                public async Task RenderAllAsync(int count, Canvas canvas)
                {
                    for (var i = 0; i < count; i++) { var index = i; await Task.Run(() => Render(index)); }
                    for (var i = 0; i < count; i++) await Task.Run(Tick);
                    for (var i = 0; i < count; i++) { var index = i; await Task.Run(() => canvas.Draw(index)); }
                }
                private void Render(int index) => _done.Add(index);
                private void Tick() => _frames++;
            }
            public sealed class Canvas { public void Draw(int index) { } }
            """));

    [Fact]
    public Task Does_not_flag_entries_written_one_after_another_into_one_archive() =>
        Verify.VerifyAsync(Code("""
                async Task M(System.IO.Compression.ZipArchive archive, string[] names, string[] files)
                {
                    foreach (var name in names)
                    {
                        using var buffer = new MemoryStream();
                        var entry = archive.CreateEntry(name);
                        await using var entryStream = entry.Open();
                        await buffer.CopyToAsync(entryStream);
                    }
                    foreach (var file in files) await AddEntry(archive, file);
                }
                static Task AddEntry(System.IO.Compression.ZipArchive archive, string file) => Task.CompletedTask;
            """));

    [Fact]
    public Task Does_not_flag_entries_read_one_after_another_out_of_one_archive() =>
        Verify.VerifyAsync(Code("""
                async Task M(System.IO.Compression.ZipArchive archive, string directory)
                {
                    foreach (var entry in archive.Entries)
                    {
                        await using var entryStream = entry.Open();
                        await using var file = File.OpenWrite(Path.Combine(directory, entry.FullName));
                        await entryStream.CopyToAsync(file);
                    }
                }
            """));

    [Fact]
    public Task Flags_elements_of_a_collection_owned_by_a_type_only_named_like_an_ordered_resource() =>
        // The archive exception takes known types only: a "…Session" may hand out independent objects, each awaited in turn.
        Verify.VerifyAsync(Code(
            "async Task M(ReplicaSession session) { foreach (var replica in session.Replicas) [|await replica.ConnectAsync()|]; }",
            """
            public sealed class ReplicaSession { public List<Replica> Replicas { get; } = new(); }
            public sealed class Replica { public Task ConnectAsync() => Task.Delay(1); }
            """));

    [Fact]
    public Task Does_not_flag_each_event_invocator_called_in_turn() =>
        Verify.VerifyAsync(Code("""
                async Task M(List<Invocator> handlers, EventArgs e)
                {
                    foreach (var handler in handlers) await handler.InvokeAsync(e);
                }
            """,
            """
            public sealed class Invocator
            {
                private readonly Func<EventArgs, Task> _callback = _ => Task.CompletedTask;
                public Task InvokeAsync(EventArgs e) => _callback(e);
            }
            """));

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
    public Task Ignores_ordered_writes_on_one_shared_object_with_mutable_state() =>
        Verify.VerifyAsync(Code("""
                readonly RowEncoder _writer = new();
                async Task M(Dictionary<string, string> values, RowEncoder writer, string[] names)
                {
                    foreach (var kv in values) await writer.WriteCharsAsync(kv.Key.ToCharArray());
                    foreach (var name in names) await _writer.WriteCharsAsync(name.ToCharArray());
                    var local = new RowEncoder();
                    foreach (var name in names) await WriteName(local, name);
                }
                static Task WriteName(RowEncoder w, string name) => w.WriteCharsAsync(name.ToCharArray());
                async Task Named(IPacketWriter packets, int[] ids) { foreach (var id in ids) await packets.WriteAsync(id); }
            """,
            """
            public sealed class RowEncoder
            {
                private int _position;
                public Task WriteCharsAsync(char[] chars) { _position += chars.Length; return Task.CompletedTask; }
            }
            public interface IPacketWriter { Task WriteAsync(int id); }
            """));

    [Fact]
    public Task Ignores_a_shared_object_the_loop_also_uses_synchronously() =>
        Verify.VerifyAsync(Code(
            """
                async Task M(IFrameSink sink, int[] frames)
                {
                    foreach (var frame in frames) { sink.Begin(frame); await sink.SendAsync(frame); }
                }
            """,
            """
            public interface IFrameSink { void Begin(int frame); Task SendAsync(int frame); }
            """));

    [Fact]
    public Task Ignores_a_value_carried_across_iterations_of_a_do_loop() =>
        Verify.VerifyAsync(Code(
            """
                async Task M(IColumnSource buf, int n)
                {
                    var col = 0;
                    var len = 0;
                    do
                    {
                        if (len > 0) await buf.Skip(len);
                        await buf.EnsureAsync(4);
                        len = buf.ReadInt32();
                    } while (++col < n);
                }
                async Task Carried(int[] xs)
                {
                    var previous = 0;
                    foreach (var x in xs) { await F(previous); previous = x; }
                }
            """,
            """
            public interface IColumnSource { Task Skip(int count); Task EnsureAsync(int count); int ReadInt32(); }
            """));

    [Fact]
    public Task Ignores_awaiting_tasks_that_are_already_running() =>
        Verify.VerifyAsync(Code(
            """
                async Task<int> M(List<Task<int>> tasks, Task<int>[] pending, CancellationToken ct)
                {
                    var sum = 0;
                    foreach (var t in tasks) sum += await t;
                    for (var i = 0; i < pending.Length; i++) { var v = await pending[i]; Use(v); }
                    foreach (var t in tasks) Use(await t.WaitAsync(ct));
                    foreach (var t in tasks) await t.ConfigureAwait(false);
                    return sum;
                }
            """));

    [Fact]
    public Task Ignores_sequential_callbacks_and_handlers_sharing_one_context() =>
        Verify.VerifyAsync(Code("""
                async Task M(List<Func<Ctx, Task>> callbacks, Ctx ctx, IHandler[] handlers, CancellationToken ct)
                {
                    foreach (var cb in callbacks) await cb(ctx);
                    foreach (var h in handlers) await h.Handle(ctx, ct);
                }
            """,
            """
            public sealed class Ctx { public bool Handled { get; set; } }
            public interface IHandler { Task Handle(Ctx ctx, CancellationToken ct); }
            """));

    [Fact]
    public Task Ignores_ordered_disposal() =>
        Verify.VerifyAsync(Code(
            """
                async Task M(List<IAsyncDisposable> children, Conn[] connections)
                {
                    foreach (var c in children) await c.DisposeAsync();
                    foreach (var c in connections) await c.CloseAsync();
                }
            """,
            """
            public sealed class Conn { public Task CloseAsync() => Task.CompletedTask; }
            """));

    [Fact]
    public Task Ignores_loops_inside_a_teardown_method() =>
        Verify.VerifyAsync(Code(
            """
                readonly List<Worker> _workers = new();
                public async ValueTask DisposeAsync()
                {
                    foreach (var w in _workers) { await w.Running; await w.ResetAsync(); }
                }
                public async Task CloseAsync() { foreach (var w in _workers) await w.ResetAsync(); }
                protected virtual async ValueTask DisposeAsyncCore() { foreach (var w in _workers) await w.ResetAsync(); }
            """,
            """
            public sealed class Worker { public Task Running { get; } = Task.CompletedTask; public Task ResetAsync() => Task.CompletedTask; }
            public sealed class Owner : IAsyncDisposable
            {
                readonly Worker[] _workers = new Worker[0];
                async ValueTask IAsyncDisposable.DisposeAsync() { foreach (var w in _workers) await w.ResetAsync(); }
            }
            """));

    [Fact]
    public Task Flags_the_same_loop_outside_a_teardown_method() =>
        Verify.VerifyAsync(Code(
            """
                readonly List<Worker> _workers = new();
                public async Task RecycleAsync()
                {
                    foreach (var w in _workers) { [|await w.ResetAsync()|]; }
                }
            """,
            """
            public sealed class Worker { public Task ResetAsync() => Task.CompletedTask; }
            """));

    [Fact]
    public Task Ignores_an_exit_on_state_the_await_was_handed() =>
        Verify.VerifyAsync(Code(
            """
                async Task M(Step[] steps, string e, HandlerState state, CancellationToken ct)
                {
                    foreach (var step in steps) { await Run(step, e, state, ct); if (state.Handled) break; }
                }
                static Task Run(Step step, string e, HandlerState state, CancellationToken ct) => Task.CompletedTask;
            """,
            """
            public sealed class Step { }
            public sealed class HandlerState { public bool Handled { get; private set; } public void SetHandled() => Handled = true; }
            """));

    [Fact]
    public Task Ignores_awaiting_one_batch_per_iteration() =>
        Verify.VerifyAsync(Code("async Task M(int[][] batches) { foreach (var batch in batches) await Task.WhenAll(System.Linq.Enumerable.Select(batch, F)); }"));

    [Fact]
    public Task Is_silent_in_test_projects() =>
        Verify.VerifyAsync(
            Code("async Task M(int[] xs) { foreach (var x in xs) await F(x); }"),
            TestOptions.Default.WithBuildProperty("IsTestProject", "true"));

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

    [Fact]
    public Task Fix_All_rewrites_every_fixable_loop_of_the_document_and_leaves_the_rest() =>
        Fix.VerifyFixAllAsync(
            WithLinq(Code("""
                    async Task<List<int>> M(int[] xs, int n)
                    {
                        foreach (var x in xs) [|await F(x)|];
                        var list = new List<int>();
                        foreach (var x in xs) list.Add([|await G(x)|]);
                        for (var i = 0; i < n; i++) Use([|await F(i)|]);
                        return list;
                    }
                """)),
            WithLinq(Code("""
                    async Task<List<int>> M(int[] xs, int n)
                    {
                        await Task.WhenAll(xs.Select(x => F(x)));
                        var list = new List<int>();
                        list.AddRange(await Task.WhenAll(xs.Select(x => G(x))));
                        for (var i = 0; i < n; i++) Use(await F(i));
                        return list;
                    }
                """)));

    private static string WithJson(string code) => code.Replace("using System.Net.Http;\n", "using System.Net.Http;\nusing System.Net.Http.Json;\n", StringComparison.Ordinal);

    private static string WithLinq(string code) => code.Replace("using System.IO;\n", "using System.IO;\nusing System.Linq;\n", StringComparison.Ordinal);
}
