using System.Text.Json.Nodes;
using AsyncCost.Cli.Tests.Infrastructure;

namespace AsyncCost.Cli.Tests;

/// <summary>--format speedscope: the cpu pass's stacks as a flame graph file that speedscope's own schema accepts, with the
/// async methods named as the report names them.</summary>
public sealed class SpeedscopeTests
{
    private static readonly string CpuTrace = Repository.Recorded("webshop.cpu.nettrace");

    [Fact]
    public async Task The_recorded_web_services_cpu_pass_is_a_speedscope_file_its_schema_accepts_with_the_async_methods_named()
    {
        using var directory = new TemporaryDirectory("asynccost-speedscope-");
        var result = await ChildProcess.RunToolAsync("report", CpuTrace, "--format", "speedscope", "-o", directory.File("web"));
        Assert.True(result.ExitCode == 0, result.ToString());
        var text = await File.ReadAllTextAsync(directory.File("web.speedscope.json"));
        Assert.Equal("", result.StandardOutput); // a file written with -o is not also printed

        var schema = await SpeedscopeSchema.LoadAsync();
        Assert.Empty(schema.Validate(text));

        var file = JsonNode.Parse(text)!;
        var frames = file["shared"]!["frames"]!.AsArray().Select(f => (string)f!["name"]!).ToList();
        // The async methods the report names, by the report's names, and not as the compiler's state machines.
        var report = await ChildProcess.RunToolAsync("report", CpuTrace);
        foreach (var method in new[] { "WebShop.Checkout.CheckoutAsync", "WebShop.Stock.ReserveAsync" })
        {
            Assert.Contains(method, frames);
            Assert.Contains(method, report.StandardOutput, StringComparison.Ordinal);
        }
        // No compiler name of an async method is left: its state machine's MoveNext is the method, and the runtime's frames
        // that run it (the AsyncStateMachineBox's) say whose they are.
        Assert.DoesNotContain(frames, f => System.Text.RegularExpressions.Regex.IsMatch(f, @"<[^<>]*>d__\d+|AsyncStateMachineBox`1\["));
        Assert.Contains("WebShop.Checkout.CheckoutAsync (AsyncStateMachineBox.MoveNext)", frames);

        // The busiest thread first (speedscope opens on it), each named by what it ran: the request threads can be told apart.
        var names = file["profiles"]!.AsArray().Select(p => (string)p!["name"]!).ToList();
        var running = names.Select(n => double.Parse(System.Text.RegularExpressions.Regex.Match(n, @", ([\d,.]+) ms running$").Groups[1].Value, System.Globalization.NumberStyles.Number, System.Globalization.CultureInfo.InvariantCulture)).ToList();
        Assert.Equal(running.OrderDescending(), running);
        Assert.Matches(@"^Thread \d+: requests, ", names[0]);
        Assert.Contains(names, n => System.Text.RegularExpressions.Regex.IsMatch(n, @"^Thread \d+: main, "));
        Assert.NotEqual(names.First(n => n.Contains(": main, ", StringComparison.Ordinal)), names[0]);

        // Every sample has a weight and names frames of the table; the async method's frame sits above its callers (root first).
        foreach (var profile in file["profiles"]!.AsArray())
        {
            var samples = profile!["samples"]!.AsArray();
            Assert.Equal(samples.Count, profile["weights"]!.AsArray().Count);
            Assert.All(samples, s => Assert.All(s!.AsArray(), i => Assert.InRange((int)i!, 0, frames.Count - 1)));
        }
        var checkout = frames.IndexOf("WebShop.Checkout.CheckoutAsync");
        Assert.Contains(file["profiles"]!.AsArray().SelectMany(p => p!["samples"]!.AsArray()), s => s!.AsArray().Select(i => (int)i!).Contains(checkout));
    }

    [Fact]
    public async Task The_schema_check_rejects_a_file_speedscope_would_not_load()
    {
        var schema = await SpeedscopeSchema.LoadAsync();

        // A sampled profile whose sample names a frame by text instead of index.
        Assert.NotEmpty(schema.Validate("""
            {"$schema":"https://www.speedscope.app/file-format-schema.json","shared":{"frames":[{"name":"a"}]},
             "profiles":[{"type":"sampled","name":"t","unit":"milliseconds","startValue":0,"endValue":1,"samples":[["a"]],"weights":[1]}]}
            """));
    }

    [Fact]
    public async Task A_trace_without_stack_samples_has_no_flame_graph_and_says_how_to_get_one()
    {
        var result = await ChildProcess.RunToolAsync("report", Repository.Recorded("webshop.hops.nettrace"), "--format", "speedscope");

        Expect.OneLineError(result, 2, "--passes cpu");
    }

    [Fact]
    public async Task Collect_refuses_speedscope_before_recording_when_no_cpu_pass_or_no_output_would_keep_the_stacks()
    {
        var noCpu = await ChildProcess.RunToolAsync("collect", "--passes", "hops", "--format", "speedscope", "-o", "x", "--", "dotnet", Repository.WorkloadDll, "yield", "10");
        Expect.OneLineError(noCpu, 2, "add cpu to --passes");

        var noOutput = await ChildProcess.RunToolAsync("collect", "--passes", "cpu", "--format", "speedscope", "--", "dotnet", Repository.WorkloadDll, "yield", "10");
        Expect.OneLineError(noOutput, 2, "-o <base>");
    }
}
