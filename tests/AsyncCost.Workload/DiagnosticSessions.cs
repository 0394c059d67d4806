using System.Diagnostics.Tracing;

namespace AsyncCost.Workload;

/// <summary>
/// Counts, from inside the traced process, the diagnostics sessions that turn on its System.Runtime counters: each EventPipe
/// session that asks for them sends the runtime's RuntimeEventSource one command carrying EventCounterIntervalSec. Prints
/// "SESSION n at MS" as each arrives (MS: <see cref="Uptime"/> milliseconds), so a test can tell how many sessions a tool
/// opened, and when, without trusting the tool.
/// </summary>
internal static class DiagnosticSessions
{
    private static int s_opened;

    /// <summary>Time since the workload started: the clock of the SESSION lines and of each RESULT's endedAtMs.</summary>
    public static readonly System.Diagnostics.Stopwatch Uptime = System.Diagnostics.Stopwatch.StartNew();

    public static void Watch()
    {
        var runtime = EventSource.GetSources().Single(s => s.Name == "System.Runtime");
        runtime.EventCommandExecuted += (_, command) =>
        {
            if (command.Command != EventCommand.Disable && command.Arguments?.ContainsKey("EventCounterIntervalSec") == true)
            {
                Console.WriteLine($"SESSION {Interlocked.Increment(ref s_opened)} at {Uptime.ElapsedMilliseconds}");
            }
        };
    }
}
