using System.Text.Json.Nodes;

namespace AsyncCost.Samples.Tests;

/// <summary>A report row never claims a count it could not see: StockPrices' GetPositionValueAsync completes synchronously and
/// allocates a closure per call, calls no EventPipe pass can count.</summary>
[Collection(BuiltSamplesDefinition.Name)]
public sealed class SampleRowTests(BuiltSamples samples) : IDisposable
{
    private static readonly TimeSpan RunTimeout = TimeSpan.FromMinutes(3);
    private readonly DirectoryInfo _directory = Directory.CreateTempSubdirectory("asynccost-sample-rows-");

    [Fact]
    public async Task Calls_no_pass_could_count_are_not_observable_and_calls_times_bytes_per_call_are_the_bytes()
    {
        Assert.True(samples.Build.ExitCode == 0, $"samples build failed: {samples.Build}");
        var output = Path.Combine(_directory.FullName, "stock");
        var run = await DotnetCommand.RunAsync(
            [Repository.ToolDll, "collect", "-o", output, "--", "dotnet", Repository.SampleAssembly("StockPrices"), "--operations", "2000000"], RunTimeout);
        Assert.True(run.ExitCode == 0, run.ToString());

        var methods = JsonNode.Parse(await File.ReadAllTextAsync(output + ".json"))!["methods"]!.AsArray();
        var position = methods.Single(m => (string)m!["methodKey"]! == "StockPrices.Library.StockPriceService.GetPositionValueAsync")!;
        Assert.True((double)position["bytes"]!["value"]! > 0, position.ToJsonString());
        Assert.Null(position["calls"]);
        Assert.Null(position["bytesPerCall"]);
        foreach (var method in methods.Where(m => m!["bytes"] is not null))
        {
            // No row prints 0 calls beside bytes; where calls and bytes per call are both given, their product is the bytes.
            Assert.True(method!["calls"] is null || (double)method["calls"]!["value"]! > 0, method.ToJsonString());
            if (method["calls"] is { } calls && method["bytesPerCall"] is { } perCall)
            {
                var product = (double)calls["value"]! * (double)perCall["value"]!;
                var bound = (double)method["bytes"]!["errorBound"]! + ((double)calls["value"]! * (double)perCall["errorBound"]!) + ((double)perCall["value"]! * (double)calls["errorBound"]!);
                Assert.True(Math.Abs(product - (double)method["bytes"]!["value"]!) <= bound, method.ToJsonString());
            }
        }

        var table = await File.ReadAllTextAsync(output + ".txt");
        Assert.Matches(@"StockPrices.*GetPositionV.*\s+not observable\s+-\s", table);
    }

    public void Dispose() => _directory.Delete(recursive: true);
}
