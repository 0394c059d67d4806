namespace AsyncCost.Cli.Tests.Infrastructure;

/// <summary>The assertions every error test makes: its exit code, exactly one "dotnet-asynccost: ..." message (its lines fit 80
/// columns, the later ones indented), no stack trace.</summary>
internal static class Expect
{
    public static void OneLineError(ProcessResult result, int exitCode, string messagePart)
    {
        Assert.True(exitCode == result.ExitCode, $"expected exit code {exitCode}\n{result}");
        var errors = Messages(result.StandardError).Where(m => m.StartsWith("dotnet-asynccost: ", StringComparison.Ordinal)).ToList();
        Assert.True(errors.Count == 1, $"expected exactly one error message\n{result}");
        Assert.Contains(messagePart, errors[0], StringComparison.Ordinal);
        NoStackTrace(result);
    }

    // A message whose first word does not fit beside the tool's name (a long path) starts on the line under it.
    private const string Tool = "dotnet-asynccost:";

    /// <summary>stderr's messages, each a line and the indented lines that go on under it, joined again (every line at most 80 wide).</summary>
    public static List<string> Messages(string standardError)
    {
        var messages = new List<string>();
        foreach (var line in standardError.Split('\n').Select(l => l.TrimEnd('\r')).Where(l => l.Length > 0))
        {
            if (line.StartsWith("  ", StringComparison.Ordinal) && messages.Count > 0 && messages[^1].StartsWith(Tool, StringComparison.Ordinal))
            {
                Assert.True(line.Length <= 80, $"{line.Length} > 80: {line}");
                messages[^1] += " " + line.Trim();
            }
            else
            {
                if (line.StartsWith(Tool, StringComparison.Ordinal))
                {
                    Assert.True(line.Length <= 80, $"{line.Length} > 80: {line}");
                }

                messages.Add(line);
            }
        }

        return messages;
    }

    public static void NoStackTrace(ProcessResult result)
    {
        Assert.DoesNotContain("   at ", result.StandardError, StringComparison.Ordinal);
        Assert.DoesNotContain("Unhandled exception", result.StandardError, StringComparison.Ordinal);
    }

    /// <summary>Redirected output is plain text: no colour codes, no in-place rewriting.</summary>
    public static void PlainText(string text)
    {
        Assert.DoesNotContain('\u001b', text);
        Assert.DoesNotContain('\r', text);
    }
}
