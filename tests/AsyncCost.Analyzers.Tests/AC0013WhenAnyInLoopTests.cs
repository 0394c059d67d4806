using AsyncCost.Analyzers.Rules;
using AsyncCost.Analyzers.Tests.Verification;
using Verify = AsyncCost.Analyzers.Tests.Verification.AnalyzerVerifier<AsyncCost.Analyzers.Rules.AC0013WhenAnyInLoopAnalyzer>;

namespace AsyncCost.Analyzers.Tests;

public class AC0013WhenAnyInLoopTests : RuleTheories<AC0013WhenAnyInLoopAnalyzer>
{
    public static TheoryData<string, string> MustFlag => new()
    {
        { "a receive loop racing each datagram against a timeout, observing the abandoned receive with ContinueWith", """
            async Task Receive(System.Net.Sockets.UdpClient socket, TimeSpan timeout, CancellationToken ct)
            {
                while (!ct.IsCancellationRequested)
                {
                    var receive = socket.ReceiveAsync();
                    var done = await [|Task.WhenAny|](receive, Task.Delay(timeout, ct));
                    if (done != receive)
                    {
                        _ = [|receive.ContinueWith|](t => _ = t.Exception, TaskContinuationOptions.OnlyOnFaulted);
                        continue;
                    }
                    Handle((await receive).Buffer);
                }
            }
            void Handle(byte[] datagram) { }
            """ },
        { "a call raced against a signal made outside the loop", """
            Task<int> ReadAsync() => Task.FromResult(1);
            async Task Pump(Task closing)
            {
                while (true)
                {
                    if (await [|Task.WhenAny|](ReadAsync(), closing) == closing) { return; }
                }
            }
            """ },
        { "a race in the loop's condition", """
            Task<int> ReadAsync() => Task.FromResult(1);
            async Task Pump(Task closing) { while (await [|Task.WhenAny|](ReadAsync(), closing) != closing) { } }
            """ },
        { "per message of an await foreach", """
            Task SendAsync(int message) => Task.Delay(message);
            async Task Forward(System.Threading.Channels.ChannelReader<int> reader)
            {
                await foreach (var message in reader.ReadAllAsync())
                {
                    var send = SendAsync(message);
                    await [|Task.WhenAny|](send, Task.Delay(1000));
                }
            }
            """ },
        { "a counted loop with a bound that is not a small constant", """
            async Task Probe(Func<Task> ping, int count)
            {
                for (var i = 0; i < count; i++) { await [|Task.WhenAny|](ping(), Task.Delay(100)); }
                for (var i = 0; i < 1000; i++) { await [|Task.WhenAny|](ping(), Task.Delay(100)); }
            }
            """ },
        { "an explicit array of this iteration's tasks", """
            async Task Loop(Func<Task> next, TimeSpan timeout)
            {
                while (true)
                {
                    var work = next();
                    await [|Task.WhenAny|](new[] { work, Task.Delay(timeout) });
                }
            }
            """ },
        { "an async lambda's loop", """
            Func<Task> Loop(Func<Task> next) => async () => { do { await [|Task.WhenAny|](next(), Task.Delay(10)); } while (true); };
            """ },
        { "a pump whose read is started before the loop and again at the end of each iteration", """
            async Task Pump(System.IO.Stream stream, byte[] buffer, TimeSpan idle)
            {
                var read = stream.ReadAsync(buffer, 0, buffer.Length);
                while (true)
                {
                    if (await [|Task.WhenAny|](read, Task.Delay(idle)) != read) { return; }
                    if (await read == 0) { return; }
                    read = stream.ReadAsync(buffer, 0, buffer.Length);
                }
            }
            """ },
        { "a ContinueWith per iteration of an async loop", """
            Task SendAsync(int item) => Task.Delay(item);
            async Task Send(IEnumerable<int> items)
            {
                foreach (var item in items)
                {
                    var send = SendAsync(item);
                    _ = [|send.ContinueWith|](t => Console.WriteLine(t.Exception), TaskContinuationOptions.OnlyOnFaulted);
                    await send;
                }
            }
            """ },
    };

    public static TheoryData<string, string> MustNotFlag => new()
    {
        // A loop that pauses every iteration runs once per interval: a window recorder racing its window against the
        // recording, then waiting out the pause (or a ticker's race of a delay against a task made before the loop).
        { "a loop paced by a delay every iteration", """
            async Task Windows(Func<Task<int>> record, Task exited, TimeSpan pause, CancellationToken token)
            {
                while (!token.IsCancellationRequested)
                {
                    var done = new TaskCompletionSource<int>();
                    var recording = record();
                    await Task.WhenAny(done.Task, recording);
                    var wait = Task.Delay(pause, token);
                    if (await Task.WhenAny(wait, exited) == exited) { return; }
                }
                while (!token.IsCancellationRequested)
                {
                    await Task.WhenAny(record(), exited);
                    await Task.Delay(pause, token).ConfigureAwait(false);
                }
            }
            """ },
        { "a WhenAny outside a loop", """
            async Task<bool> Once(Task receive, TimeSpan timeout) => await Task.WhenAny(receive, Task.Delay(timeout)) == receive;
            """ },
        { "a retry of a few tries", """
            const int MaxAttempts = 5;
            async Task Retry(Func<Task> connect)
            {
                for (int i = 0; i < 3; i++) { if (await Task.WhenAny(connect(), Task.Delay(1000)) is { IsCompletedSuccessfully: true }) { return; } }
                var attempt = 0;
                while (++attempt <= MaxAttempts && !Stopped) { await Task.WhenAny(connect(), Task.Delay(1000)); }
                do { await Task.WhenAny(connect(), Task.Delay(1000)); } while (attempt++ < 3);
            }
            bool Stopped => false;
            """ },
        { "a supervisor waiting on long-running workers made outside the loop", """
            Task _reader = Task.CompletedTask, _writer = Task.CompletedTask;
            async Task Supervise(List<Task> workers, CancellationToken ct)
            {
                while (workers.Count > 0)
                {
                    var finished = await Task.WhenAny(workers);
                    workers.Remove(finished);
                }
                while (!ct.IsCancellationRequested)
                {
                    var ended = await Task.WhenAny(_reader, _writer);
                    await ended;
                }
            }
            """ },
        { "tasks made before the loop in locals it does not set", """
            async Task Watch(Func<Task> a, Func<Task> b, CancellationToken ct)
            {
                var first = a();
                var second = b();
                while (!ct.IsCancellationRequested)
                {
                    var done = await Task.WhenAny(first, second);
                    if (done == first) { break; }
                    await Task.Delay(10, ct);
                }
            }
            """ },
        { "a ticker: a long-lived signal raced against a delay once per interval", """
            readonly TaskCompletionSource<bool> _stopped = new();
            void Refresh() { }
            async Task Tick(TimeSpan interval, CancellationToken ct)
            {
                while (!ct.IsCancellationRequested)
                {
                    await Task.WhenAny(_stopped.Task, Task.Delay(interval, ct));
                    Refresh();
                }
            }
            async Task Poll(Func<int> read)
            {
                var reading = Task.Run(read);
                while (!reading.IsCompleted)
                {
                    var delay = Task.Delay(100);
                    if (await Task.WhenAny(reading, delay) == delay) { Refresh(); }
                }
            }
            """ },
        { "a lambda declared in the loop runs when it is called", """
            void Register(List<Func<Task>> handlers, Func<Task> work)
            {
                for (var i = 0; i < handlers.Capacity; i++) { handlers.Add(async () => await Task.WhenAny(work(), Task.Delay(10))); }
            }
            """ },
        { "a synchronous loop has nothing to await instead", """
            void Observe(List<Task> sends) { foreach (var send in sends) { send.ContinueWith(t => Console.WriteLine(t.Exception), TaskContinuationOptions.OnlyOnFaulted); } }
            """ },
        { "a WhenAny and a ContinueWith of one's own", """
            static class Races { public static Task WhenAny(Task a, Task b) => a; }
            sealed class Job { public Job ContinueWith(Action<Job> next) => this; }
            async Task Loop(Func<Task> next, Job job) { while (true) { await Races.WhenAny(next(), Task.Delay(1)); job.ContinueWith(_ => { }); } }
            """ },
    };

    public static TheoryData<string> BrokenCode => new()
    {
        { "async Task M() { while (true) { await Task.WhenAny(; } }" },
        { "async Task M(Task t) { for (var i = 0; i < ; i++) { t.ContinueWith(); await t; } }" },
        { "async Task M() { while (Undefined < 3) { await Task.WhenAny(Undefined(), Task.Delay(1)); } }" },
        { "async Task M() { foreach (var x in ) { await Task.WhenAny(x, Task.Delay()); } }" },
    };

    [Fact]
    public async Task Message_names_the_timer_of_a_raced_delay_and_the_advice()
    {
        var diagnostics = await Verify.GetDiagnosticsAsync(Snippet.InClass("""
            async Task Loop(Func<Task> next, Task closing)
            {
                while (true)
                {
                    await Task.WhenAny(next(), Task.Delay(100));
                    await Task.WhenAny(next(), closing);
                }
            }
            """));
        Assert.Equal(2, diagnostics.Length);
        var withDelay = diagnostics[0].GetMessage(System.Globalization.CultureInfo.InvariantCulture);
        var withoutDelay = diagnostics[1].GetMessage(System.Globalization.CultureInfo.InvariantCulture);
        Assert.Contains("a timer and its task", withDelay, StringComparison.Ordinal);
        Assert.DoesNotContain("a timer and its task", withoutDelay, StringComparison.Ordinal);
        Assert.Contains("CancelAfter", withDelay, StringComparison.Ordinal);
        Assert.Contains("WaitAsync", withDelay, StringComparison.Ordinal);
        Assert.DoesNotContain("CancelAfter", withoutDelay, StringComparison.Ordinal);
        Assert.Contains("cancelled when the other task completes", withoutDelay, StringComparison.Ordinal);
        Assert.Equal("C.Loop", diagnostics[0].Properties["AsyncCostMethod"]);
    }

    [Fact]
    public Task A_test_project_is_not_told() =>
        Verify.VerifyAsync(
            Snippet.InClass("async Task Test(Func<Task> next) { while (true) { await Task.WhenAny(next(), Task.Delay(10)); } }"),
            TestOptions.Default.WithBuildProperty("IsTestProject", "true"));
}
