using System.CommandLine;
using System.Globalization;
using AsyncCost.Cli.Rendering;
using AsyncCost.Sessions;

namespace AsyncCost.Cli.Commands;

/// <summary>`ps`: the .NET processes this user can attach to.</summary>
internal static class PsCommand
{
    public static readonly CommandHelp Help = new(["dotnet-asynccost ps"], [ExitCode.Success]);

    public static Command Create()
    {
        var command = new Command("ps", "List the .NET processes that can be attached to: id, name, command line.");
        command.SetAction(_ =>
        {
            var table = new TextTable(".NET processes", [new("PID"), new("Name", ColumnAlignment.Left), new("Command line", ColumnAlignment.Left)]);
            foreach (var process in DotNetProcesses.List())
            {
                table.AddRow(process.ProcessId.ToString(CultureInfo.InvariantCulture), process.Name, process.CommandLine ?? "");
            }

            if (table.Rows.Count == 0)
            {
                Console.Error.WriteLine("No .NET processes found that this user can attach to.");
                return 0;
            }

            ConsoleTableWriter.WriteTable(table, Console.Out, isTerminal: !Console.IsOutputRedirected);
            return 0;
        });
        return command;
    }
}
