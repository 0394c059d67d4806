using System.Text.Json.Nodes;
using AsyncCost.Cli.Tests.Infrastructure;

namespace AsyncCost.Cli.Tests;

/// <summary>
/// The report and the --sarif join on a recorded web service: samples/WebShop (ASP.NET Core, real Kestrel) attached with
/// `collect -p` under a loopback load, and the SARIF log of its build with every rule on (see Recorded/record.sh webshop).
/// </summary>
public sealed class WebServiceTraceTests
{
    private static readonly string Sarif = Repository.Recorded("webshop.sarif");
    private static readonly string[] Traces = Repository.RecordedTraces("webshop");

    private static async Task<JsonNode> HotFindingsAsync()
    {
        var result = await ChildProcess.RunToolAsync(["report", "--sarif", Sarif, .. Traces, "--format", "json"]);
        Assert.True(result.ExitCode == 0, result.ToString());
        return JsonNode.Parse(result.StandardOutput)!;
    }

    private static JsonNode Finding(JsonNode hot, string ruleId) =>
        hot["findings"]!.AsArray().First(f => (string)f!["finding"]!["ruleId"]! == ruleId)!;

    private static JsonNode Method(JsonNode hot, string key) =>
        hot["measured"]!["methods"]!.AsArray().Single(m => (string)m!["methodKey"]! == key)!;

    [Fact]
    public async Task The_costly_method_is_the_first_user_row_and_the_framework_rows_come_after_the_users()
    {
        var hot = await HotFindingsAsync();

        var methods = hot["measured"]!["methods"]!.AsArray().Select(m => (Key: (string)m!["methodKey"]!, Origin: (string)m["origin"]!, Assembly: (string?)m["assembly"])).ToList();
        Assert.Equal(("WebShop.Stock.ReserveAsync", "user", "WebShop"), methods[0]);
        Assert.Equal(methods.Count(m => m.Origin == "user"), methods.TakeWhile(m => m.Origin == "user").Count());
        Assert.Contains(methods, m => m.Origin == "framework" && m.Assembly is not null && m.Assembly.StartsWith("Microsoft.AspNetCore", StringComparison.Ordinal));

        // --wide: the assembly rows' names whole (WidthTests has the 80-column layout).
        var table = await ChildProcess.RunToolAsync(["report", .. Traces, "--wide"]);
        Assert.Matches(@"\[Microsoft\.AspNetCore\.[A-Za-z.]+: \d+ methods?\]", table.StandardOutput);
        Assert.DoesNotContain("RequestDelegateFactory", table.StandardOutput, StringComparison.Ordinal);
        var all = await ChildProcess.RunToolAsync(["report", .. Traces, "--all-methods", "--wide"]);
        Assert.Contains("RequestDelegateFactory", all.StandardOutput, StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_blocking_wait_is_priced_by_the_time_it_blocked_and_names_the_task_it_waits_on()
    {
        var hot = await HotFindingsAsync();

        var blocking = Finding(hot, "AC0006");
        Assert.Equal("measured", (string)blocking["verdict"]!);
        Assert.Equal("WebShop.Checkout.CheckoutAsync", (string)blocking["finding"]!["methodKey"]!);
        Assert.Equal(["WebShop.Discounts.GetDiscountAsync"], blocking["finding"]!["costMethodKeys"]!.AsArray().Select(k => (string)k!));
        Assert.Equal("timeBlocked", (string)blocking["time"]!["basis"]!);
        Assert.True((double)blocking["time"]!["lowerBound"]! > 0, blocking.ToJsonString());
        var checkout = Method(hot, "WebShop.Checkout.CheckoutAsync");
        var blockedPerCall = (double)checkout["blockedMilliseconds"]!["value"]! / (double)checkout["suspendingCalls"]!["value"]!;
        Assert.True(blockedPerCall > 0, $"blocked ms per call: {blockedPerCall}");
        Assert.InRange((double)checkout["longestBlockedMilliseconds"]!, 0.001, (double)checkout["blockedMilliseconds"]!["value"]!);
    }

    [Fact]
    public async Task The_stock_loop_ranks_first_or_second_with_a_time_of_its_own_spent_in_ReserveAsync()
    {
        var hot = await HotFindingsAsync();

        var loop = hot["findings"]!.AsArray().Single(f => (string)f!["finding"]!["ruleId"]! == "AC0001" && (int)f["finding"]!["line"]! == 16)!;
        Assert.InRange((int)loop["rank"]!, 1, 2);
        Assert.Equal(["WebShop.Stock.ReserveAsync"], loop["time"]!["methodKeys"]!.AsArray().Select(k => (string)k!));
        Assert.True((double)loop["time"]!["lowerBound"]! > 0, loop.ToJsonString());
        Assert.Contains("WebShop.Stock.ReserveAsync", (string)loop["time"]!["explanation"]!, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Compare_times_the_first_runs_findings_in_the_second_run_and_says_not_observable_without_the_pass_that_timed_them()
    {
        using var directory = new TemporaryDirectory("asynccost-compare-findings-");
        var hot = await HotFindingsAsync();
        // The report with its ranked findings (what -o keeps beside a --sarif report), the same run without them, and a run of
        // the allocation pass alone.
        var withFindings = directory.File("webshop.json");
        await File.WriteAllTextAsync(withFindings, hot.ToJsonString());
        var plain = directory.File("plain.json");
        await File.WriteAllTextAsync(plain, hot["measured"]!.ToJsonString());
        var allocationsOnly = directory.File("allocations.json");
        var allocations = await ChildProcess.RunToolAsync("report", Traces[0], "--format", "json");
        Assert.True(allocations.ExitCode == 0, allocations.ToString());
        await File.WriteAllTextAsync(allocationsOnly, allocations.StandardOutput);

        // The same run twice, the findings from the first report: each finding it timed, in its rank, unchanged.
        var same = await ChildProcess.RunToolAsync("compare", withFindings, withFindings, "--format", "json");
        Assert.True(same.ExitCode == 0, same.ToString());
        var times = JsonNode.Parse(same.StandardOutput)!["findingTimes"]!.AsArray();
        var timed = hot["findings"]!.AsArray().Where(f => f!["time"]!["milliseconds"] is not null).Select(f => (int)f!["rank"]!);
        Assert.Equal(timed, times.Select(t => (int)t!["rank"]!).Distinct());
        Assert.Contains(times, t => (string)t!["ruleId"]! == "AC0001" && (int)t["line"]! == 16 && (string)t["basis"]! == "calleeElapsed");
        // The loop's own method (the checkout) was timed too: its elapsed time is the loop's second row, under the same rank.
        Assert.Contains(times, t => (string)t!["ruleId"]! == "AC0001" && (int)t["line"]! == 16 && (string)t["basis"]! == "loopMethodElapsed"
            && t["costIn"]!.AsArray().Select(k => (string)k!).SequenceEqual(["WebShop.Checkout.CheckoutAsync"]));
        Assert.All(times, t => Assert.Equal(("unchanged", "secondOfRecording"), ((string)t!["change"]!, (string)t["per"]!)));

        // A plain first report and the SARIF log, against a run without the hop pass: no elapsed time or time blocked there.
        var withoutHops = await ChildProcess.RunToolAsync("compare", plain, allocationsOnly, "--sarif", Sarif);
        Assert.True(withoutHops.ExitCode == 0, withoutHops.ToString());
        Assert.Matches(@"\n  [12]  AC0001  Checkout\.cs:16 .+ not observable  not observable\n", withoutHops.StandardOutput.ReplaceLineEndings("\n"));
        Assert.All(withoutHops.StandardOutput.ReplaceLineEndings("\n").Split('\n'), l => Assert.True(l.Length <= 80, $"{l.Length} > 80: {l}"));
    }

    [Fact]
    public async Task The_sync_completing_findings_are_measured_or_say_why_they_are_not_observable_never_not_exercised()
    {
        var hot = await HotFindingsAsync();

        foreach (var rule in new[] { "AC0002", "AC0003" })
        {
            var finding = Finding(hot, rule);
            var verdict = (string)finding["verdict"]!;
            Assert.True(verdict == "measured" ? finding["time"]!["milliseconds"] is not null : verdict == "notObservable" && finding["verdictReason"] is not null, finding.ToJsonString());
        }
        Assert.Contains("Task`1[System.Decimal]", (string)Finding(hot, "AC0003")["verdictReason"]!, StringComparison.Ordinal);
        Assert.DoesNotContain(hot["findings"]!.AsArray(), f => (string)f!["verdict"]! == "notExercised");
    }

    [Fact]
    public async Task The_async_iterators_calls_are_its_items()
    {
        var hot = await HotFindingsAsync();

        // Each coupon the iterator yields waits for one LoadCouponAsync round trip: as many MoveNextAsync calls that suspend as loads.
        var items = (double)Method(hot, "WebShop.Discounts.LoadCouponAsync")["suspendingCalls"]!["value"]!;
        var calls = (double)Method(hot, "WebShop.Discounts.CouponsAsync")["suspendingCalls"]!["value"]!;
        Assert.InRange(calls, items * 0.98, items * 1.02);
    }
}
