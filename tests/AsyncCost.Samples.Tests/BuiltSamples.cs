namespace AsyncCost.Samples.Tests;

/// <summary>Builds samples/Samples.sln once for every test that runs a sample.</summary>
public sealed class BuiltSamples : IAsyncLifetime
{
    public CommandResult Build { get; private set; } = new(-1, string.Empty, "not built yet");

    public async Task InitializeAsync() =>
        Build = await DotnetCommand.RunAsync(
            ["build", Repository.SampleSolution, "-c", Repository.Configuration, "-nodeReuse:false", "-v:q", "-nologo"],
            TimeSpan.FromMinutes(8));

    public Task DisposeAsync() => Task.CompletedTask;
}

[CollectionDefinition(Name)]
public sealed class BuiltSamplesDefinition : ICollectionFixture<BuiltSamples>
{
    public const string Name = "built samples";
}
