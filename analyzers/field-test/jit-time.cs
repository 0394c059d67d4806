#:package Microsoft.Diagnostics.Tracing.TraceEvent
// How long the JIT spent on one assembly's methods in a trace of a compiler run: the time from each method's
// MethodJittingStarted to its MethodLoadVerbose on the same thread (a method preempted mid-JIT counts its wait too).
// Record the trace around a csc call (see ../README.md, step 6):
//   dotnet-trace collect --providers Microsoft-Windows-DotNETRuntime:0x10:5 -o jit.nettrace -- dotnet <csc.dll> @<rsp>
// then: dotnet run analyzers/field-test/jit-time.cs -- jit.nettrace [namespace prefix, default AsyncCost]
using Microsoft.Diagnostics.Tracing;

if (args.Length < 1 || !File.Exists(args[0]))
{
    Console.Error.WriteLine("usage: jit-time.cs TRACE.nettrace [namespace prefix]");
    return 2;
}
var prefix = args.Length > 1 ? args[1] : "AsyncCost";
var started = new Dictionary<(int Thread, long Method), (double At, string Name)>();
double all = 0, ours = 0;
int allCount = 0, ourCount = 0;
var byTier = new SortedDictionary<string, (double Milliseconds, int Count)>();
using (var source = new EventPipeEventSource(args[0]))
{
    source.Clr.MethodJittingStarted += e => started[(e.ThreadID, e.MethodID)] = (e.TimeStampRelativeMSec, e.MethodNamespace + "." + e.MethodName);
    source.Clr.MethodLoadVerbose += e =>
    {
        if (!started.Remove((e.ThreadID, e.MethodID), out var start))
        {
            return; // loaded without a JIT (ReadyToRun code) or started before the trace
        }
        var milliseconds = e.TimeStampRelativeMSec - start.At;
        all += milliseconds;
        allCount++;
        if (start.Name.StartsWith(prefix, StringComparison.Ordinal))
        {
            ours += milliseconds;
            ourCount++;
            var tier = e.OptimizationTier.ToString();
            var sofar = byTier.GetValueOrDefault(tier);
            byTier[tier] = (sofar.Milliseconds + milliseconds, sofar.Count + 1);
        }
    };
    source.Process();
}
Console.WriteLine($"all JIT {all:F1} ms for {allCount} methods; {prefix}*: {ours:F1} ms for {ourCount} methods");
foreach (var (tier, (milliseconds, count)) in byTier)
{
    Console.WriteLine($"  {tier}: {milliseconds:F1} ms, {count} methods");
}
return 0;
