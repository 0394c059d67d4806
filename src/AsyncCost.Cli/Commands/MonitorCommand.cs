using System.CommandLine;
using AsyncCost.Cli.Rendering;
using AsyncCost.Cli.Terminal;
using AsyncCost.Report;
using AsyncCost.Sessions;
using Spectre.Console;
using Spectre.Console.Rendering;

namespace AsyncCost.Cli.Commands;

/// <summary>
/// `monitor`: a live, top-like view. It records one-second windows with the library, alternating the allocation and hop
/// passes (so bytes never include the TPL observer effect), and shows per-second rates from the latest window of each.
/// </summary>
internal static class MonitorCommand
{
    public static readonly CommandHelp Help = new(
        [
            "dotnet-asynccost monitor -p 1234",
            "dotnet-asynccost monitor -n MyService --top 20 --passes allocations",
            "dotnet-asynccost monitor -p 1234 --duration 00:00:10 > monitor.log",
        ],
        [
            ExitCode.Success, ExitCode.UsageError, ExitCode.ProcessNotFound, ExitCode.NotDotNetProcess, ExitCode.DiagnosticsDisabled,
            ExitCode.AccessDenied, ExitCode.RuntimeTooOld, ExitCode.ProcessExited, ExitCode.CanceledBeforeRecording, ExitCode.AmbiguousProcessName,
        ]);

    private static readonly TimeSpan Window = TimeSpan.FromSeconds(1);

    public static Command Create()
    {
        var processId = CommonOptions.ProcessId();
        var processName = CommonOptions.ProcessName();
        var passes = CommonOptions.Passes("Which rates to show: allocations (bytes/s, objects/s), hops (hops/s) or both (windows alternate). Default both.");
        var top = new Option<int>("--top") { Description = "How many methods to show.", DefaultValueFactory = _ => 10 };
        var duration = CommonOptions.Duration("Stop after this long. Default: until 'q', Ctrl+C, or the process exits.");
        var monitor = new Command("monitor", "Watch the most expensive async methods live: one-second recording windows, the table refreshed as each ends ('q' quits).")
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

            var view = new MonitorView(target, Math.Max(1, parse.GetValue(top)), stop.Hint);
            var windows = Windows(target, parse.GetResult(passes) is null ? MeasurementPasses.All : parse.GetValue(passes), view, limit.Token);
            return Console.IsOutputRedirected
                ? await RunAsLinesAsync(windows, view).ConfigureAwait(false)
                : await RunLiveAsync(windows, view).ConfigureAwait(false);
        });
        return monitor;
    }

    /// <summary>Records windows until stopped; each yields the view's latest frame state.</summary>
    private static async IAsyncEnumerable<AsyncCostReport> Windows(int processId, MeasurementPasses passes, MonitorView view, [System.Runtime.CompilerServices.EnumeratorCancellation] CancellationToken stop)
    {
        MeasurementPasses[] cycle = passes == MeasurementPasses.All ? [MeasurementPasses.Allocations, MeasurementPasses.Hops] : [passes];
        for (var i = 0; !stop.IsCancellationRequested; i++)
        {
            AsyncCostReport window;
            try
            {
                window = await AsyncCostSession.AttachAsync(processId, new SessionOptions { Passes = cycle[i % cycle.Length], Duration = Window }, stop).ConfigureAwait(false);
            }
            catch (OperationCanceledException) when (i > 0)
            {
                // Stopped between windows: the last frame stands.
                yield break;
            }

            view.Add(window);
            yield return window;
            if (window.StopReason is StopReason.ProcessExited or StopReason.Canceled)
            {
                yield break;
            }
        }
    }

    private static async Task<int> RunLiveAsync(IAsyncEnumerable<AsyncCostReport> windows, MonitorView view)
    {
        var last = default(AsyncCostReport);
        await AnsiConsole.Live(view.Render()).StartAsync(async context =>
        {
            await foreach (var window in windows.ConfigureAwait(false))
            {
                last = window;
                context.UpdateTarget(view.Render());
                context.Refresh();
            }
        }).ConfigureAwait(false);
        return ExitCodeOf(last);
    }

    private static async Task<int> RunAsLinesAsync(IAsyncEnumerable<AsyncCostReport> windows, MonitorView view)
    {
        var last = default(AsyncCostReport);
        await foreach (var window in windows.ConfigureAwait(false))
        {
            last = window;
            Console.Out.WriteLine(view.SummaryLine());
            ConsoleTableWriter.WriteTable(view.MethodsTable(), Console.Out, isTerminal: false);
            Console.Out.Flush();
        }

        return ExitCodeOf(last);
    }

    private static int ExitCodeOf(AsyncCostReport? last)
    {
        if (last?.StopReason != StopReason.ProcessExited)
        {
            return 0;
        }

        Console.Error.WriteLine($"dotnet-asynccost: Process {last.Source.ProcessId} exited.");
        return (int)ExitCode.ProcessExited;
    }

    /// <summary>The latest window of each pass, as per-second rates.</summary>
    private sealed class MonitorView(int processId, int top, string hint)
    {
        private AsyncCostReport? _allocations;
        private AsyncCostReport? _hops;
        private AsyncCostReport? _latest;

        public void Add(AsyncCostReport window)
        {
            _latest = window;
            if (window.Passes.Any(p => p.Pass == MeasurementPasses.Allocations))
            {
                _allocations = window;
            }

            if (window.Passes.Any(p => p.Pass == MeasurementPasses.Hops))
            {
                _hops = window;
            }
        }

        public Rows Render() => new Rows(new Text(SummaryLine() + "  (" + hint + ")" + Environment.NewLine), ConsoleTableWriter.ToRenderable(MethodsTable()));

        public string SummaryLine()
        {
            if (_latest is null)
            {
                return $"Process {processId}: starting the first window...";
            }

            var totals = _latest.Totals;
            var seconds = Math.Max(_latest.Duration.TotalSeconds, 0.001);
            var parts = new List<string> { $"{DateTime.Now:HH:mm:ss} pid {processId} {_latest.Source.ProcessName}".TrimEnd() };
            if (totals.MaxThreadPoolQueueLength is { } queue)
            {
                parts.Add("pool queue " + Numbers.Count(queue));
            }

            if (totals.MaxThreadPoolThreads is { } threads)
            {
                parts.Add("pool threads " + Numbers.Count(threads));
            }

            if (totals.CompletedWorkItems is { } items)
            {
                parts.Add("work items/s " + Numbers.Count(items.Value / seconds));
            }

            if (totals.VoluntaryContextSwitches is { } voluntary && totals.InvoluntaryContextSwitches is { } involuntary)
            {
                parts.Add($"switches/s voluntary {Numbers.Count(voluntary / seconds)}, involuntary {Numbers.Count(involuntary / seconds)}");
            }

            return string.Join(" | ", parts);
        }

        public TextTable MethodsTable()
        {
            var table = new TextTable("Most expensive async methods (per second)",
                [new("Method", ColumnAlignment.Left), new("Bytes/s"), new("Objects/s"), new("Calls/s"), new("Hops/s")]);
            var byKey = new Dictionary<string, (string Name, MethodCost? Allocation, MethodCost? Hop)>(StringComparer.Ordinal);
            foreach (var method in _allocations?.Methods ?? [])
            {
                byKey[method.MethodKey] = (method.DisplayName, method, null);
            }

            foreach (var method in _hops?.Methods ?? [])
            {
                byKey[method.MethodKey] = byKey.TryGetValue(method.MethodKey, out var row) ? row with { Hop = method } : (method.DisplayName, null, method);
            }

            foreach (var (name, allocation, hop) in byKey.Values
                .OrderByDescending(r => Rate(r.Allocation?.Bytes, _allocations) ?? 0)
                .ThenByDescending(r => Rate(r.Hop?.Hops, _hops) ?? 0)
                .Take(top))
            {
                table.AddRow(
                    name,
                    Format(Rate(allocation?.Bytes, _allocations), Numbers.Bytes),
                    Format(Rate(allocation?.Objects, _allocations), Numbers.Count),
                    Format(Rate(allocation?.Calls ?? hop?.Calls, allocation is null ? _hops : _allocations), Numbers.Count),
                    Format(Rate(hop?.Hops, _hops), Numbers.Count));
            }

            return table;
        }

        private static double? Rate(Figure? figure, AsyncCostReport? window) =>
            figure is null || window is null ? null : figure.Value / Math.Max(window.Duration.TotalSeconds, 0.001);

        private static string Format(double? value, Func<double, string> format) => value is null ? "-" : format(value.Value);
    }
}
