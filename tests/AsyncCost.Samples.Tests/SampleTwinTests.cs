namespace AsyncCost.Samples.Tests;

[Collection(BuiltSamplesDefinition.Name)]
public sealed class SampleTwinTests(BuiltSamples samples)
{
    private static readonly TimeSpan RunTimeout = TimeSpan.FromMinutes(2);

    [Theory]
    [InlineData("StockPrices", 50_000, "20ms")]
    [InlineData("ChattyPipeline", 25, "1ms")]
    [InlineData("ChattyPipeline", 2_000, "0")]
    public async Task Sample_and_its_Fixed_twin_do_the_same_work(string sample, long operations, string roundTrip)
    {
        Assert.True(samples.Build.ExitCode == 0, $"samples build failed: {samples.Build}");
        string[] options = ["--operations", operations.ToString(System.Globalization.CultureInfo.InvariantCulture), "--round-trip", roundTrip];

        CommandResult costly = await RunSampleAsync(sample, options);
        CommandResult fixedTwin = await RunSampleAsync(sample + ".Fixed", options);

        Assert.True(costly.ExitCode == 0, costly.ToString());
        Assert.True(fixedTwin.ExitCode == 0, fixedTwin.ToString());
        Assert.Matches($@"^{sample}: {operations} \w+ in [0-9.]+ s, throughput [0-9]+ ops/s, allocated [0-9]+ B/op$", Line(costly, 0));
        Assert.Matches($@"^{sample}: {operations} \w+ in [0-9.]+ s, throughput [0-9]+ ops/s, allocated [0-9]+ B/op$", Line(fixedTwin, 0));
        Assert.StartsWith("result: ", Line(costly, 1), StringComparison.Ordinal);
        Assert.Equal(Line(costly, 1), Line(fixedTwin, 1));
    }

    [Theory]
    [InlineData("StockPrices")]
    [InlineData("ChattyPipeline.Fixed")]
    public async Task A_duration_bounds_the_run(string sample)
    {
        Assert.True(samples.Build.ExitCode == 0, $"samples build failed: {samples.Build}");

        CommandResult run = await RunSampleAsync(sample, "--duration", "300ms");

        Assert.True(run.ExitCode == 0, run.ToString());
        Assert.Matches(@" [1-9][0-9]* \w+ in [0-9.]+ s, throughput [0-9]+ ops/s, allocated [0-9]+ B/op$", Line(run, 0));
    }

    [Theory]
    [InlineData("--operations", "0", "'--operations' takes a whole number of at least 1, not '0'")]
    [InlineData("--duration", "soon", "'--duration' takes a positive time such as 500ms, 5s, 2m or 00:00:05, not 'soon'")]
    [InlineData("--round-trip", "-1ms", "'--round-trip' takes a time such as 0, 1ms or 00:00:00.001, not '-1ms'")]
    [InlineData("--threads", "2", "unknown option '--threads'")]
    public async Task Bad_options_are_refused_with_exit_code_2(string option, string value, string message)
    {
        Assert.True(samples.Build.ExitCode == 0, $"samples build failed: {samples.Build}");

        CommandResult run = await RunSampleAsync("ChattyPipeline", option, value);

        Assert.Equal(2, run.ExitCode);
        Assert.Equal($"ChattyPipeline: {message}", run.StandardError.Split('\n')[0]);
        Assert.Empty(run.StandardOutput);
    }

    private static Task<CommandResult> RunSampleAsync(string sample, params string[] arguments) =>
        DotnetCommand.RunAsync([Repository.SampleAssembly(sample), .. arguments], RunTimeout);

    private static string Line(CommandResult result, int index)
    {
        string[] lines = result.StandardOutput.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        Assert.True(lines.Length > index, result.ToString());
        return lines[index];
    }
}
