// Bytes a capturing async local function's display class takes, per shape: the figures AC0009's message quotes
// (benchmarks/results/ClosureBytes.md). Run: dotnet run -c Release benchmarks/closure-bytes.cs
using System;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;

// Bytes allocated on entry by a method whose async local function captures the given state, on the path that
// never calls it (the fast path): the display class alone.
sealed class P
{
    static object O = new();
    [MethodImpl(MethodImplOptions.NoInlining)] static Task R1(object a, bool slow) { return slow ? L() : Task.CompletedTask; async Task L() { await Task.Yield(); GC.KeepAlive(a); } }
    [MethodImpl(MethodImplOptions.NoInlining)] static Task R2(object a, object b, bool slow) { return slow ? L() : Task.CompletedTask; async Task L() { await Task.Yield(); GC.KeepAlive(a); GC.KeepAlive(b); } }
    [MethodImpl(MethodImplOptions.NoInlining)] static Task R3(object a, object b, object c, bool slow) { return slow ? L() : Task.CompletedTask; async Task L() { await Task.Yield(); GC.KeepAlive(a); GC.KeepAlive(b); GC.KeepAlive(c); } }
    [MethodImpl(MethodImplOptions.NoInlining)] static Task R4(object a, object b, object c, object d, bool slow) { return slow ? L() : Task.CompletedTask; async Task L() { await Task.Yield(); GC.KeepAlive(a); GC.KeepAlive(b); GC.KeepAlive(c); GC.KeepAlive(d); } }
    [MethodImpl(MethodImplOptions.NoInlining)] static Task I1(int a, bool slow) { return slow ? L() : Task.CompletedTask; async Task L() { await Task.Yield(); GC.KeepAlive(a); } }
    [MethodImpl(MethodImplOptions.NoInlining)] static Task I3(int a, int b, int c, bool slow) { return slow ? L() : Task.CompletedTask; async Task L() { await Task.Yield(); GC.KeepAlive(a + b + c); } }
    [MethodImpl(MethodImplOptions.NoInlining)] static Task RI(object a, int b, bool slow) { return slow ? L() : Task.CompletedTask; async Task L() { await Task.Yield(); GC.KeepAlive(a); GC.KeepAlive(b); } }
    [MethodImpl(MethodImplOptions.NoInlining)] static Task RL(object a, long b, bool slow) { return slow ? L() : Task.CompletedTask; async Task L() { await Task.Yield(); GC.KeepAlive(a); GC.KeepAlive(b); } }
    [MethodImpl(MethodImplOptions.NoInlining)] static Task B1(bool a, bool slow) { return slow ? L() : Task.CompletedTask; async Task L() { await Task.Yield(); GC.KeepAlive(a); } }
    [MethodImpl(MethodImplOptions.NoInlining)] static Task G1(Guid a, bool slow) { return slow ? L() : Task.CompletedTask; async Task L() { await Task.Yield(); GC.KeepAlive(a); } }
    [MethodImpl(MethodImplOptions.NoInlining)] static Task D1(decimal a, object b, bool slow) { return slow ? L() : Task.CompletedTask; async Task L() { await Task.Yield(); GC.KeepAlive(a); GC.KeepAlive(b); } }
    [MethodImpl(MethodImplOptions.NoInlining)] static Task PL(object a, bool slow) { var b = a.ToString(); return slow ? L() : Task.CompletedTask; async Task L() { await Task.Yield(); GC.KeepAlive(a); GC.KeepAlive(b); } }
    [MethodImpl(MethodImplOptions.NoInlining)] Task TL(object a, bool slow) { return slow ? L() : Task.CompletedTask; async Task L() { await Task.Yield(); GC.KeepAlive(a); GC.KeepAlive(this); } }
    [MethodImpl(MethodImplOptions.NoInlining)] static Task CT(object a, System.Threading.CancellationToken ct, bool slow) { return slow ? L() : Task.CompletedTask; async Task L() { await Task.Yield(); GC.KeepAlive(a); GC.KeepAlive(ct); } }
    [MethodImpl(MethodImplOptions.NoInlining)] static Task N0(object a, bool slow) { return slow ? L(a) : Task.CompletedTask; static async Task L(object a) { await Task.Yield(); GC.KeepAlive(a); } }

    static void Measure(string name, Func<Task> call)
    {
        for (var i = 0; i < 1000; i++) call();
        const int N = 100_000;
        var before = GC.GetAllocatedBytesForCurrentThread();
        for (var i = 0; i < N; i++) call();
        var after = GC.GetAllocatedBytesForCurrentThread();
        Console.WriteLine($"{name}\t{(after - before) / (double)N:F1} B");
    }

    static void Main()
    {
        var o = O;
        // The lambda passed to Measure is cached (static) or closes over o: subtract its own cost via N0 (no closure).
        Measure("no capture (static local function)", () => N0(o, false));
        Measure("1 reference", () => R1(o, false));
        Measure("2 references", () => R2(o, o, false));
        Measure("3 references", () => R3(o, o, o, false));
        Measure("4 references", () => R4(o, o, o, o, false));
        Measure("1 int", () => I1(1, false));
        Measure("3 ints", () => I3(1, 2, 3, false));
        Measure("reference + int", () => RI(o, 1, false));
        Measure("reference + long", () => RL(o, 1, false));
        Measure("1 bool", () => B1(true, false));
        Measure("1 Guid", () => G1(Guid.Empty, false));
        Measure("decimal + reference", () => D1(1m, o, false));
        Measure("parameter + top-level local", () => PL(o, false));
        var p = new P();
        Measure("this + 1 reference", () => p.TL(o, false));
        Measure("reference + CancellationToken", () => CT(o, default, false));
    }
}
