using System.CommandLine;
using System.CommandLine.Help;
using System.CommandLine.Invocation;
using System.Globalization;

namespace AsyncCost.Cli.Commands;

/// <summary>What --help adds after System.CommandLine's usage and options: examples and the exit codes a command can return.</summary>
internal sealed record CommandHelp(IReadOnlyList<string> Examples, IReadOnlyList<ExitCode> ExitCodes);

/// <summary>Wraps the default help so every command's --help ends with its examples and exit codes.</summary>
internal sealed class HelpWithExamplesAction(HelpAction defaultHelp, IReadOnlyDictionary<Command, CommandHelp> helpByCommand) : SynchronousCommandLineAction
{
    public override int Invoke(ParseResult parseResult)
    {
        defaultHelp.Invoke(parseResult);
        if (!helpByCommand.TryGetValue(parseResult.CommandResult.Command, out var help))
        {
            return 0;
        }

        var output = parseResult.InvocationConfiguration.Output;
        output.WriteLine("Examples:");
        foreach (var example in help.Examples)
        {
            output.WriteLine("  " + example);
        }

        output.WriteLine();
        output.WriteLine("Exit codes:");
        foreach (var code in help.ExitCodes)
        {
            output.WriteLine(string.Create(CultureInfo.InvariantCulture, $"  {(int)code,3}  {Cli.ExitCodes.Meaning(code)}"));
        }

        output.WriteLine();
        return 0;
    }
}
