namespace AsyncCost.OpenTelemetry.Tests;

/// <summary>Known-truth async work: every call of <see cref="YieldOnceAsync"/> suspends once (one state-machine box) and
/// resumes on the thread pool (one hop).</summary>
internal static class Workload
{
    public const string YieldOnceKey = "AsyncCost.OpenTelemetry.Tests.Workload.YieldOnceAsync";

    public static async Task YieldOnceAsync() => await Task.Yield();

    /// <summary>Awaits <paramref name="calls"/> calls one after another; returns the bytes the whole process allocated meanwhile.</summary>
    public static async Task<long> RunAsync(int calls)
    {
        var before = GC.GetTotalAllocatedBytes(precise: true);
        for (var i = 0; i < calls; i++)
        {
            await YieldOnceAsync();
        }
        return GC.GetTotalAllocatedBytes(precise: true) - before;
    }

    /// <summary>Returns once some listener has switched the TPL's events on (the first hop window opens on a timer thread,
    /// which a busy machine runs late), or after 30 s.</summary>
    public static async Task UntilTplEventsOnAsync()
    {
        var tpl = System.Diagnostics.Tracing.EventSource.GetSources().Single(s => s.Name == "System.Threading.Tasks.TplEventSource");
        for (var waited = TimeSpan.Zero; !tpl.IsEnabled() && waited < TimeSpan.FromSeconds(30); waited += TimeSpan.FromMilliseconds(10))
        {
            await Task.Delay(10);
        }
    }

    /// <summary>Lets late runtime events arrive and the hop windows close.</summary>
    public static Task SettleAsync(TimeSpan time) => Task.Delay(time);
}

/// <summary>Listeners in one process see each other's TPL windows: tests that listen run one at a time.</summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class InProcessListening
{
    public const string Name = "in-process listening";
}
