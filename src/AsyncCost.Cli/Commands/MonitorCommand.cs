using System.CommandLine;
using System.Globalization;
using AsyncCost.Cli.Rendering;
using AsyncCost.Cli.Terminal;
using AsyncCost.Report;
using AsyncCost.Sessions;
using Spectre.Console;
using Spectre.Console.Rendering;

namespace AsyncCost.Cli.Commands;

/// <summary>
/// `monitor`: a live, top-like view. One EventPipe session for the whole run; every second the library hands over what that
/// second measured as per-second rates (<see cref="AsyncCostSession.MonitorAsync"/>), and the view shows them: the figures
/// are the library's, this command only lays them out.
/// </summary>
internal static class MonitorCommand
{
    public static readonly CommandHelp Help = new(
        [
            "dotnet-asynccost monitor -p 1234",
            "dotnet-asynccost monitor -n MyService --top 20 --passes allocations,hops",
            "dotnet-asynccost monitor -p 1234 --duration 10s > monitor.log",
        ],
        [
            ExitCode.Success, ExitCode.UsageError, ExitCode.ProcessNotFound, ExitCode.NotDotNetProcess, ExitCode.DiagnosticsDisabled,
            ExitCode.AccessDenied, ExitCode.RuntimeTooOld, ExitCode.ProcessExited, ExitCode.CanceledBeforeRecording, ExitCode.AmbiguousProcessName,
        ],
        "Stopped ('q', Ctrl+C, SIGTERM or --duration) while the process ran.");

    public static Command Create()
    {
        var processId = CommonOptions.ProcessId();
        var processName = CommonOptions.ProcessName();
        var passes = CommonOptions.Passes("Which streams the one session carries: allocations (bytes/s, objects/s, calls/s; the default) or "
            + "hops (hops/s, calls/s), or both. The hop stream stays on for the whole session (a session's providers cannot change): TPL events "
            + "cost on every await, can slow hop-heavy code many times over and then arrive late (the summary says how far behind), and with "
            + "both the bytes include what TPL tracing adds to every await.", allowCpu: false);
        var top = new Option<int>("--top") { Description = "How many methods to show.", DefaultValueFactory = _ => 10 };
        var duration = CommonOptions.Duration("Stop after this long. Default: until 'q', Ctrl+C, or the process exits.");
        var monitor = new Command("monitor", "Watch the most expensive async methods live: one session for the whole run, the table redrawn "
            + "every second with that second's rates ('q' quits). Redirected, each refresh is printed as a summary line and a table.")
        {
            processId, processName, passes, top, duration,
        };
        monitor.SetAction(async (parse, _) =>
        {
            var pid = parse.GetValue(processId);
            var name = parse.GetValue(processName);
            if ((pid is null) == (name is null))
            {
                throw new CliException(ExitCode.UsageError, "monitor needs exactly one target: -p <pid> or -n <name>.");
            }

            var target = CommonOptions.ResolveProcess(pid, name);
            using var stop = new StopSignal('q');
            using var limit = CancellationTokenSource.CreateLinkedTokenSource(stop.Token);
            if (parse.GetValue(duration) is { } total)
            {
                limit.CancelAfter(total);
            }

            var options = new MonitorOptions { Passes = parse.GetResult(passes) is null ? MeasurementPasses.Allocations : parse.GetValue(passes) };
            var view = new MonitorView(target, Math.Max(1, parse.GetValue(top)), stop.Hint, options.Passes);
            var snapshots = AsyncCostSession.MonitorAsync(target, options, limit.Token);
            return Console.IsOutputRedirected
                ? await RunAsLinesAsync(snapshots, view).ConfigureAwait(false)
                : await RunLiveAsync(snapshots, view).ConfigureAwait(false);
        });
        return monitor;
    }

    private static async Task<int> RunLiveAsync(IAsyncEnumerable<MonitorSnapshot> snapshots, MonitorView view)
    {
        var last = default(MonitorSnapshot);
        await AnsiConsole.Live(view.Render()).StartAsync(async context =>
        {
            await foreach (var snapshot in snapshots.ConfigureAwait(false))
            {
                last = view.Latest = snapshot;
                context.UpdateTarget(view.Render());
                context.Refresh();
            }
        }).ConfigureAwait(false);
        return ExitCodeOf(last);
    }

    private static async Task<int> RunAsLinesAsync(IAsyncEnumerable<MonitorSnapshot> snapshots, MonitorView view)
    {
        var last = default(MonitorSnapshot);
        await foreach (var snapshot in snapshots.ConfigureAwait(false))
        {
            last = view.Latest = snapshot;
            var width = OutputWidth.Of(redirected: true);
            Console.Out.WriteLine(view.Summary(width));
            ConsoleTableWriter.WriteTable(view.MethodsTable(), Console.Out, isTerminal: false, width);
            Console.Out.Flush();
        }

        return ExitCodeOf(last);
    }

    private static int ExitCodeOf(MonitorSnapshot? last)
    {
        if (last?.Report.StopReason != StopReason.ProcessExited)
        {
            return 0;
        }

        ErrorOutput.WriteLine($"dotnet-asynccost: Process {last.Report.Source.ProcessId} exited.");
        return (int)ExitCode.ProcessExited;
    }

    /// <summary>Lays out the latest snapshot.</summary>
    private sealed class MonitorView(int processId, int top, string hint, MeasurementPasses passes)
    {
        private const string Separator = " | ";

        public MonitorSnapshot? Latest { get; set; }

        /// <summary>The live view, laid out for the terminal's width as the report's tables are (names shortened in the middle).</summary>
        public Rows Render()
        {
            var width = OutputWidth.Of(redirected: false);
            return new Rows(new Text(Summary(width, hint) + Environment.NewLine), ConsoleTableWriter.Fitted(MethodsTable(), width));
        }

        /// <summary>The summary's parts joined by " | ", on as many lines of at most <paramref name="width"/> characters as they need.</summary>
        public string Summary(int width, string? hint = null)
        {
            var lines = new List<string>();
            foreach (var part in SummaryParts().Concat(hint is null ? [] : ["(" + hint + ")"]))
            {
                if (lines.Count > 0 && lines[^1].Length + Separator.Length + part.Length <= width)
                {
                    lines[^1] += Separator + part;
                }
                else
                {
                    lines.Add(part);
                }
            }

            return string.Join(Environment.NewLine, lines);
        }

        private List<string> SummaryParts()
        {
            if (Latest is not { } snapshot)
            {
                return [$"Process {processId}: starting the session..."];
            }

            var process = snapshot.Process;
            var parts = new List<string>
            {
                $"{DateTime.Now:HH:mm:ss} pid {processId} {process.ProcessName}".TrimEnd(),
                $"refresh {snapshot.Number} at {Seconds(snapshot.Elapsed)} s",
            };
            if (snapshot.Behind > snapshot.Interval + snapshot.Interval)
            {
                parts.Add($"{Seconds(snapshot.Behind)} s behind (events arrive late)");
            }

            if (process.MaxThreadPoolQueueLength is { } queue)
            {
                parts.Add("pool queue " + Numbers.Count(queue));
            }

            if (process.MaxThreadPoolThreads is { } threads)
            {
                parts.Add("pool threads " + Numbers.Count(threads));
            }

            if (process.CompletedWorkItemsPerSecond is { } items)
            {
                parts.Add("work items/s " + Numbers.Count(items));
            }

            if (process.VoluntarySwitchesPerSecond is { } voluntary && process.InvoluntarySwitchesPerSecond is { } involuntary)
            {
                parts.Add($"switches/s voluntary {Numbers.Count(voluntary)}, involuntary {Numbers.Count(involuntary)}");
            }

            if (process.EventsLost > 0)
            {
                parts.Add($"events lost {Numbers.Count(process.EventsLost)} (figures low)");
            }

            return parts;
        }

        public TextTable MethodsTable()
        {
            var methods = Latest?.Methods.Take(top).ToList() ?? [];
            var table = new TextTable("Most expensive async methods (per second)",
                [new("Method", ColumnAlignment.Left), new("Bytes/s"), new("Objects/s"), new("Calls/s"), new("Hops/s")])
            {
                // An empty table says why, rather than leaving the user to guess whether the tool works.
                Note = methods.Count > 0 ? null : Latest is null ? "Waiting for the first second's events." : EmptyReason(),
            };
            foreach (var method in methods)
            {
                table.AddRow(
                    method.DisplayName,
                    Format(method.BytesPerSecond, Numbers.Bytes),
                    Format(method.ObjectsPerSecond, Numbers.Count),
                    Format(method.CallsPerSecond, Numbers.Count),
                    Format(method.HopsPerSecond, Numbers.Count));
            }

            return table;
        }

        /// <summary>Why a second showed no async method: what each stream needs to see one.</summary>
        private string EmptyReason()
        {
            var needs = new List<string>();
            if (passes.HasFlag(MeasurementPasses.Allocations))
            {
                needs.Add("the allocation stream samples about one allocation per 100 KB allocated, so an app that allocates little gives few rows");
            }

            if (passes.HasFlag(MeasurementPasses.Hops))
            {
                needs.Add("the hop stream sees only async methods that suspended");
            }

            return $"No async method was seen this second: {string.Join("; ", needs)}. A longer look: 'collect -p {processId} --duration 30s'.";
        }

        private static string Seconds(TimeSpan time) => time.TotalSeconds.ToString("0.0", CultureInfo.InvariantCulture);

        private static string Format(double? value, Func<double, string> format) => value is null ? "-" : format(value.Value);
    }
}
