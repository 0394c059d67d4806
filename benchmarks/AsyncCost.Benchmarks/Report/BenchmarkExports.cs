using System.Globalization;
using System.Text.Json;

namespace AsyncCost.Benchmarks.Report;

/// <summary>One benchmark case as BenchmarkDotNet's full JSON exporter wrote it.</summary>
public sealed record ExportedCase(
    string Type,
    string Method,
    string Job,
    IReadOnlyDictionary<string, string> Parameters,
    double MeanNanoseconds,
    double? AllocatedBytesPerOperation,
    IReadOnlyDictionary<string, double> Metrics)
{
    public double MeanMicroseconds => MeanNanoseconds / 1_000;

    public double MeanMilliseconds => MeanNanoseconds / 1_000_000;

    public double? Metric(string id) => Metrics.TryGetValue(id, out var value) ? value : null;
}

/// <summary>The environment a set of exports was taken in (BenchmarkDotNet's HostEnvironmentInfo) and when.</summary>
public sealed record ExportHost(
    string BenchmarkDotNetVersion, string Os, string Processor, int LogicalCores, string Runtime, DateTime TakenAt);

/// <summary>
/// All full-JSON exports under one folder (BenchmarkDotNet's <c>--artifacts</c> folder: <c>results/*-report-full.json</c>),
/// with lookups by type, method, parameters and job.
/// </summary>
public sealed class BenchmarkExports
{
    private readonly List<ExportedCase> _cases = [];

    public IReadOnlyList<ExportedCase> Cases => _cases;

    /// <summary>The newest export's host, or null when the folder had none.</summary>
    public ExportHost? Host { get; private set; }

    public static BenchmarkExports Load(string folder)
    {
        var exports = new BenchmarkExports();
        if (!Directory.Exists(folder))
            return exports;
        foreach (var file in Directory.EnumerateFiles(folder, "*-report-full.json", SearchOption.AllDirectories).Order(StringComparer.Ordinal))
            exports.Add(file);
        return exports;
    }

    private void Add(string file)
    {
        using var document = JsonDocument.Parse(File.ReadAllText(file));
        var root = document.RootElement;
        var host = root.GetProperty("HostEnvironmentInfo");
        var takenAt = TakenAt(root.GetProperty("Title").GetString() ?? "", file);
        if (Host is null || takenAt > Host.TakenAt)
        {
            Host = new ExportHost(
                host.GetProperty("BenchmarkDotNetVersion").GetString() ?? "?",
                host.GetProperty("OsVersion").GetString() ?? "?",
                host.GetProperty("ProcessorName").GetString() ?? "?",
                host.GetProperty("LogicalCoreCount").GetInt32(),
                host.GetProperty("RuntimeVersion").GetString() ?? "?",
                takenAt);
        }

        foreach (var benchmark in root.GetProperty("Benchmarks").EnumerateArray())
        {
            var statistics = benchmark.GetProperty("Statistics");
            if (statistics.ValueKind != JsonValueKind.Object)
                continue; // a case that failed has no statistics
            double? allocated = benchmark.TryGetProperty("Memory", out var memory) && memory.ValueKind == JsonValueKind.Object
                ? memory.GetProperty("BytesAllocatedPerOperation").GetDouble()
                : null;
            var metrics = new Dictionary<string, double>();
            if (benchmark.TryGetProperty("Metrics", out var metricArray))
            {
                foreach (var metric in metricArray.EnumerateArray())
                {
                    if (metric.GetProperty("Value").ValueKind == JsonValueKind.Number)
                        metrics[metric.GetProperty("Descriptor").GetProperty("Id").GetString() ?? ""] = metric.GetProperty("Value").GetDouble();
                }
            }
            _cases.Add(new ExportedCase(
                benchmark.GetProperty("Type").GetString() ?? "",
                benchmark.GetProperty("Method").GetString() ?? "",
                JobOf(benchmark.GetProperty("DisplayInfo").GetString() ?? ""),
                ParametersOf(benchmark.GetProperty("Parameters").GetString() ?? ""),
                statistics.GetProperty("Mean").GetDouble(),
                allocated,
                metrics));
        }
    }

    /// <summary>The case of <paramref name="type"/>.<paramref name="method"/> with the given parameters ("Name=Value")
    /// and, when given, job id; null when the run did not include it.</summary>
    public ExportedCase? Find(string type, string method, string? job = null, params string[] parameters) =>
        _cases.LastOrDefault(c =>
            c.Type == type && c.Method == method && (job is null || c.Job == job) &&
            parameters.All(p => p.Split('=', 2) is [var name, var value] && c.Parameters.GetValueOrDefault(name) == value));

    /// <summary>"Type.Method: Job(Characteristics)" → "Job".</summary>
    private static string JobOf(string displayInfo)
    {
        var colon = displayInfo.LastIndexOf(": ", StringComparison.Ordinal);
        if (colon < 0)
            return "";
        var job = displayInfo[(colon + 2)..];
        var parenthesis = job.IndexOf('(', StringComparison.Ordinal);
        return parenthesis < 0 ? job.Trim() : job[..parenthesis].Trim();
    }

    /// <summary>"Readers=4&amp;Writers=2" → {Readers: 4, Writers: 2}.</summary>
    private static Dictionary<string, string> ParametersOf(string parameters) =>
        parameters.Split('&', StringSplitOptions.RemoveEmptyEntries)
            .Select(p => p.Split('=', 2))
            .Where(p => p.Length == 2)
            .ToDictionary(p => p[0], p => p[1]);

    /// <summary>BenchmarkDotNet titles end in "-yyyyMMdd-HHmmss"; the file time stands in when one does not.</summary>
    private static DateTime TakenAt(string title, string file)
    {
        var dash = title.Length >= 15 ? title[^15..] : "";
        return DateTime.TryParseExact(dash, "yyyyMMdd-HHmmss", CultureInfo.InvariantCulture, DateTimeStyles.AssumeLocal, out var at)
            ? at
            : File.GetLastWriteTime(file);
    }
}
