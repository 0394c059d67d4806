namespace AsyncCost.Samples.Tests;

/// <summary>Builds samples/Samples.sln once, with a SARIF log per project, for every test that needs the samples.</summary>
public sealed class BuiltSamples : IAsyncLifetime
{
    private readonly string _sarifDirectory = Directory.CreateTempSubdirectory("asynccost-samples-sarif-").FullName;

    public CommandResult Build { get; private set; } = new(-1, string.Empty, "not built yet");

    /// <summary>The SARIF log the build wrote for a sample project, e.g. "StockPrices.Library".</summary>
    public string SarifLog(string project) => Path.Combine(_sarifDirectory, project + ".sarif");

    public async Task InitializeAsync() =>
        Build = await DotnetCommand.RunAsync(
            [
                "build", Repository.SampleSolution, "-c", Repository.Configuration, "-nodeReuse:false", "-v:q", "-nologo",
                "-p:SamplesSarifDirectory=" + _sarifDirectory,
            ],
            TimeSpan.FromMinutes(8));

    public Task DisposeAsync()
    {
        Directory.Delete(_sarifDirectory, recursive: true);
        return Task.CompletedTask;
    }
}

[CollectionDefinition(Name)]
public sealed class BuiltSamplesDefinition : ICollectionFixture<BuiltSamples>
{
    public const string Name = "built samples";
}
