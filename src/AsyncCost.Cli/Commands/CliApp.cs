using System.CommandLine;
using System.CommandLine.Help;
using System.CommandLine.Invocation;
using AsyncCost.Cli.Terminal;

namespace AsyncCost.Cli.Commands;

/// <summary>The command tree and the one place where failures become a single stderr line and an exit code.</summary>
internal static class CliApp
{
    private const string ToolName = "dotnet-asynccost";

    private static readonly CommandHelp RootHelp = new(
        [
            "dotnet-asynccost ps",
            "dotnet-asynccost collect -- dotnet bin/Release/net10.0/MyApp.dll",
            "dotnet-asynccost collect -p 1234 --duration 30s -o run1",
            "dotnet-asynccost report run1.allocations.nettrace run1.hops.nettrace --format markdown",
            "dotnet-asynccost monitor -n MyService",
        ],
        [.. ExitCodes.Catalog.Select(entry => entry.Code)],
        ExitCodes.Meaning(ExitCode.Success));

    public static RootCommand CreateRootCommand()
    {
        var root = new RootCommand("Measure what async/await costs in a .NET process, per async method: bytes, thread-pool hops and context switches per call, from EventPipe.");
        var help = new Dictionary<Command, CommandHelp> { [root] = RootHelp };
        foreach (var (command, commandHelp) in new[]
        {
            (PsCommand.Create(), PsCommand.Help),
            (CollectCommand.Create(), CollectCommand.Help),
            (ReportCommand.Create(), ReportCommand.Help),
            (MonitorCommand.Create(), MonitorCommand.Help),
            (CompareCommand.Create(), CompareCommand.Help),
            (SchemaCommand.Create(), SchemaCommand.Help),
            (ProvidersCommand.Create(), ProvidersCommand.Help),
        })
        {
            root.Add(command);
            help[command] = commandHelp;
        }

        var helpOption = root.Options.OfType<HelpOption>().Single();
        helpOption.Action = new HelpWithExamplesAction((HelpAction)helpOption.Action!, help);
        return root;
    }

    public static async Task<int> RunAsync(string[] args)
    {
        var parse = CreateRootCommand().Parse(args);
        if (parse.Action is ParseErrorAction || parse.Action is null)
        {
            // "Required command was not provided" comes first but says least when a word was mistyped.
            var message = parse.Errors.OrderBy(e => parse.UnmatchedTokens.Any(t => e.Message.Contains(t, StringComparison.Ordinal)) ? 0 : 1)
                .Select(e => e.Message).FirstOrDefault() ?? "Name a command.";
            var command = parse.CommandResult.Command is RootCommand ? "" : " " + parse.CommandResult.Command.Name;
            return Fail(ExitCode.UsageError, $"{message} See '{ToolName}{command} --help'.");
        }

        try
        {
            // Ctrl+C and SIGTERM are handled by the commands (StopSignal), so a stop is clean rather than a forced exit.
            return await parse.InvokeAsync(new InvocationConfiguration { EnableDefaultExceptionHandler = false, ProcessTerminationTimeout = null }).ConfigureAwait(false);
        }
        catch (NotDotNetProcessException e) when (e.CommandExitCode is not null)
        {
            // A launched command that failed before its runtime started: a code of its own, never 0 nor the "bug" code 1.
            return Fail(ExitCode.NoRuntimeStarted, e.Message);
        }
        catch (AsyncCostException e)
        {
            return Fail(ExitCodes.For(e.Kind), e.Message);
        }
        catch (CliException e)
        {
            return Fail(e.ExitCode, e.Message);
        }
        catch (OperationCanceledException)
        {
            return Fail(ExitCode.CanceledBeforeRecording, "Stopped before recording started: nothing was gathered.");
        }
#pragma warning disable CA1031 // The one catch-all: a bug still gets one line and exit code 1, never a stack trace.
        catch (Exception e)
#pragma warning restore CA1031
        {
            return Fail(ExitCode.UnexpectedError, $"Unexpected error ({e.GetType().Name}): {e.Message}");
        }
    }

    private static int Fail(ExitCode code, string message)
    {
        // One message, whatever it holds, fitted to stderr's width.
        ErrorOutput.WriteLine($"{ToolName}: {message}");
        return (int)code;
    }
}
