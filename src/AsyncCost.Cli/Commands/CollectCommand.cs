using System.CommandLine;
using System.CommandLine.Parsing;
using AsyncCost.Cli.Rendering;
using AsyncCost.Cli.Terminal;
using AsyncCost.Report;
using AsyncCost.Sessions;

namespace AsyncCost.Cli.Commands;

/// <summary>`collect`: attach to a process (-p, -n) or launch a command suspended on a diagnostic port, record, report.</summary>
internal static class CollectCommand
{
    public static readonly CommandHelp Help = new(
        [
            "dotnet-asynccost collect -p 1234 --duration 30s",
            "dotnet-asynccost collect -n MyService --passes hops",
            "dotnet-asynccost collect -o run1 --format markdown -- dotnet bin/Release/net10.0/MyApp.dll --iterations 100000",
            "dotnet-asynccost collect --format json -- ./MyApp > costs.json",
            "dotnet-asynccost collect --format json --child-output app.log -- ./MyApp > costs.json",
            "dotnet-asynccost collect --sarif build.sarif -- dotnet bin/Release/net10.0/MyApp.dll",
        ],
        [
            ExitCode.Success, ExitCode.UsageError, ExitCode.ProcessNotFound, ExitCode.NotDotNetProcess, ExitCode.DiagnosticsDisabled,
            ExitCode.AccessDenied, ExitCode.CommandNotFound, ExitCode.OutputNotWritable, ExitCode.RuntimeTooOld, ExitCode.ProcessExited,
            ExitCode.CanceledBeforeRecording, ExitCode.AmbiguousProcessName, ExitCode.FindingsFileNotFound, ExitCode.FindingsFileInvalid,
            ExitCode.NoRuntimeStarted,
        ],
        "The report was written; with -- <command>, the command's own exit code instead (0 when you stopped it; another code comes with one 'dotnet-asynccost:' message naming the command).");

    public static Command Create()
    {
        var processId = CommonOptions.ProcessId();
        var processName = CommonOptions.ProcessName();
        var duration = CommonOptions.Duration("Stop after this long (over all passes). Default: until Enter, Ctrl+C, or the process exits.");
        var passes = CommonOptions.Passes("The passes to run, comma-separated: allocations (TPL events off, so bytes are the app's own), hops "
            + "(TPL events on) and cpu (stack samples: time per async method, running and blocked, also for calls that complete synchronously; "
            + "opt-in). Default allocations,hops; a launched command runs once per pass.");
        var output = CommonOptions.Output("Write the report to <file> instead of stdout: to that very file when it ends in .txt, .md, .json, .csv, .html "
            + "or .speedscope.json, else to <file>.<format extension>. The name without its extension also keeps the traces (<file>.nettrace; "
            + "<file>.<pass>.nettrace with two passes, <file>.<pass>.<n>.nettrace for each later slice of an attach without --duration) "
            + "and <file>.json for 'compare'. An existing directory gets <dir>/asynccost.*.");
        var format = CommonOptions.Format();
        var sarif = CommonOptions.Sarif();
        var allMethods = CommonOptions.AllMethods();
        var wide = CommonOptions.Wide();
        var hopDuty = new Option<double?>("--hop-duty")
        {
            Description = "The share of the hop pass that is traced, in (0, 1]: below 1 the hop pass records 0.5 s windows and scales its counts by the "
                + "thread pool's completed work items (with an error bound), so the process runs untraced most of the time. Default 0.05 on an "
                + "attached process (-p, -n), which a live service can bear; 1 (continuous, exact counts) for a launched command. "
                + "--hop-duty 1 on an attached process traces every hop, but hop-heavy code runs many times slower meanwhile.",
            HelpName = "fraction",
        };
        hopDuty.Validators.Add(result =>
        {
            if (result.GetValueOrDefault<double?>() is { } value && value is not (> 0 and <= 1))
            {
                result.AddError("--hop-duty must be more than 0 and at most 1 (e.g. 0.1 traces one second in ten).");
            }
        });
        var childOutput = new Option<string?>("--child-output")
        {
            Description = "Write the launched command's output (stdout and stderr) to this file instead of this tool's stderr.",
            HelpName = "file",
        };
        var operations = CommonOptions.Operations("How many operations each run of the launched command does (it runs once per pass), for 'compare' to judge "
            + "per operation. Without it, each run's count is read from its output: the last line 'asynccost: N operations' (or "
            + "'asynccost: N operations in S s', S the seconds they took by its own clock). A run the tool ends (--duration) has no count.");
        var command = new Argument<string[]>("command")
        {
            Description = "The command to launch (after --): it starts suspended and is resumed once the session listens. Its output goes to "
                + "this tool's stderr (or --child-output), never into the report on stdout. The tool then exits with the command's exit code.",
            Arity = ArgumentArity.ZeroOrMore,
        };
        var collect = new Command("collect", "Measure what async costs, per method, in a running process or a command it launches. "
            + "An async iterator counts one call per MoveNextAsync that suspended (one per item when each item awaits; needs the hop pass), "
            + "so its bytes and hops per call are per item; a Debug build's class state machines are charged to their methods, not counted as calls.")
        {
            processId, processName, duration, passes, hopDuty, output, format, sarif, allMethods, wide, childOutput, operations, command,
        };
        collect.SetAction((parse, _) =>
        {
            var launch = parse.GetValue(command) ?? [];
            var pid = parse.GetValue(processId);
            var name = parse.GetValue(processName);
            if ((pid is null ? 0 : 1) + (name is null ? 0 : 1) + (launch.Length == 0 ? 0 : 1) != 1)
            {
                throw new CliException(ExitCode.UsageError, "collect needs exactly one target: -p <pid>, -n <name>, or -- <command> [args].");
            }

            if (launch.Length > 0 && !parse.Tokens.Any(t => t.Type == TokenType.DoubleDash))
            {
                throw new CliException(ExitCode.UsageError, $"Unrecognized option or argument '{launch[0]}'; put a command to launch after '--'.");
            }

            if (launch.Length == 0 && parse.GetValue(childOutput) is not null)
            {
                throw new CliException(ExitCode.UsageError, "--child-output needs a command to launch (after --).");
            }

            if (launch.Length == 0 && parse.GetValue(operations) is not null)
            {
                throw new CliException(ExitCode.UsageError, "--operations counts the work of a command launched after --; an attached process counts the requests it serves (ASP.NET Core), else is compared per second.");
            }

            var chosenPasses = parse.GetResult(passes) is null ? MeasurementPasses.All : parse.GetValue(passes);
            if (parse.GetValue(format) == ReportFormat.Speedscope && (!chosenPasses.HasFlag(MeasurementPasses.Cpu) || parse.GetValue(output) is null))
            {
                // Said before recording: the flame graph is read back from the cpu pass's trace, which only -o keeps.
                throw new CliException(ExitCode.UsageError, "--format speedscope draws the cpu pass's stacks from the trace it keeps: add cpu to --passes and give -o <base>.");
            }
            return ReportRun.RunAsync(new ReportView(parse.GetValue(format), parse.GetValue(allMethods), parse.GetValue(wide)), parse.GetValue(output), parse.GetValue(sarif), hint: null, async (reportOutput, stop, status) =>
            {
                var options = new SessionOptions
                {
                    Passes = chosenPasses,
                    Duration = parse.GetValue(duration),
                    HopDutyCycle = parse.GetValue(hopDuty),
                    Operations = parse.GetValue(operations),
                    OutputTracePath = reportOutput.TracePath,
                    Progress = status,
                };
                if (launch.Length > 0)
                {
                    using var relay = ChildOutput.Open(parse.GetValue(childOutput), status);
                    status.WriteMessage($"Launching '{string.Join(' ', launch)}'" + (chosenPasses == MeasurementPasses.All
                        ? ": once per pass, allocations (TPL events off) then hops (TPL events on)."
                        : $" ({PassesText(chosenPasses)} {(IsSinglePass(chosenPasses) ? "pass" : "passes, once per pass")})."));
                    var child = new LaunchCommand { FileName = launch[0], Arguments = launch[1..], StandardOutput = relay.WriteLine, StandardError = relay.WriteLine };
                    return await AsyncCostSession.LaunchAsync(child, options, stop).ConfigureAwait(false);
                }

                var target = CommonOptions.ResolveProcess(pid, name);
                status.WriteMessage($"Attaching to process {target}: {PassesText(chosenPasses)}" + (IsSinglePass(chosenPasses) ? " pass." : " passes in turn."));
                return await AsyncCostSession.AttachAsync(target, options, stop).ConfigureAwait(false);
            }, ExitCodeOf);
        });
        return collect;
    }

    private static string PassesText(MeasurementPasses passes)
    {
        var names = new[] { MeasurementPasses.Allocations, MeasurementPasses.Hops, MeasurementPasses.Cpu }.Where(p => passes.HasFlag(p)).Select(p => p.ToString().ToLowerInvariant()).ToList();
        return names.Count == 1 ? names[0] : string.Join(", ", names[..^1]) + " and " + names[^1];
    }

    private static bool IsSinglePass(MeasurementPasses passes) => (passes & (passes - 1)) == 0;

    /// <summary>
    /// A launched command's own exit code (0 when the user stopped it: the tool ended it, so it has none of its own);
    /// an attached process that exited mid-session is reported, with its own code.
    /// </summary>
    private static int ExitCodeOf(AsyncCostReport report)
    {
        if (report.Source.Kind == SourceKind.Launch)
        {
            var commandExitCode = report.StopReason == StopReason.Canceled ? 0 : report.Source.ExitCode ?? 0;
            if (commandExitCode != 0)
            {
                // Its code may collide with the tool's own (1 is "a bug"): one line says whose it is.
                ErrorOutput.WriteLine($"dotnet-asynccost: '{report.Source.CommandLine}' exited with code {commandExitCode}; this is its exit code, and the report covers what it ran.");
            }

            return commandExitCode;
        }

        if (report.StopReason == StopReason.ProcessExited)
        {
            ErrorOutput.WriteLine($"dotnet-asynccost: Process {report.Source.ProcessId} exited during collection; the report covers the {Numbers.Duration(report.Duration)} recorded.");
            return (int)ExitCode.ProcessExited;
        }

        return 0;
    }
}
