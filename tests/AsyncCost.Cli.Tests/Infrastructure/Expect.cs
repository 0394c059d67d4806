namespace AsyncCost.Cli.Tests.Infrastructure;

/// <summary>The assertions every error test makes: its exit code, exactly one "dotnet-asynccost: ..." line, no stack trace.</summary>
internal static class Expect
{
    public static void OneLineError(ProcessResult result, int exitCode, string messagePart)
    {
        Assert.True(exitCode == result.ExitCode, $"expected exit code {exitCode}\n{result}");
        var errors = result.ErrorLines.Where(l => l.StartsWith("dotnet-asynccost: ", StringComparison.Ordinal)).ToList();
        Assert.True(errors.Count == 1, $"expected exactly one error line\n{result}");
        Assert.Contains(messagePart, errors[0], StringComparison.Ordinal);
        NoStackTrace(result);
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
