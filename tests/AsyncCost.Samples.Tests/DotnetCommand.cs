using System.Diagnostics;

namespace AsyncCost.Samples.Tests;

/// <summary>What a finished child process said.</summary>
public sealed record CommandResult(int ExitCode, string StandardOutput, string StandardError)
{
    public override string ToString() => $"exit code {ExitCode}\nstdout:\n{StandardOutput}\nstderr:\n{StandardError}";
}

/// <summary>Runs the dotnet host (the one running the tests) as a child process and collects its output.</summary>
internal static class DotnetCommand
{
    public static async Task<CommandResult> RunAsync(IEnumerable<string> arguments, TimeSpan timeout)
    {
        var start = new ProcessStartInfo(Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") ?? "dotnet")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            WorkingDirectory = Repository.Root,
        };
        foreach (string argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        // A build started from inside `dotnet test` must not inherit the outer MSBuild's settings.
        foreach (string name in start.Environment.Keys.Where(key => key.StartsWith("MSBUILD", StringComparison.OrdinalIgnoreCase)).ToList())
        {
            start.Environment.Remove(name);
        }

        using Process process = Process.Start(start) ?? throw new InvalidOperationException($"Could not start {start.FileName}.");
        Task<string> output = process.StandardOutput.ReadToEndAsync();
        Task<string> error = process.StandardError.ReadToEndAsync();
        using var deadline = new CancellationTokenSource(timeout);
        try
        {
            await process.WaitForExitAsync(deadline.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException($"'{start.FileName} {string.Join(' ', start.ArgumentList)}' did not finish within {timeout}.");
        }

        return new CommandResult(process.ExitCode, await output, await error);
    }
}
