using System.CommandLine;
using System.CommandLine.Parsing;
using System.Globalization;
using AsyncCost.Cli.Rendering;
using AsyncCost.Report;
using AsyncCost.Sessions;

namespace AsyncCost.Cli.Commands;

/// <summary>Options several commands share, and how their values are parsed.</summary>
internal static class CommonOptions
{
    public static Option<int?> ProcessId() => new("--process-id", "-p")
    {
        Description = "The process id to attach to (see 'ps').",
        HelpName = "pid",
        CustomParser = ParseProcessId,
    };

    public static Option<string?> ProcessName() => new("--name", "-n")
    {
        Description = "The name of the process to attach to: its process name or its app's assembly name (dotnet MyApp.dll is 'MyApp').",
        HelpName = "name",
    };

    public static Option<ReportFormat> Format() => new("--format")
    {
        Description = "How to print the report: table (default; aligned, colour on a terminal), markdown, json (schema: 'dotnet-asynccost schema'), csv (one row per method), html (one self-contained page: sortable bars with their bounds; best with -o) "
            + "or speedscope (the cpu pass's stacks as a flame graph for speedscope, async methods named as in the report).",
        HelpName = "table|markdown|json|csv|html|speedscope",
        CustomParser = ParseFormat,
    };

    public static Option<string[]> Sarif(string? description = null) => new("--sarif")
    {
        Description = description ?? "Rank the AsyncCost analyzer findings of this SARIF log (dotnet build -p:ErrorLog=build.sarif%2Cversion=2.1) "
            + "by what their methods cost in this measurement; findings no pass could measure are listed last, as not observable or (their method never ran) not exercised. "
            + "Repeat it for several logs (one per project), or name a folder for every *.sarif in it.",
        HelpName = "build.sarif|folder",
    };

    public static Option<bool> AllMethods() => new("--all-methods")
    {
        Description = "List the framework's and libraries' async methods (System.*, Microsoft.*, Kestrel, HttpClient) one row each. "
            + "Default: the application's own methods first, then one row per framework or library assembly with its totals (json always has every row).",
    };

    public static Option<bool> Wide() => new("--wide")
    {
        Description = "Print every column, each row on one line, however wide. Default: fit the terminal's width (COLUMNS; 80 when "
            + "redirected), leaving details out (named under each table; json and csv have them all), names shortened in the middle.",
    };

    /// <summary>--operations N: a positive whole number of operations.</summary>
    public static Option<long?> Operations(string what)
    {
        var operations = new Option<long?>("--operations") { Description = what, HelpName = "count" };
        operations.Validators.Add(result =>
        {
            if (result.GetValueOrDefault<long?>() is <= 0)
            {
                result.AddError("--operations: the operation count must be a positive whole number.");
            }
        });
        return operations;
    }

    public static Option<string?> Output(string what) => new("--output", "-o") { Description = what, HelpName = "file" };

    public static Option<TimeSpan?> Duration(string what) => new("--duration")
    {
        Description = what,
        HelpName = "time",
        CustomParser = ParseDuration,
    };

    /// <param name="what">The option's description.</param>
    /// <param name="allowCpu">False where the CPU pass cannot run (monitor: its stacks are named only from a whole trace).</param>
    public static Option<MeasurementPasses> Passes(string what, bool allowCpu = true) => new("--passes")
    {
        Description = what,
        HelpName = allowCpu ? "allocations,hops[,cpu]" : "allocations,hops",
        CustomParser = result => ParsePasses(result, allowCpu),
    };

    internal static ReportFormat ParseFormat(ArgumentResult result)
    {
        var text = result.Tokens.Count == 0 ? "" : result.Tokens[0].Value;
        if (Enum.TryParse<ReportFormat>(text, ignoreCase: true, out var format) && !int.TryParse(text, out _))
        {
            return format;
        }

        result.AddError($"--format: unknown format '{text}'; use table, markdown, json, csv, html or speedscope.");
        return ReportFormat.Table;
    }

    internal static int? ParseProcessId(ArgumentResult result)
    {
        var text = result.Tokens.Count == 0 ? "" : result.Tokens[0].Value;
        if (int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var pid) && pid > 0)
        {
            return pid;
        }

        result.AddError($"-p/--process-id: '{text}' is not a process id (a positive whole number; 'dotnet-asynccost ps' lists them, -n takes a name).");
        return null;
    }

    internal static TimeSpan? ParseDuration(ArgumentResult result)
    {
        var text = result.Tokens.Count == 0 ? "" : result.Tokens[0].Value;
        if (TimeText.TryParse(text, out var duration) && duration > TimeSpan.Zero)
        {
            return duration;
        }

        result.AddError($"--duration: '{text}' is not a positive time; use seconds or a unit ({TimeText.Examples}).");
        return null;
    }

    internal static MeasurementPasses ParsePasses(ArgumentResult result, bool allowCpu = true)
    {
        var known = allowCpu ? "allocations, hops, cpu" : "allocations, hops";
        var passes = MeasurementPasses.None;
        foreach (var name in result.Tokens.SelectMany(t => t.Value.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)))
        {
            switch (name.ToLowerInvariant())
            {
                case "allocations":
                    passes |= MeasurementPasses.Allocations;
                    break;
                case "hops":
                    passes |= MeasurementPasses.Hops;
                    break;
                case "cpu" when allowCpu:
                    passes |= MeasurementPasses.Cpu;
                    break;
                case "cpu":
                    result.AddError("--passes: the cpu pass needs a whole trace to name its stacks' methods: use 'collect --passes cpu'.");
                    return MeasurementPasses.None;
                default:
                    result.AddError($"--passes: unknown pass '{name}'; use {known}, comma-separated (e.g. allocations,hops).");
                    return MeasurementPasses.None;
            }
        }

        if (passes == MeasurementPasses.None)
        {
            result.AddError($"--passes: name at least one pass: {known}, comma-separated.");
        }

        return passes;
    }

    /// <summary>The single process -p or -n names; the caller has checked that exactly one was given.</summary>
    /// <exception cref="CliException">No process, or several, match the name.</exception>
    public static int ResolveProcess(int? processId, string? processName)
    {
        if (processId is { } pid)
        {
            return pid;
        }

        var matches = DotNetProcesses.List().Where(p => NameMatches(p, processName!)).ToList();
        return matches switch
        {
            [] => throw new CliException(ExitCode.ProcessNotFound, $"No .NET process named '{processName}' (see 'dotnet-asynccost ps')."),
            [var single] => single.ProcessId,
            _ => throw new CliException(ExitCode.AmbiguousProcessName,
                $"{matches.Count} .NET processes are named '{processName}' ({string.Join(", ", matches.Select(m => m.ProcessId))}): pick one with -p."),
        };
    }

    private static bool NameMatches(DotNetProcessInfo process, string name)
    {
        if (string.Equals(process.Name, name, StringComparison.Ordinal))
        {
            return true;
        }

        // A framework-dependent app runs as "dotnet MyApp.dll": match the app's assembly name too.
        var appPath = process.CommandLine?.Split(' ', StringSplitOptions.RemoveEmptyEntries).FirstOrDefault(a => a.EndsWith(".dll", StringComparison.OrdinalIgnoreCase));
        return appPath is not null && string.Equals(Path.GetFileNameWithoutExtension(appPath), name, StringComparison.Ordinal);
    }
}
