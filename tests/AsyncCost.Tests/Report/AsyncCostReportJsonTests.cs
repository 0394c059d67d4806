using System.Text.Json;
using AsyncCost.Report;

namespace AsyncCost.Tests.Report;

public class AsyncCostReportJsonTests
{
    private static AsyncCostReport SampleReport() => new()
    {
        Source = new ReportSource { Kind = SourceKind.Launch, ProcessId = 42, ProcessName = "app", ExitCode = 0 },
        Duration = TimeSpan.FromSeconds(2),
        Passes = [new PassSummary { Pass = MeasurementPasses.Allocations, Duration = TimeSpan.FromSeconds(2), Events = 10, AllocationEvent = "AllocationSampled" }],
        Methods =
        [
            new MethodCost
            {
                MethodKey = "Ns.Service.GetAsync",
                DisplayName = "Ns.Service.GetAsync",
                Calls = new Figure { Value = 100, ErrorBound = 5, Samples = 40, Sampled = true, Source = FigureSource.AllocationPass },
                SampledCalls = new Figure { Value = 100, ErrorBound = 5, Samples = 40, Sampled = true, Source = FigureSource.AllocationPass },
                SuspendingCalls = Figure.Exact(98, FigureSource.HopPass),
                Bytes = new Figure { Value = 9600, ErrorBound = 480, Samples = 40, Sampled = true, Source = FigureSource.AllocationPass },
                BytesPerCall = new Figure { Value = 96, ErrorBound = 0.5, Samples = 40, Sampled = true, Source = FigureSource.AllocationPass },
            },
        ],
        Warnings = [new ReportWarning("low-samples", "Few samples.")],
        CutShort = true,
        StopReason = StopReason.ProcessExited,
    };

    [Fact]
    public void Writes_camel_case_with_schema_version_and_enum_names()
    {
        var json = AsyncCostReportJson.Serialize(SampleReport());

        using var document = JsonDocument.Parse(json);
        var root = document.RootElement;
        Assert.Equal(AsyncCostReport.CurrentSchemaVersion, root.GetProperty("schemaVersion").GetInt32());
        Assert.Equal("launch", root.GetProperty("source").GetProperty("kind").GetString());
        Assert.Equal("processExited", root.GetProperty("stopReason").GetString());
        var method = root.GetProperty("methods")[0];
        Assert.Equal("Ns.Service.GetAsync", method.GetProperty("methodKey").GetString());
        Assert.Equal(96, method.GetProperty("bytesPerCall").GetProperty("value").GetDouble());
        Assert.Equal("allocationPass", method.GetProperty("bytes").GetProperty("source").GetString());
        // Each figure says whether it is exact or an estimate, and an estimate its bound, absolute and relative.
        var calls = method.GetProperty("calls");
        Assert.Equal(("estimate", 5, 0.05), (calls.GetProperty("kind").GetString(), calls.GetProperty("errorBound").GetDouble(), calls.GetProperty("relativeError").GetDouble()));
        var suspending = method.GetProperty("suspendingCalls");
        Assert.Equal(("exact", 0), (suspending.GetProperty("kind").GetString(), suspending.GetProperty("errorBound").GetDouble()));
    }

    [Fact]
    public void Reads_a_version_1_report_whose_per_call_figures_were_numbers_and_calls_the_sampled_estimate()
    {
        const string version1 = """
            { "schemaVersion": 1, "source": { "kind": "traceFile" },
              "methods": [ { "methodKey": "Ns.A.RunAsync", "displayName": "Ns.A.RunAsync",
                "calls": { "value": 100, "errorBound": 5, "samples": 40, "sampled": true, "source": "allocationPass" },
                "bytesPerCall": 96, "objectsPerCall": 1, "hopsPerCall": null } ] }
            """;

        var method = Assert.Single(AsyncCostReportJson.Deserialize(version1).Methods);

        Assert.Equal(100, method.SampledCalls!.Value);
        Assert.Null(method.BytesPerCall);
    }

    [Fact]
    public void Round_trips()
    {
        var report = AsyncCostReportJson.Deserialize(AsyncCostReportJson.Serialize(SampleReport()));

        Assert.Equal("Ns.Service.GetAsync", Assert.Single(report.Methods).MethodKey);
        Assert.Equal(9600, report.Methods[0].Bytes!.Value);
        Assert.True(report.CutShort);
        Assert.Equal(TimeSpan.FromSeconds(2), report.Passes[0].Duration);
    }

    [Fact]
    public void Rejects_a_newer_schema_version()
    {
        var json = AsyncCostReportJson.Serialize(SampleReport()).Replace($"\"schemaVersion\": {AsyncCostReport.CurrentSchemaVersion}", "\"schemaVersion\": 999", StringComparison.Ordinal);

        Assert.Throws<JsonException>(() => AsyncCostReportJson.Deserialize(json));
    }

    [Fact]
    public void Schema_describes_the_model()
    {
        var schema = AsyncCostReportJson.GetSchema();

        var properties = schema["properties"]!.AsObject();
        Assert.True(properties.ContainsKey("schemaVersion"));
        Assert.True(properties.ContainsKey("methods"));
        Assert.True(properties.ContainsKey("cutShort"));
        // The elapsed-time figures other tools rank by carry their meaning.
        var method = properties["methods"]!["items"]!["properties"]!.AsObject();
        Assert.StartsWith("Milliseconds callers waited", method["elapsedMilliseconds"]!["description"]!.GetValue<string>(), StringComparison.Ordinal);
        Assert.StartsWith("Mean milliseconds", method["elapsedPerCallMilliseconds"]!["description"]!.GetValue<string>(), StringComparison.Ordinal);
    }
}
