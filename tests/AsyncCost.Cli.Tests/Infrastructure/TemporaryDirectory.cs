namespace AsyncCost.Cli.Tests.Infrastructure;

/// <summary>A fresh directory under the temp folder, deleted with everything in it when disposed.</summary>
internal sealed class TemporaryDirectory : IDisposable
{
    public TemporaryDirectory(string prefix) => Path = Directory.CreateTempSubdirectory(prefix).FullName;

    public string Path { get; }

    /// <summary>A path inside the directory.</summary>
    public string File(string name) => System.IO.Path.Combine(Path, name);

    public void Dispose()
    {
        if (Directory.Exists(Path))
        {
            Directory.Delete(Path, recursive: true);
        }
    }
}
