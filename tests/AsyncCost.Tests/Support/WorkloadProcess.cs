using System.Diagnostics;
using System.Text.Json;
using AsyncCost.Sessions;

namespace AsyncCost.Tests.Support;

/// <summary>The ground-truth workload (tests/AsyncCost.Workload) as a child process, and the exact costs it prints.</summary>
internal static class WorkloadProcess
{
    private static readonly JsonSerializerOptions JsonOptions = new(JsonSerializerDefaults.Web);

    public static string DllPath { get; } = Path.Combine(AppContext.BaseDirectory, "AsyncCost.Workload.dll");

    /// <summary>The same workload compiled without optimization, as a Debug build is (tests/AsyncCost.Workload.Debug).</summary>
    public static string DebugBuildDllPath { get; } = Path.Combine(AppContext.BaseDirectory, "AsyncCost.Workload.Debug.dll");

    /// <summary>The command that runs a scenario; <paramref name="lines"/> collects its stdout.</summary>
    public static LaunchCommand Command(string scenario, int count, List<string> lines, params string[] flags)
        => Command(DllPath, scenario, count, lines, flags);

    /// <summary>The command that runs a scenario of the workload at <paramref name="dllPath"/>.</summary>
    public static LaunchCommand Command(string dllPath, string scenario, int count, List<string> lines, params string[] flags) => new()
    {
        FileName = "dotnet",
        Arguments = [dllPath, scenario, count.ToString(System.Globalization.CultureInfo.InvariantCulture), .. flags],
        StandardOutput = line => { lock (lines) { lines.Add(line); } },
        StandardError = line => { lock (lines) { lines.Add("stderr: " + line); } },
    };

    /// <summary>Starts the workload directly (for attach tests) with stdin and stdout redirected.</summary>
    public static Process Start(string scenario, int count, IReadOnlyDictionary<string, string>? environment = null, params string[] flags)
    {
        var start = new ProcessStartInfo("dotnet") { RedirectStandardInput = true, RedirectStandardOutput = true, UseShellExecute = false };
        start.ArgumentList.Add(DllPath);
        start.ArgumentList.Add(scenario);
        start.ArgumentList.Add(count.ToString(System.Globalization.CultureInfo.InvariantCulture));
        foreach (var flag in flags)
        {
            start.ArgumentList.Add(flag);
        }
        foreach (var (name, value) in environment ?? new Dictionary<string, string>())
        {
            start.Environment[name] = value;
        }
        return Process.Start(start)!;
    }

    /// <summary>The exact in-process figures of the run ("RESULT {json}" line).</summary>
    public static WorkloadResult Result(IEnumerable<string> lines)
    {
        var line = lines.Last(l => l.StartsWith("RESULT ", StringComparison.Ordinal));
        return JsonSerializer.Deserialize<WorkloadResult>(line["RESULT ".Length..], JsonOptions)!;
    }
}

/// <summary>What the workload measured about itself with AsyncCostScope.</summary>
internal sealed record WorkloadResult(string Scenario, int Count, long AllocatedBytes, double BytesPerOp, long CompletedWorkItems,
    double WorkItemsPerOp, long? VoluntaryContextSwitches, long? InvoluntaryContextSwitches, double BlockedSeconds = 0, double ElapsedSeconds = 0,
    double CallSeconds = 0, double LongestCallSeconds = 0);
