using System.Diagnostics;
using System.Globalization;
using AsyncCost.Report;
using AsyncCost.Sessions;
using Microsoft.Diagnostics.NETCore.Client;
using Microsoft.Diagnostics.Tracing;
using Microsoft.Diagnostics.Tracing.Parsers.Clr;

namespace AsyncCost.Benchmarks.Tracing;

/// <summary>
/// `rundown-cost [--seconds S] [--rounds N] -- command [args]`: what naming methods in the trace costs. Starts the command,
/// lets it warm up, then records the allocation pass's providers with method naming (JIT events at Verbose, rundown of
/// Loader | Jit | End) and without it (module rundown only), interleaved round by round, on the same live process.
/// Prints a markdown table: trace bytes and the time from asking the session to stop to the end of its stream
/// (the rundown is written then), medians over the rounds, and the load average the rounds ran at.
/// </summary>
public static class RundownCostCommand
{
    public const string Name = "rundown-cost";

    public static int Run(string[] args)
    {
        var separator = Array.IndexOf(args, "--");
        if (separator < 0 || separator == args.Length - 1)
        {
            Console.Error.WriteLine($"usage: {Name} [--seconds S] [--rounds N] -- command [args]");
            return 2;
        }
        var options = args[..separator];
        var seconds = Option(options, "--seconds", 5);
        var rounds = Option(options, "--rounds", 3);
        using var target = Process.Start(new ProcessStartInfo(args[separator + 1], args[(separator + 2)..]) { RedirectStandardOutput = true, RedirectStandardError = true })!;
        target.OutputDataReceived += (_, _) => { };
        target.ErrorDataReceived += (_, _) => { };
        target.BeginOutputReadLine();
        target.BeginErrorReadLine();
        try
        {
            Thread.Sleep(TimeSpan.FromSeconds(5)); // start-up: the JIT's first burst is over before the first round
            var client = new DiagnosticsClient(target.Id);
            var samples = new Dictionary<bool, List<(long Bytes, double StopMs, int Methods)>> { [true] = [], [false] = [] };
            var load = new List<double>();
            for (var round = 0; round < rounds; round++)
            {
                foreach (var nameMethods in new[] { true, false })
                {
                    load.Add(LoadAverage());
                    samples[nameMethods].Add(RecordOnce(client, nameMethods, TimeSpan.FromSeconds(seconds)));
                }
            }
            var label = args[(separator + 1)..].FirstOrDefault(a => a.EndsWith(".dll", StringComparison.Ordinal)) is { } dll ? Path.GetFileName(dll) : args[separator + 1];
            Console.WriteLine($"| Target | Trace | Methods named | Median bytes | Median stop (ms) | Stop range (ms) |");
            Console.WriteLine("|---|---|--:|--:|--:|--:|");
            foreach (var (nameMethods, runs) in samples)
            {
                Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                    $"| {label} | {(nameMethods ? "methods named (Loader\\|Jit\\|End rundown, JIT Verbose)" : "modules only (Loader\\|End rundown)")} | {Median(runs.Select(r => (double)r.Methods)):N0} | {Median(runs.Select(r => (double)r.Bytes)):N0} | {Median(runs.Select(r => r.StopMs)):N0} | {runs.Min(r => r.StopMs):N0}–{runs.Max(r => r.StopMs):N0} |"));
            }
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"{rounds} interleaved rounds of {seconds} s; load average {load.Min():0.0}–{load.Max():0.0}; {Environment.ProcessorCount} cores; .NET {Environment.Version}."));
            return 0;
        }
        finally
        {
            target.Kill(entireProcessTree: true);
        }
    }

    private static (long Bytes, double StopMs, int Methods) RecordOnce(DiagnosticsClient client, bool nameMethods, TimeSpan duration)
    {
        var providers = Providers.For(MeasurementPasses.Allocations, useAllocationTick: false, counterIntervalSeconds: 1, nameMethods);
        var rundown = nameMethods ? Providers.RundownKeywords : Providers.ModuleRundownKeywords;
        using var session = client.StartEventPipeSession(new EventPipeSessionConfiguration(providers, PassProviders.BufferSizeMb, rundown, requestStackwalk: false));
        var file = Path.GetTempFileName();
        try
        {
            var drain = Task.Run(() =>
            {
                using var output = File.Create(file);
                session.EventStream.CopyTo(output);
            });
            Thread.Sleep(duration);
            var clock = Stopwatch.StartNew();
            session.Stop();
            drain.Wait();
            var stopMs = clock.Elapsed.TotalMilliseconds;
            return (new FileInfo(file).Length, stopMs, CountMethodEvents(file));
        }
        finally
        {
            File.Delete(file);
        }
    }

    /// <summary>Distinct methods the trace names (MethodLoadVerbose and MethodDCStopVerbose).</summary>
    private static int CountMethodEvents(string file)
    {
        var methods = new HashSet<(string, string, string)>();
        using var source = new EventPipeEventSource(file);
        void OnEvent(TraceEvent e)
        {
            if (e.PayloadIndex("MethodNamespace") >= 0)
            {
                methods.Add(((string)e.PayloadByName("MethodNamespace"), (string)e.PayloadByName("MethodName"), e.PayloadByName("MethodSignature") as string ?? ""));
            }
        }
        source.Clr.All += OnEvent;
        new ClrRundownTraceEventParser(source).All += OnEvent;
        source.Process();
        return methods.Count;
    }

    private static int Option(string[] options, string name, int fallback)
    {
        var index = Array.IndexOf(options, name);
        return index >= 0 && index + 1 < options.Length ? int.Parse(options[index + 1], CultureInfo.InvariantCulture) : fallback;
    }

    private static double LoadAverage()
        => double.Parse(File.ReadAllText("/proc/loadavg").Split(' ')[0], CultureInfo.InvariantCulture);

    private static double Median(IEnumerable<double> values)
    {
        var sorted = values.Order().ToArray();
        return sorted.Length % 2 == 1 ? sorted[sorted.Length / 2] : (sorted[(sorted.Length / 2) - 1] + sorted[sorted.Length / 2]) / 2;
    }
}
