using System.Formats.Tar;
using System.IO.Compression;
using NJsonSchema;

namespace AsyncCost.Cli.Tests.Infrastructure;

/// <summary>
/// speedscope's own format checker: the JSON schema its npm package ships (dist/release/file-format-schema.json), fetched
/// once with `npm pack` from the registry and kept in the temp folder. Nothing of speedscope is in this repository.
/// </summary>
internal static class SpeedscopeSchema
{
    private const string Package = "speedscope@1.25.0";
    private const string SchemaEntry = "package/dist/release/file-format-schema.json";

    private static readonly SemaphoreSlim Gate = new(1, 1);

    public static async Task<JsonSchema> LoadAsync()
    {
        var cached = Path.Combine(Path.GetTempPath(), "asynccost-" + Package.Replace('@', '-') + "-schema.json");
        await Gate.WaitAsync();
        try
        {
            if (!File.Exists(cached))
            {
                using var download = new TemporaryDirectory("asynccost-speedscope-");
                var packed = await ChildProcess.Start("npm", ["pack", Package, "--pack-destination", download.Path, "--silent"]).WaitForExitAsync();
                Assert.True(packed.ExitCode == 0, $"npm pack {Package} failed (npm fetches speedscope's schema; Debian: apt-get install npm): {packed}");
                var tarball = Directory.GetFiles(download.Path, "*.tgz").Single();
                await using var gzip = new GZipStream(File.OpenRead(tarball), CompressionMode.Decompress);
                using var tar = new TarReader(gzip);
                while (await tar.GetNextEntryAsync() is { } entry)
                {
                    if (entry.Name == SchemaEntry && entry.DataStream is { } data)
                    {
                        // Written whole, then moved: a concurrent reader never sees half a file.
                        var partial = cached + "." + Environment.ProcessId + ".part";
                        await using (var file = File.Create(partial))
                        {
                            await data.CopyToAsync(file);
                        }
                        File.Move(partial, cached, overwrite: true);
                        break;
                    }
                }
                Assert.True(File.Exists(cached), $"{Package} has no {SchemaEntry}.");
            }
            return await JsonSchema.FromJsonAsync(await File.ReadAllTextAsync(cached));
        }
        finally
        {
            Gate.Release();
        }
    }
}
