using System;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Threading;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;

namespace AsyncCost.Analyzers.Internal;

/// <summary>
/// What each finding measurably cost at run time, from the file <c>dotnet-asynccost collect --sarif … -o base</c> writes
/// beside its report (<c>base.costs.tsv</c>), read only when the project lists it as an <c>AdditionalFiles</c> item: a
/// build never reads a file it was not given. Where static evidence is missing, the measurement decides: a finding
/// measured at or above the team's threshold (<c>asynccost.measured_cost_warning_ms</c>, milliseconds per operation or
/// per second of recording, 1 by default) is a warning whose message says what it cost and where it was measured; one
/// measured at zero on a path that ran is a suggestion, whatever the static evidence said. A finding the file does not
/// name keeps its own severity. Findings join by rule, file name and line; where the line moved, by rule and method
/// when that names one finding.
/// </summary>
internal sealed class MeasuredCosts
{
    /// <summary>The .editorconfig / .globalconfig key of the threshold.</summary>
    public const string ThresholdOption = "asynccost.measured_cost_warning_ms";

    private const string Header = "# asynccost measured costs 1";
    private const string WherePrefix = "# measured: ";

    private readonly ImmutableArray<Measurement> _measurements;
    private readonly double _thresholdMilliseconds;

    private MeasuredCosts(ImmutableArray<Measurement> measurements, double thresholdMilliseconds)
    {
        _measurements = measurements;
        _thresholdMilliseconds = thresholdMilliseconds;
    }

    /// <summary>The measured costs the project lists, or null when it lists none (the common case: nothing to read).</summary>
    public static MeasuredCosts? Load(Compilation compilation, AnalyzerOptions options, CancellationToken cancellationToken)
    {
        var measurements = ImmutableArray.CreateBuilder<Measurement>();
        foreach (var file in options.AdditionalFiles)
        {
            if (!file.Path.EndsWith(".costs.tsv", StringComparison.OrdinalIgnoreCase) || file.GetText(cancellationToken) is not { } text)
            {
                continue;
            }
            var lines = text.Lines.Select(line => line.ToString()).ToList();
            if (lines.Count == 0 || lines[0].Trim() != Header)
            {
                continue; // another tool's file of the same ending
            }
            var where = lines.FirstOrDefault(line => line.StartsWith(WherePrefix, StringComparison.Ordinal))?.Substring(WherePrefix.Length).Trim() ?? Path.GetFileName(file.Path);
            measurements.AddRange(lines.Where(line => line.Length > 0 && line[0] != '#').Select(line => Measurement.Parse(line, where)).OfType<Measurement>());
        }
        if (measurements.Count == 0)
        {
            return null;
        }
        // A .globalconfig reaches every file; an .editorconfig's [*.cs] section reaches each source file alike.
        var threshold = (options.AnalyzerConfigOptionsProvider.GlobalOptions.TryGetValue(ThresholdOption, out var configured)
                || compilation.SyntaxTrees.FirstOrDefault() is { } tree && options.AnalyzerConfigOptionsProvider.GetOptions(tree).TryGetValue(ThresholdOption, out configured))
            && double.TryParse(configured, NumberStyles.Float, CultureInfo.InvariantCulture, out var parsed) && parsed >= 0
                ? parsed
                : 1.0;
        return new MeasuredCosts(measurements.ToImmutable(), threshold);
    }

    /// <summary>The measurement of a finding: by rule, file name and line, else by rule and method when only one matches.</summary>
    public Measurement? Of(string ruleId, Location location, string? methodKey)
    {
        var span = location.GetLineSpan();
        var file = Path.GetFileName(span.Path);
        var line = span.StartLinePosition.Line + 1;
        var exact = _measurements.FirstOrDefault(m => m.RuleId == ruleId && m.Line == line && string.Equals(m.File, file, StringComparison.OrdinalIgnoreCase));
        if (exact is not null || methodKey is null)
        {
            return exact;
        }
        var inMethod = _measurements.Where(m => m.RuleId == ruleId && m.MethodKey == methodKey).Take(2).ToList();
        return inMethod.Count == 1 ? inMethod[0] : null;
    }

    /// <summary>The severity the measurement gives, or null when it does not decide (not measured, or measured below the threshold but above zero).</summary>
    public DiagnosticSeverity? SeverityOf(Measurement measurement) =>
        !measurement.IsMeasured ? null
        : measurement.LowerBoundMilliseconds >= _thresholdMilliseconds && measurement.Milliseconds > 0 ? DiagnosticSeverity.Warning
        : measurement.Milliseconds == 0 ? DiagnosticSeverity.Info
        : null;

    /// <summary>One finding's line of the file.</summary>
    internal sealed class Measurement
    {
        private Measurement(string ruleId, string file, int line, string? methodKey, bool isMeasured, double milliseconds, double lowerBound, string per, string basis, string where)
        {
            RuleId = ruleId;
            File = file;
            Line = line;
            MethodKey = methodKey;
            IsMeasured = isMeasured;
            Milliseconds = milliseconds;
            LowerBoundMilliseconds = lowerBound;
            Per = per;
            Basis = basis;
            Where = where;
        }

        public string RuleId { get; }
        public string File { get; }
        public int Line { get; }
        public string? MethodKey { get; }
        public bool IsMeasured { get; }
        public double Milliseconds { get; }
        public double LowerBoundMilliseconds { get; }
        public string Per { get; }
        public string Basis { get; }
        public string Where { get; }

        /// <summary>For the message: "measured 16.2 ms per operation (at least 15.1 ms; CalleeElapsed) in dotnet WebShop.dll (pid 42), …".</summary>
        public string Describe() => IsMeasured
            ? "measured " + Number(Milliseconds) + " ms per " + Per + " (at least " + Number(LowerBoundMilliseconds) + " ms; " + Basis + ") in " + Where
            : "not measured in " + Where;

        // Three significant digits, never an exponent: 1360, 16.2, 0.4, 0.0123.
        private static string Number(double value) =>
            value >= 100 ? Math.Round(value).ToString("0", CultureInfo.InvariantCulture)
            : value >= 1 ? value.ToString("0.#", CultureInfo.InvariantCulture)
            : value.ToString("0.###", CultureInfo.InvariantCulture);

        // A malformed line is left out, never an error: the file is an input to a build, which must not fail on it.
        public static Measurement? Parse(string line, string where)
        {
            var fields = line.Split('\t');
            if (fields.Length < 9 || !int.TryParse(fields[2], NumberStyles.Integer, CultureInfo.InvariantCulture, out var number))
            {
                return null;
            }
            var isMeasured = fields[4] == "measured"
                && double.TryParse(fields[5], NumberStyles.Float, CultureInfo.InvariantCulture, out _)
                && double.TryParse(fields[6], NumberStyles.Float, CultureInfo.InvariantCulture, out _);
            var milliseconds = isMeasured ? double.Parse(fields[5], CultureInfo.InvariantCulture) : 0;
            var lower = isMeasured ? double.Parse(fields[6], CultureInfo.InvariantCulture) : 0;
            return new Measurement(fields[0], fields[1], number, fields[3].Length == 0 ? null : fields[3], isMeasured, milliseconds, lower, fields[7], fields[8], where);
        }
    }
}
