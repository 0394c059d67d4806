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
    public async Task The_blocking_wait_has_a_measured_share_and_blocked_time_per_call()
    {
        var hot = await HotFindingsAsync();

        var blocking = Finding(hot, "AC0006");
        Assert.Equal("measured", (string)blocking["verdict"]!);
        Assert.Equal("WebShop.Checkout.CheckoutAsync", (string)blocking["finding"]!["methodKey"]!);
        Assert.InRange((double)blocking["share"]!, 0.5, 1);
        var checkout = Method(hot, "WebShop.Checkout.CheckoutAsync");
        var blockedPerCall = (double)checkout["blockedMilliseconds"]!["value"]! / (double)checkout["suspendingCalls"]!["value"]!;
        Assert.True(blockedPerCall > 0, $"blocked ms per call: {blockedPerCall}");
    }

    [Fact]
    public async Task The_sync_completing_findings_are_measured_or_say_why_they_are_not_observable_never_not_exercised()
    {
        var hot = await HotFindingsAsync();

        foreach (var rule in new[] { "AC0002", "AC0003" })
        {
            var finding = Finding(hot, rule);
            var verdict = (string)finding["verdict"]!;
            Assert.True(verdict == "measured" ? finding["share"] is not null : verdict == "notObservable" && finding["verdictReason"] is not null, finding.ToJsonString());
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
