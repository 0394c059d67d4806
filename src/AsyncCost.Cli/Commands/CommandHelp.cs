using System.CommandLine;
using System.CommandLine.Help;
using System.CommandLine.Invocation;
using System.Globalization;
using AsyncCost.Cli.Rendering;
using AsyncCost.Cli.Terminal;

namespace AsyncCost.Cli.Commands;

/// <summary>What --help adds after System.CommandLine's usage and options: examples and the exit codes a command can return.</summary>
/// <param name="Examples">Command lines to copy.</param>
/// <param name="ExitCodes">The codes this command can end with.</param>
/// <param name="Success">What exit code 0 means for this command.</param>
internal sealed record CommandHelp(IReadOnlyList<string> Examples, IReadOnlyList<ExitCode> ExitCodes, string Success);

/// <summary>
/// Wraps the default help so every command's --help ends with its examples and exit codes, all fitted to stdout's width
/// (the terminal's, or 80 columns when redirected): System.CommandLine wraps its own part at that width, an example too long
/// for it goes on under itself after a shell's " \", and an exit code's meaning wraps under itself.
/// </summary>
internal sealed class HelpWithExamplesAction(HelpAction defaultHelp, IReadOnlyDictionary<Command, CommandHelp> helpByCommand) : SynchronousCommandLineAction
{
    private const string Indent = "  ";

    public override int Invoke(ParseResult parseResult)
    {
        var width = OutputWidth.Of(Console.IsOutputRedirected);
        defaultHelp.MaxWidth = width;
        defaultHelp.Invoke(parseResult);
        if (!helpByCommand.TryGetValue(parseResult.CommandResult.Command, out var help))
        {
            return 0;
        }

        var output = parseResult.InvocationConfiguration.Output;
        output.WriteLine("Examples:");
        foreach (var example in help.Examples)
        {
            foreach (var line in ExampleLines(example, width))
            {
                output.WriteLine(line);
            }
        }

        output.WriteLine();
        output.WriteLine("Exit codes:");
        foreach (var code in help.ExitCodes)
        {
            var number = string.Create(CultureInfo.InvariantCulture, $"{Indent}{(int)code,3}  ");
            var meaning = code == ExitCode.Success ? help.Success : Cli.ExitCodes.Meaning(code);
            var lines = ConsoleTableWriter.Wrap(meaning, width - number.Length).ToList();
            output.WriteLine(number + lines[0]);
            foreach (var line in lines.Skip(1))
            {
                output.WriteLine(new string(' ', number.Length) + line);
            }
        }

        output.WriteLine();
        return 0;
    }

    /// <summary>An example as shell lines of at most <paramref name="width"/> characters: each line but the last ends in " \".</summary>
    internal static IEnumerable<string> ExampleLines(string example, int width)
    {
        const string more = " \\";
        var lines = ConsoleTableWriter.Wrap(example, width - Indent.Length - Indent.Length - more.Length).ToList();
        return lines.Select((line, i) => (i == 0 ? Indent : Indent + Indent) + line + (i < lines.Count - 1 ? more : ""));
    }
}
