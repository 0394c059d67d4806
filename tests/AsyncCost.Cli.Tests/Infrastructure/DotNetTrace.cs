using System.Diagnostics;

namespace AsyncCost.Cli.Tests.Infrastructure;

/// <summary>The repository's pinned dotnet-trace (.config/dotnet-tools.json), the peer tool users record with.</summary>
internal static class DotNetTrace
{
    /// <summary>Restores the local tool (fast when it is already there) and fails the test with the reason when it cannot.</summary>
    public static async Task EnsureRestoredAsync()
    {
        var restore = await RunAsync("dotnet", ["tool", "restore"]);
        Assert.True(restore.ExitCode == 0, "dotnet tool restore (the repository's tool manifest has dotnet-trace): " + restore);
    }

    /// <summary>Runs `dotnet dotnet-trace args` from the repository root to completion.</summary>
    public static Task<ProcessResult> RunAsync(IReadOnlyList<string> args) => RunAsync("dotnet", ["dotnet-trace", .. args]);

    private static async Task<ProcessResult> RunAsync(string fileName, IReadOnlyList<string> args)
    {
        var info = new ProcessStartInfo(fileName) { WorkingDirectory = Repository.Root, RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (var arg in args)
        {
            info.ArgumentList.Add(arg);
        }
        using var process = Process.Start(info)!;
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        await process.WaitForExitAsync().WaitAsync(ChildProcess.HangGuard);
        return new ProcessResult(process.ExitCode, await stdout, await stderr);
    }
}
