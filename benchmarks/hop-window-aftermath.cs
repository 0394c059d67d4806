// Does an in-process hop window leave a cost behind once it has closed? CPU per await of long-lived async loops (as a
// server's connection loops are) before, during and after one window with TplEventSource (keywords 0x2 | 0x8) and
// FrameworkEventSource (0x2 | 0x10) on at Verbose, the in-process instrumentation's keywords (KnownEvents). The figures
// benchmarks/results/WebShopOverhead.md quotes for "a console program does not show it".
// Run: dotnet run -c Release benchmarks/hop-window-aftermath.cs [window|none]   (none: the same without the window)
// A file-based app is AOT-ready by default, which turns EventSource off: this one is not.
#:property PublishAot=false
using System.Diagnostics;
using System.Diagnostics.Tracing;

static async Task<int> Leaf(int i) { await Task.Yield(); return i; }

long counter = 0;
// Long-lived loops, alive before, during and after the window (as a server's connection loops are).
var ch = System.Threading.Channels.Channel.CreateUnbounded<int>();
for (int k = 0; k < 4; k++) _ = Task.Run(async () => { while (true) { await ch.Reader.ReadAsync(); await Leaf(1); Interlocked.Increment(ref counter); } });
_ = Task.Run(async () => { while (true) { for (int i = 0; i < 64; i++) ch.Writer.TryWrite(i); await Task.Yield(); while (ch.Reader.Count > 16) await Task.Yield(); } });
(double opsPerSec, double cpuUsPerOp) Measure(double seconds)
{
    var p = Process.GetCurrentProcess();
    var cpu0 = p.TotalProcessorTime; var sw = Stopwatch.StartNew(); long c0 = Interlocked.Read(ref counter);
    Thread.Sleep(TimeSpan.FromSeconds(seconds));
    long ops = Interlocked.Read(ref counter) - c0;
    p.Refresh(); var cpu = (p.TotalProcessorTime - cpu0).TotalMicroseconds;
    return (ops / sw.Elapsed.TotalSeconds, cpu / ops);
}

var mode = args.Length > 0 ? args[0] : "window";
Measure(2); // warm
void Report(string label) { var (o, c) = Measure(3); Console.WriteLine($"{label,-22} {o,12:N0} ops/s {c,8:N3} us CPU/op"); }
for (int r = 0; r < 3; r++) Report("before");
using var listener = new HopListener();
if (mode != "none")
{
    listener.On();
    Report("during window");
    listener.Off();
}
for (int r = 0; r < 6; r++) Report("after");

sealed class HopListener : EventListener
{
    private readonly List<EventSource> _sources = new();
    public long Events;
    protected override void OnEventSourceCreated(EventSource source)
    {
        if (source.Name is "System.Threading.Tasks.TplEventSource" or "System.Diagnostics.Eventing.FrameworkEventSource") lock (_sources) _sources.Add(source);
    }
    public void On() { lock (_sources) foreach (var s in _sources) EnableEvents(s, EventLevel.Verbose, (EventKeywords)(s.Name.StartsWith("System.Threading", StringComparison.Ordinal) ? 0xA : 0x12)); }
    public void Off() { lock (_sources) foreach (var s in _sources) DisableEvents(s); }
    protected override void OnEventWritten(EventWrittenEventArgs e) => Interlocked.Increment(ref Events);
}
