using System.Diagnostics;
using System.Globalization;
using System.Text.Json;

namespace AsyncCost.Benchmarks.ContextSwitches;

/// <summary>
/// Seed 000's own method, so both of its published columns can be compared with figures taken the same way here:
/// per scenario a GC, one warm-up run, then one Stopwatch-timed run of 500,000 units; total milliseconds and the
/// per-unit figure computed twice — as the original computes it (Stopwatch ticks read as 100 ns TimeSpan ticks) and
/// from the elapsed time.
/// </summary>
public static class ContextSwitchConsole
{
    public const int PublishedUnits = 500_000;

    public static int Run(string[] args)
    {
        var units = PublishedUnits;
        string? output = null;
        for (var i = 0; i < args.Length; i++)
        {
            switch (args[i])
            {
                case "--units" when i + 1 < args.Length && int.TryParse(args[i + 1], out var parsed) && parsed > 0:
                    units = parsed;
                    i++;
                    break;
                case "--output" when i + 1 < args.Length:
                    output = args[++i];
                    break;
                default:
                    Console.Error.WriteLine($"context-switch-console: unknown or incomplete option '{args[i]}'.");
                    Console.Error.WriteLine("usage: context-switch-console [--units <positive count, default 500000>] [--output <file.json>]");
                    return 2;
            }
        }

        var rows = new List<ConsoleRow>();
        foreach (var iterations in (int[])[0, 500])
        {
            Console.WriteLine($"Executing {units} work cycles of {iterations} iterations each, in different ways...");
            Console.WriteLine($"{"Scenario",-20}{"Total time (ms)",-20}{"µs/unit (original)",-22}{"µs/unit (elapsed)",-20}");
            rows.Add(Time("No-switch", iterations, units, () => ContextSwitchScenarios.NoSwitch(units, iterations)));
            rows.Add(Time("Async w/o yield", iterations, units, () => ContextSwitchScenarios.AsyncWithoutYield(units, iterations)));
            rows.Add(Time("Async w/ yield", iterations, units, () => ContextSwitchScenarios.AsyncWithYield(units, iterations)));
            rows.Add(Time("Thread switches", iterations, units,
                () => ContextSwitchScenarios.ThreadSwitches(units, iterations, Environment.ProcessorCount)));
            Console.WriteLine();
        }

        Console.WriteLine($"Stopwatch.Frequency = {Stopwatch.Frequency:N0} ticks/s: the original formula is right only at 10,000,000.");
        if (output is not null)
        {
            var run = new ConsoleRun(DateTimeOffset.UtcNow, Stopwatch.Frequency, units, Environment.ProcessorCount, rows);
            Directory.CreateDirectory(Path.GetDirectoryName(Path.GetFullPath(output))!);
            File.WriteAllText(output, JsonSerializer.Serialize(run, ConsoleRun.JsonOptions));
            Console.WriteLine($"Wrote {output}");
        }
        return 0;
    }

    private static ConsoleRow Time(string scenario, int iterations, int units, Func<long> operation)
    {
        GC.Collect();
        operation(); // warm-up, as the original
        var timer = Stopwatch.StartNew();
        var result = operation();
        timer.Stop();
        var row = new ConsoleRow(
            scenario,
            iterations,
            timer.ElapsedMilliseconds,
            OriginalMicrosecondsPerUnit(timer.ElapsedTicks, units),
            timer.Elapsed.TotalMicroseconds / units,
            result);
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"{scenario,-20}{row.TotalMilliseconds,-20}{row.MicrosecondsPerUnitAsOriginal,-22:0.####}{row.MicrosecondsPerUnit,-20:0.####}"));
        return row;
    }

    /// <summary>The original's MicroSecondsPerItem: Stopwatch ticks per unit, times 1000, read as TimeSpan ticks
    /// (100 ns), in milliseconds. Equals µs per unit only when Stopwatch.Frequency is 10 MHz.</summary>
    public static double OriginalMicrosecondsPerUnit(long stopwatchTicks, int units)
    {
        var ticksPerItem = (double)stopwatchTicks / units;
        return TimeSpan.FromTicks((long)(ticksPerItem * 1000)).TotalMilliseconds;
    }
}

/// <summary>One console-mode run, as written by <c>context-switch-console --output</c> and read by <c>report</c>.</summary>
public sealed record ConsoleRun(
    DateTimeOffset TakenAt, long StopwatchFrequency, int Units, int ProcessorCount, IReadOnlyList<ConsoleRow> Rows)
{
    public static readonly JsonSerializerOptions JsonOptions = new() { WriteIndented = true };
}

/// <summary>One scenario of a console-mode run.</summary>
public sealed record ConsoleRow(
    string Scenario,
    int WorkIterations,
    long TotalMilliseconds,
    double MicrosecondsPerUnitAsOriginal,
    double MicrosecondsPerUnit,
    long Checksum);
