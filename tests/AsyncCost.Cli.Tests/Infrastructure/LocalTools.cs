using System.Diagnostics;

namespace AsyncCost.Cli.Tests.Infrastructure;

/// <summary>
/// The repository's pinned local tools (.config/dotnet-tools.json): dotnet-trace and dotnet-counters, the peer tools users
/// record with.
/// </summary>
internal static class LocalTools
{
    /// <summary>Restores the local tools (fast when they are already there) and fails the test with the reason when it cannot.</summary>
    public static async Task EnsureRestoredAsync()
    {
        var restore = await RunProcessAsync("dotnet", ["tool", "restore"]);
        Assert.True(restore.ExitCode == 0, "dotnet tool restore (the repository's tool manifest has dotnet-trace and dotnet-counters): " + restore);
    }

    /// <summary>Runs `dotnet tool args` (tool: "dotnet-trace" or "dotnet-counters") from the repository root to completion.</summary>
    public static Task<ProcessResult> RunAsync(string tool, IReadOnlyList<string> args) => RunProcessAsync("dotnet", [tool, .. args]);

    private static async Task<ProcessResult> RunProcessAsync(string fileName, IReadOnlyList<string> args)
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
