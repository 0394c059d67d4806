namespace AsyncCost.Samples.Tests;

/// <summary>
/// The samples show each AsyncCost rule where they are meant to, and nowhere else; the Fixed twins show none.
/// Only the rules the analyzer assembly implements are checked (the SARIF log lists them), so each rule is held to
/// the samples from the moment it exists.
/// </summary>
[Collection(BuiltSamplesDefinition.Name)]
public sealed class SampleFindingsTests(BuiltSamples samples)
{
    private const string Pipeline = "ChattyPipeline.OrderPipeline.";
    private const string Service = "StockPrices.Library.StockPriceService.";
    private const string Feed = "StockPrices.Library.SimulatedPriceFeed.";
    private const string Shop = "WebShop.";

    // Per sample project: the (rule, containing method) pairs its code comments promise.
    public static TheoryData<string, string[]> ExpectedFindings => new()
    {
        {
            "ChattyPipeline",
            [
                "AC0001 " + Pipeline + "ProduceOrdersAsync",
                "AC0005 " + Pipeline + "ProduceOrdersAsync",
                "AC0006 " + Pipeline + "ProduceOrdersAsync",
                "AC0007 " + Pipeline + "ProduceOrdersAsync",
            ]
        },
        {
            "StockPrices.Library",
            [
                "AC0002 " + Service + "GetExchangeRateAsync",
                "AC0003 " + Service + "GetPriceAsync",
                "AC0004 " + Service + "GetPriceAsync",
                "AC0004 " + Service + "GetPositionValueAsync.AwaitInitializationAsync", // the await is in the local function: its own key
                "AC0004 " + Service + "GetPriceInCurrencyAsync",
                "AC0004 " + Service + "GetExchangeRateAsync",
                "AC0004 " + Service + "InitializeIfNeededAsync",
                "AC0004 " + Feed + "LoadPricesAsync",
                "AC0004 " + Feed + "GetExchangeRateAsync",
                "AC0009 " + Service + "GetPositionValueAsync",
            ]
        },
        {
            "WebShop",
            [
                "AC0001 " + Shop + "Checkout.CheckoutAsync",
                "AC0002 " + Shop + "Catalog.GetPriceAsync",
                "AC0003 " + Shop + "Shipping.GetRateAsync",
                "AC0006 " + Shop + "Checkout.CheckoutAsync",
            ]
        },
        { "StockPrices", [] },
        { "ChattyPipeline.Fixed", [] },
        { "StockPrices.Fixed", [] },
        { "WebShop.Fixed", [] },
        { "StockPrices.Fixed.Library", [] },
    };

    [Theory]
    [MemberData(nameof(ExpectedFindings))]
    public void Each_implemented_rule_flags_exactly_the_promised_methods(string project, string[] expected)
    {
        Assert.True(samples.Build.ExitCode == 0, $"samples build failed: {samples.Build}");
        SarifLog log = SarifLog.Read(samples.SarifLog(project));
        HashSet<string> implemented = log.RuleIds.Where(IsAsyncCostRule).ToHashSet(StringComparer.Ordinal);
        Assert.NotEmpty(implemented);

        string[] actual = log.Findings
            .Where(finding => IsAsyncCostRule(finding.RuleId))
            .Select(finding => $"{finding.RuleId} {finding.Method}")
            .Distinct(StringComparer.Ordinal)
            .Order(StringComparer.Ordinal)
            .ToArray();
        string[] promised = expected
            .Where(finding => implemented.Contains(finding.Split(' ')[0]))
            .Order(StringComparer.Ordinal)
            .ToArray();

        Assert.True(
            promised.SequenceEqual(actual),
            $"""
            {project}: rules implemented: {string.Join(", ", implemented.Order(StringComparer.Ordinal))}
            promised: {string.Join("; ", promised)}
            found:    {string.Join("; ", log.Findings.Where(f => IsAsyncCostRule(f.RuleId)).Select(f => $"{f.RuleId} {f.Method} at {f.Location}"))}
            """);
    }

    private static bool IsAsyncCostRule(string ruleId) => ruleId.StartsWith("AC", StringComparison.Ordinal);
}
