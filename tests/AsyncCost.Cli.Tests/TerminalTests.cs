using AsyncCost.Cli.Tests.Infrastructure;

namespace AsyncCost.Cli.Tests;

/// <summary>On a terminal (a pseudo-terminal from script(1)) the status line is rewritten in place, the launched command's lines are not glued to it, and tables have colour.</summary>
public sealed class TerminalTests
{
    [Fact]
    public async Task On_a_terminal_the_status_line_is_rewritten_in_place_and_tables_are_styled()
    {
        var command = $"dotnet '{Repository.ToolDll}' collect --passes allocations -- dotnet '{Repository.WorkloadDll}' yield 3000000"; // long enough that its output line comes after status lines
        // A colour terminal, whatever the test runner's own TERM is.
        using var terminal = ChildProcess.Start("script", ["-qec", command, "/dev/null"], new Dictionary<string, string> { ["TERM"] = "xterm-256color" });

        var result = await terminal.WaitForExitAsync();

        Assert.True(result.ExitCode == 0, result.ToString());
        // Each status is written as \r + text + ESC[K (clear the rest of the previous one), cut to the terminal width; the
        // reader splits lines at \r.
        Assert.Matches("(?m)^Recording pass 1/1 \\(allocations\\)  \\d\\d:\\d\\d:\\d\\d  [\\d,]+ events  [\\d.]+ MB  \\(Enter.*\u001b\\[K", result.StandardOutput);
        // The command's own output line clears the status line first instead of being glued onto its end.
        var plain = System.Text.RegularExpressions.Regex.Replace(result.StandardOutput, "\u001b(\\[[0-9;?]*[A-Za-z]|[=>])", "");
        Assert.StartsWith("RESULT {", plain.Split('\r', '\n').Single(segment => segment.Contains("RESULT {", StringComparison.Ordinal)), StringComparison.Ordinal);
        Assert.Contains("\u001b[1mAsyncCost report", result.StandardOutput, StringComparison.Ordinal);
        // Method names in colour (any SGR colour sequence right before the name, which may be shortened to the terminal's width).
        Assert.Matches("\u001b\\[[0-9;]*m *AsyncC.*YieldOnceAsync", result.StandardOutput);
    }

    [Fact]
    public async Task Monitor_on_a_terminal_fits_its_width_and_keeps_method_names_whole_or_shortened_in_the_middle()
    {
        using var workload = await ChildProcess.StartYieldLoopAsync();
        try
        {
            var command = $"dotnet '{Repository.ToolDll}' monitor -p {workload.IdText} --duration 3s";
            using var terminal = ChildProcess.Start("script", ["-qec", command, "/dev/null"],
                new Dictionary<string, string> { ["TERM"] = "xterm-256color", ["COLUMNS"] = "60" });

            var result = await terminal.WaitForExitAsync();

            Assert.True(result.ExitCode == 0, result.ToString());
            var plain = System.Text.RegularExpressions.Regex.Replace(result.StandardOutput, "\u001b(\\[[0-9;?]*[A-Za-z]|[=>])", "");
            var lines = plain.Split('\r', '\n').Where(l => l.Trim().Length > 0).ToList();
            Assert.All(lines, l => Assert.True(l.TrimEnd().Length <= 60, $"{l.TrimEnd().Length} > 60: {l}"));
            // The method's name on one line (whole, or shortened in the middle), never broken inside a word.
            Assert.Contains(lines, l => l.TrimEnd().EndsWith(".YieldOnceAsync", StringComparison.Ordinal));
            Assert.DoesNotContain(lines, l => System.Text.RegularExpressions.Regex.IsMatch(l.Trim(), "^(YieldOnce|OnceAsync|Async)$"));
        }
        finally
        {
            await workload.StopLoopAsync();
        }
    }
}
