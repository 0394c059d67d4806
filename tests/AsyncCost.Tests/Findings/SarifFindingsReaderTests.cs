using AsyncCost.Findings;

namespace AsyncCost.Tests.Findings;

public class SarifFindingsReaderTests
{
    // The shape the C# compiler writes with -p:ErrorLog=build.sarif%2Cversion=2.1 (trimmed).
    private const string Sarif21 = """
        {
          "$schema": "http://json.schemastore.org/sarif-2.1.0",
          "version": "2.1.0",
          "runs": [{
            "results": [
              { "ruleId": "AC0005", "level": "warning", "message": { "text": "Task.Yield in a loop" },
                "locations": [{ "physicalLocation": { "artifactLocation": { "uri": "file:///src/Pipeline.cs" },
                  "region": { "startLine": 12, "startColumn": 17, "endLine": 12, "endColumn": 40 } } }],
                "properties": { "warningLevel": 1, "customProperties": { "AsyncCostMethod": "Chatty.Pipeline.RunAsync" } } },
              { "ruleId": "AC0005", "level": "warning", "message": { "text": "Task.Yield in a loop" },
                "locations": [{ "physicalLocation": { "artifactLocation": { "uri": "file:///src/Pipeline.cs" },
                  "region": { "startLine": 12, "startColumn": 17 } } }],
                "properties": { "warningLevel": 1, "customProperties": { "AsyncCostMethod": "Chatty.Pipeline.RunAsync" } } },
              { "ruleId": "CA1822", "level": "note", "message": { "text": "Mark members as static" },
                "locations": [{ "physicalLocation": { "artifactLocation": { "uri": "file:///src/Pipeline.cs" },
                  "region": { "startLine": 3, "startColumn": 5 } } }] },
              { "ruleId": "AC0002", "level": "note", "message": { "text": "ValueTask fits" },
                "properties": { "customProperties": { "AsyncCostMethod": "Chatty.Cache.GetAsync" } } }
            ],
            "tool": { "driver": { "name": "Microsoft (R) Visual C# Compiler", "rules": [
              { "id": "AC0005", "properties": { "category": "Performance", "tags": ["AsyncCost.Cost.Hops"] } },
              { "id": "AC0002", "properties": { "category": "Performance", "tags": ["AsyncCost.Cost.Allocations"] } },
              { "id": "CA1822", "properties": { "category": "Performance", "tags": ["PortedFromFxCop"] } }
            ] } }
          }]
        }
        """;

    // The compiler's default (1.0) format.
    private const string Sarif10 = """
        {
          "version": "1.0.0",
          "runLogs": [],
          "runs": [{
            "results": [
              { "ruleId": "AC0006", "level": "warning", "message": "Blocking on a task",
                "locations": [{ "resultFile": { "uri": "file:///src/Program.cs", "region": { "startLine": 7, "startColumn": 9 } } }],
                "properties": { "warningLevel": 1, "customProperties": { "AsyncCostMethod": "Chatty.Program.Consume", "AsyncCostCostIn": "Chatty.Discounts.GetAsync;Chatty.Stock.ReserveAsync" } } }
            ],
            "rules": {
              "AC0006": { "id": "AC0006", "defaultLevel": "note", "properties": { "category": "Performance", "tags": ["AsyncCost.Cost.Blocking"] } }
            }
          }]
        }
        """;

    [Fact]
    public void Reads_AsyncCost_findings_with_location_join_key_and_cost_kind()
    {
        var findings = SarifFindingsReader.Parse(Sarif21, "build.sarif");

        var yield = findings[0];
        Assert.Equal("AC0005", yield.RuleId);
        Assert.Equal("warning", yield.Level);
        Assert.Equal("Task.Yield in a loop", yield.Message);
        Assert.Equal("/src/Pipeline.cs", yield.FilePath);
        Assert.Equal(12, yield.Line);
        Assert.Equal(17, yield.Column);
        Assert.Equal("Chatty.Pipeline.RunAsync", yield.MethodKey);
        Assert.Equal(FindingCostKind.Hops, yield.CostKind);
    }

    [Fact]
    public void Reads_the_methods_a_findings_cost_is_spent_in_and_none_when_the_property_is_absent()
    {
        Assert.Equal(["Chatty.Discounts.GetAsync", "Chatty.Stock.ReserveAsync"], Assert.Single(SarifFindingsReader.Parse(Sarif10, "build.sarif")).CostMethodKeys);
        Assert.All(SarifFindingsReader.Parse(Sarif21, "build.sarif"), f => Assert.Empty(f.CostMethodKeys));
    }

    [Fact]
    public void Drops_duplicate_results_and_results_without_a_join_key()
    {
        var findings = SarifFindingsReader.Parse(Sarif21, "build.sarif");

        Assert.Equal(["AC0005", "AC0002"], findings.Select(f => f.RuleId));
        Assert.Null(findings[1].FilePath);
        Assert.Equal(FindingCostKind.Allocations, findings[1].CostKind);
    }

    [Fact]
    public void Reads_the_compilers_default_SARIF_1_0_format()
    {
        var finding = Assert.Single(SarifFindingsReader.Parse(Sarif10, "build.sarif"));

        Assert.Equal(("AC0006", "Blocking on a task", "/src/Program.cs", 7), (finding.RuleId, finding.Message, finding.FilePath, finding.Line));
        // 1.0 keeps the rules in the run, keyed by id (2.1: tool.driver.rules): the cost kind is read from there.
        Assert.Equal(FindingCostKind.Blocking, finding.CostKind);
    }

    [Theory]
    [InlineData("not json at all")]
    [InlineData("""{ "version": "2.1.0" }""")]
    [InlineData("[1, 2, 3]")]
    [InlineData("""{ "runs": [{ "results": [""")]
    public void Rejects_what_is_not_a_SARIF_log_with_a_typed_error(string text)
    {
        var error = Assert.Throws<FindingsFileInvalidException>(() => SarifFindingsReader.Parse(text, "build.sarif"));
        Assert.Equal(AsyncCostErrorKind.FindingsFileInvalid, error.Kind);
        Assert.Contains("build.sarif", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_missing_file_is_a_typed_error()
    {
        var path = Path.Combine(Path.GetTempPath(), Guid.NewGuid() + ".sarif");
        var error = Assert.Throws<FindingsFileNotFoundException>(() => SarifFindingsReader.Read(path));
        Assert.Equal(AsyncCostErrorKind.FindingsFileNotFound, error.Kind);
    }

    private const string NoResults = """
        { "version": "2.1.0", "runs": [{ "results": [], "tool": { "driver": { "name": "Microsoft (R) Visual C# Compiler" } } }] }
        """;

    private const string OtherRulesOnly = """
        { "version": "2.1.0", "runs": [{ "results": [
            { "ruleId": "CA1822", "level": "note", "message": { "text": "Mark members as static" } }
          ], "tool": { "driver": { "name": "Microsoft (R) Visual C# Compiler" } } }] }
        """;

    [Fact]
    public void Several_logs_join_and_a_log_without_findings_is_named_in_a_warning()
    {
        using var folder = new TempFolder();
        var library = folder.Write("lib/build.sarif", Sarif21);
        var app = folder.Write("app/build.sarif", Sarif10);
        var empty = folder.Write("tests/build.sarif", NoResults);
        var otherRules = folder.Write("tools/build.sarif", OtherRulesOnly);

        var read = SarifFindingsReader.ReadAll([library, app, empty, otherRules]);

        Assert.Equal(
            SarifFindingsReader.Read(library).Concat(SarifFindingsReader.Read(app)).Select(f => (f.RuleId, f.MethodKey)),
            read.Findings.Select(f => (f.RuleId, f.MethodKey)));
        Assert.Equal(["sarif-empty", "sarif-empty"], read.Warnings.Select(w => w.Code));
        Assert.Contains(empty + " has no results", read.Warnings[0].Message, StringComparison.Ordinal);
        Assert.Contains(otherRules + " has 1 results but none from the AsyncCost analyzers", read.Warnings[1].Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_log_from_another_tool_is_named_as_such_in_one_warning()
    {
        using var folder = new TempFolder();
        var eslint = folder.Write("eslint.sarif", """
            { "version": "2.1.0", "runs": [{ "tool": { "driver": { "name": "ESLint", "rules": [{ "id": "no-unused-vars" }] } },
              "results": [{ "ruleId": "no-unused-vars", "level": "warning", "message": { "text": "'x' is assigned a value but never used." } }] }] }
            """);

        var read = SarifFindingsReader.ReadAll([eslint]);

        Assert.Empty(read.Findings);
        var warning = Assert.Single(read.Warnings);
        Assert.Equal("sarif-empty", warning.Code);
        Assert.Equal(eslint + " is a SARIF log from ESLint, not from a .NET build with the AsyncCost analyzers: it has no AsyncCost findings to rank.", warning.Message);
    }

    [Fact]
    public void A_folder_stands_for_every_sarif_log_in_it_and_the_same_finding_counts_once()
    {
        using var folder = new TempFolder();
        folder.Write("a.sarif", Sarif21);
        folder.Write("b.sarif", Sarif21);
        folder.Write("notes.txt", "not a log");

        var read = SarifFindingsReader.ReadAll([folder.Path]);

        Assert.Equal(SarifFindingsReader.Parse(Sarif21, "a").Count, read.Findings.Count);
        Assert.Empty(read.Warnings);
    }

    [Fact]
    public void A_folder_without_logs_is_a_typed_error()
    {
        using var folder = new TempFolder();

        Assert.Throws<FindingsFileNotFoundException>(() => SarifFindingsReader.ReadAll([folder.Path]));
    }

    private sealed class TempFolder : IDisposable
    {
        public string Path { get; } = Directory.CreateTempSubdirectory("asynccost-sarif-").FullName;

        public string Write(string relative, string text)
        {
            var file = System.IO.Path.Combine(Path, relative);
            Directory.CreateDirectory(System.IO.Path.GetDirectoryName(file)!);
            File.WriteAllText(file, text);
            return file;
        }

        public void Dispose() => Directory.Delete(Path, recursive: true);
    }
}
