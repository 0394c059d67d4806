// Is GC.GetAllocatedBytesForCurrentThread exact beside another allocating thread? AsyncCostMeasurement's exact pass
// charges a method the calling thread's count; a CI run once read 72 B over in 10,000 calls. This counts, in 20,000
// rounds of 10,000 allocations of a known size, by how many bytes the thread's count was off.
// Run: dotnet run -c Release benchmarks/thread-bytes-exact.cs [noise] [sampling]
//   noise: another thread allocates all the time; sampling: the runtime's allocation sampling on (as the allocation pass has it).
// A file-based app is AOT-ready by default, which turns EventSource off: this one is not.
#:property PublishAot=false
using System.Diagnostics.Tracing;
using System.Runtime.CompilerServices;

var stop = false;
var noise = new Thread(() => { long kept = 0; while (!Volatile.Read(ref stop)) kept += new string('x', 100).Length; GC.KeepAlive(kept); });
if (args.Contains("noise")) noise.Start();
using var sampling = args.Contains("sampling") ? new AllocationSampling() : null;
var roundsOff = new SortedDictionary<long, int>();
for (var round = 0; round < 20_000; round++)
{
    var before = GC.GetAllocatedBytesForCurrentThread();
    for (var i = 0; i < 10_000; i++) Keep(new Payload());
    var off = GC.GetAllocatedBytesForCurrentThread() - before - (10_000L * Payload.Size);
    roundsOff[off] = roundsOff.GetValueOrDefault(off) + 1;
}
Volatile.Write(ref stop, true);
foreach (var (off, rounds) in roundsOff) Console.WriteLine($"off by {off} B: {rounds} rounds");

[MethodImpl(MethodImplOptions.NoInlining)] static void Keep(object o) => GC.KeepAlive(o);

sealed class Payload
{
    public const long Size = 40; // header and method table 16 B, three longs 24 B
    public long A = 1, B = 2, C = 3;
}

sealed class AllocationSampling : EventListener
{
    protected override void OnEventSourceCreated(EventSource source)
    {
        if (source.Name == "Microsoft-Windows-DotNETRuntime") EnableEvents(source, EventLevel.Informational, (EventKeywords)0x80000000000);
    }
}
