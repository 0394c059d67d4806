using System.CommandLine;
using System.Globalization;
using AsyncCost.Cli.Rendering;
using AsyncCost.Cli.Terminal;
using AsyncCost.Sessions;

namespace AsyncCost.Cli.Commands;

/// <summary>`ps`: the .NET processes this user can attach to.</summary>
internal static class PsCommand
{
    public static readonly CommandHelp Help = new(["dotnet-asynccost ps"], [ExitCode.Success], "The list was printed (also when it is empty: the message says so).");

    public static Command Create()
    {
        var wide = CommonOptions.Wide();
        var command = new Command("ps", "List the .NET processes that can be attached to: id, name, command line.") { wide };
        command.SetAction(parse =>
        {
            // Narrow, a command line goes on the lines under its process, whole.
            var table = new TextTable(".NET processes", [new("PID"), new("Name", ColumnAlignment.Left), new("Command line", ColumnAlignment.Left, ColumnFit.Wrap)]);
            foreach (var process in DotNetProcesses.List())
            {
                table.AddRow(process.ProcessId.ToString(CultureInfo.InvariantCulture), process.Name, process.CommandLine ?? "");
            }

            if (table.Rows.Count == 0)
            {
                ErrorOutput.WriteLine("No .NET processes found that this user can attach to.");
                return 0;
            }

            ConsoleTableWriter.WriteTable(table, Console.Out, isTerminal: !Console.IsOutputRedirected, OutputWidth.StandardOutput(parse.GetValue(wide)));
            return 0;
        });
        return command;
    }
}
