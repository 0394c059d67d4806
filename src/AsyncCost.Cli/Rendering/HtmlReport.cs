using System.Globalization;
using System.Text;
using AsyncCost.Findings;
using AsyncCost.Report;

namespace AsyncCost.Cli.Rendering;

/// <summary>
/// The report as one HTML page (--format html): the ranked findings first (with --sarif), then a sortable table of the
/// async methods with a bar per figure, then the process totals, and last the run in plain words (passes, warnings).
/// Rates are per second of the pass each figure came from (bytes from the allocation pass's time, hops from the hop
/// pass's), so a row's bars never mix the slices of different passes.
/// </summary>
internal static class HtmlReport
{
    /// <summary>One column of the methods table: a figure of a row, drawn as a bar.</summary>
    /// <param name="Missing">What a row without the figure shows ("-", or "not observable" for calls no pass could count).</param>
    private sealed record MethodColumn(string Header, Func<MethodCost, Figure?> Value, Func<double, string> Format, string Meaning, string Missing = "-");

    public static void Write(AsyncCostReport report, HotFindingsReport? hot, bool allMethods, TextWriter output)
    {
        var text = ReportDocument.Create(report, allMethods);
        var page = new HtmlPage("AsyncCost report");
        page.Paragraph(text.Lines[0], "meta");
        var rows = ReportDocument.Rows(report, allMethods).ToList();
        if (hot is not null)
        {
            page.Raw(Findings(hot, rows));
        }

        if (ReportDocument.Endpoints(report) is { } endpoints)
        {
            page.Table(endpoints);
        }
        if (rows.Count > 0)
        {
            page.Raw(Methods(report, rows));
        }
        if (ReportDocument.ElapsedDistributions(report, allMethods) is { } distributions)
        {
            page.Table(distributions);
        }

        page.Raw(CallTreeHtml.Section(report, allMethods));

        if (report.PlainMethodAllocations.Count > 0)
        {
            page.Table(ReportDocument.PlainMethods(report));
        }
        if (report.UnattributedAllocations.Count > 0)
        {
            page.Table(ReportDocument.Unattributed(report));
        }

        page.Table(ReportDocument.Totals(report));
        if (report.Threads.Count > 0)
        {
            page.Table(ReportDocument.ThreadClasses(report));
        }

        page.Heading(2, "The run", "run").List(text.Lines, "run");
        if (report.Warnings.Count > 0)
        {
            page.Heading(2, "Warnings", "warnings").List(report.Warnings.Select(w => w.Message), "warnings");
        }

        page.Write(output);
    }

    public static void Write(Comparison comparison, TextWriter output)
    {
        var page = new HtmlPage("AsyncCost comparison");
        page.Paragraph(comparison.Summary(), "verdict");
        page.List([$"{comparison.Headings.Before}: {comparison.BeforeName}", $"{comparison.Headings.After}: {comparison.AfterName}"], "meta");
        var html = new StringBuilder();
        html.Append("<section><h2>").Append(HtmlPage.Encode(comparison.Title))
            .Append("</h2><div class=\"scroll\"><table class=\"compare\"><thead><tr>")
            .Append(HtmlPage.Header("Figure", numeric: false)).Append(HtmlPage.Header(comparison.Headings.Before, numeric: true)).Append(HtmlPage.Header(comparison.Headings.After, numeric: true))
            .Append(HtmlPage.Header($"{comparison.Headings.After}/{comparison.Headings.Before}", numeric: true)).Append(HtmlPage.Header("Verdict", numeric: false)).Append("</tr></thead><tbody>");
        foreach (var figure in comparison.Figures)
        {
            // The badge says what the verdict sentence says of the figure: both read the comparison's judgement.
            var (tag, label) = comparison.Judge(figure) switch
            {
                Judgement.Improved => ("change", "better beyond its bound and " + comparison.ThresholdText),
                Judgement.Regressed => ("change worse", "worse beyond its bound and " + comparison.ThresholdText),
                Judgement.Unchanged => ("noise", "within the noise or " + comparison.ThresholdText),
                Judgement.LoadDependent => ("noise", "moves with the machine's load: not judged"),
                Judgement.NotCompared => ("noise", "passes differ: not compared"),
                Judgement.NotJudged => ("noise", comparison.Basis == ComparisonBasis.PerSecond ? "per second: not judged" : "shown, not judged"),
                _ => ("", ""),
            };
            var scale = HtmlPage.Scale([figure.Before, figure.After]);
            html.Append(CultureInfo.InvariantCulture, $"<tr{(tag.StartsWith("change", StringComparison.Ordinal) ? " class=\"change\"" : "")}><td>{HtmlPage.Encode(figure.Name)}</td>")
                .Append(HtmlPage.BarCell(figure.Before, scale, figure.Format)).Append(HtmlPage.BarCell(figure.After, scale, figure.Format))
                .Append("<td class=\"num\">").Append(HtmlPage.Encode(Comparison.RatioCell(figure))).Append("</td><td>")
                .Append(tag.Length == 0 ? "" : $"<span class=\"tag {tag}\">{HtmlPage.Encode(label)}</span>").Append("</td></tr>");
        }
        html.Append("</tbody></table></div><p class=\"note\">Bars of a row share one scale; an estimate's whisker spans its 95 % bound. A change is named only "
            + "outside both runs' bounds and beyond the threshold, and only of throughput and the costs per operation the verdict names.</p></section>\n");
        if (comparison.FindingTimes is { } findingTimes)
        {
            html.Append(FindingTimes(findingTimes, comparison));
        }

        page.Raw(html.ToString());
        page.Write(output);
    }

    /// <summary>The first run's findings, each with its time in both runs as bars on one scale and what became of it.</summary>
    private static string FindingTimes(FindingTimesCompared findingTimes, Comparison comparison)
    {
        var html = new StringBuilder();
        html.Append("<section id=\"finding-times\"><h2>").Append(HtmlPage.Encode(FindingTimesCompared.Title(comparison.Basis, comparison.Noun))).Append("</h2><div class=\"scroll\"><table class=\"compare\"><thead><tr>")
            .Append(HtmlPage.Header("#", numeric: true)).Append(HtmlPage.Header("Rule", numeric: false)).Append(HtmlPage.Header("Where", numeric: false))
            .Append(HtmlPage.Header("Cost in", numeric: false)).Append(HtmlPage.Header("Before", numeric: true)).Append(HtmlPage.Header("After", numeric: true))
            .Append(HtmlPage.Header("Change", numeric: false)).Append("</tr></thead><tbody>");
        foreach (var change in findingTimes.Changes)
        {
            var row = change.Before;
            var tag = change.Change switch
            {
                TimeChange.Gone or TimeChange.Reduced => "change",
                TimeChange.Increased => "change worse",
                _ => "noise",
            };
            var scale = HtmlPage.Scale([row.Time.Milliseconds, change.After.Milliseconds]);
            html.Append(CultureInfo.InvariantCulture, $"<tr{(tag.StartsWith("change", StringComparison.Ordinal) ? " class=\"change\"" : "")}><td class=\"num\">{row.Rank}</td>")
                .Append(CultureInfo.InvariantCulture, $"<td>{HtmlPage.Encode(row.Finding.RuleId)}</td><td title=\"{HtmlPage.Encode(row.Finding.FilePath ?? "")}\">")
                .Append(HtmlPage.DottedName(HotFindingsDocument.Location(row.Finding))).Append("</td><td class=\"method\">")
                .Append(HtmlPage.DottedName(findingTimes.CostIn(change))).Append("</td>")
                .Append(TimeCell(row.Time.Milliseconds, scale, row.Time.Explanation, Numbers.Time(row.Time.Milliseconds)))
                .Append(TimeCell(change.Change == TimeChange.NotObservable ? null : change.After.Milliseconds, scale, change.After.Explanation,
                    FindingTimesCompared.AfterText(change)))
                .Append(CultureInfo.InvariantCulture, $"<td><span class=\"tag {tag}\">{HtmlPage.Encode(FindingTimesCompared.ChangeText(change))}</span>")
                .Append("<div class=\"note\">").Append(HtmlPage.Encode(change.Reason)).Append("</div></td></tr>");
        }

        return html.Append("</tbody></table></div><p class=\"note\">").Append(HtmlPage.Encode(findingTimes.Note(comparison.Basis, comparison.ThresholdText))).Append("</p></section>\n").ToString();
    }

    private static string Findings(HotFindingsReport hot, IReadOnlyList<MethodCost> rows)
    {
        var keys = rows.Select(r => r.MethodKey).ToHashSet(StringComparer.Ordinal);
        var timeScale = HtmlPage.Scale(hot.Findings.Select(f => f.Time.Milliseconds));
        var per = HotFindingsDocument.Unit(hot);
        var html = new StringBuilder();
        html.Append("<section id=\"findings\"><h2>Analyzer findings, ranked by what they cost in time</h2>");
        if (hot.Findings.Count == 0)
        {
            return html.Append("<p>There are none: the SARIF logs hold no AsyncCost finding.</p></section>\n").ToString();
        }
        html.Append("<div class=\"scroll\"><table class=\"sortable findings\"><thead><tr>")
            .Append(HtmlPage.Header("#", numeric: true, sortColumn: 0)).Append(HtmlPage.Header("Rule", numeric: false, sortColumn: 1))
            .Append(HtmlPage.Header("Where", numeric: false, sortColumn: 2)).Append(HtmlPage.Header("Cost in", numeric: false, sortColumn: 3))
            .Append(HtmlPage.Header("Time" + per, numeric: true, sortColumn: 4)).Append(HtmlPage.Header("Saves" + per, numeric: true, sortColumn: 5))
            .Append(HtmlPage.Header("Proves", numeric: true, sortColumn: 6)).Append(HtmlPage.Header("Basis", numeric: false, sortColumn: 7)).Append(HtmlPage.Header("Finding", numeric: false)).Append("</tr></thead><tbody>");
        foreach (var row in hot.Findings)
        {
            var finding = row.Finding;
            var time = row.Time;
            var costKeys = HotFindingsDocument.CostKeys(row);
            var costKey = costKeys.Count > 0 ? costKeys[0] : row.Method?.MethodKey;
            var name = HotFindingsDocument.CostName(costKey, row, hot.Measured);
            var method = (costKey is not null && keys.Contains(costKey)
                ? $"<a href=\"#{MethodAnchor(costKey)}\">{HtmlPage.DottedName(name)}</a>"
                : HtmlPage.DottedName(name)) + (costKeys.Count > 1 ? string.Create(CultureInfo.InvariantCulture, $" +{costKeys.Count - 1}") : "");
            var timeCell = TimeCell(time.Milliseconds, timeScale, time.Explanation, HotFindingsDocument.TimeText(row));
            var ranked = time.Saving ?? time;
            var savingCell = TimeCell(ranked.Milliseconds, timeScale, ranked.Explanation, HotFindingsDocument.SavingText(row));
            var proves = ranked.Milliseconds is null ? "<td class=\"num\" data-v=\"-1\"></td>"
                : string.Create(CultureInfo.InvariantCulture, $"<td class=\"num\" data-v=\"{ranked.LowerBound:R}\">{HtmlPage.Encode(Numbers.Time(ranked.LowerBound))}")
                    + (ranked.FewEvents ? string.Create(CultureInfo.InvariantCulture, $" <span class=\"tag\">{ranked.Events:N0} {HtmlPage.Encode(ranked.EventName)}</span>") : "") + "</td>";
            html.Append(CultureInfo.InvariantCulture, $"<tr><td class=\"num\" data-v=\"{row.Rank}\">{row.Rank}</td><td>{HtmlPage.Encode(finding.RuleId)}</td>")
                .Append(CultureInfo.InvariantCulture, $"<td title=\"{HtmlPage.Encode(finding.FilePath ?? "")}\">{HtmlPage.DottedName(HotFindingsDocument.Location(finding))}</td>")
                .Append(CultureInfo.InvariantCulture, $"<td class=\"method\">{method}</td>").Append(timeCell).Append(savingCell).Append(proves)
                .Append(CultureInfo.InvariantCulture, $"<td>{HtmlPage.Encode(HotFindingsDocument.BasisName(time.Basis))}</td>")
                .Append("<td>").Append(HtmlPage.Encode(finding.Message))
                .Append("<div class=\"note\">").Append(HtmlPage.Encode(row.VerdictReason ?? time.Explanation)).Append("</div></td></tr>");
        }
        html.Append("</tbody></table></div><p class=\"note\">Time: what the finding costs, with its 95 % bound (the whisker); Saves: what its fix is "
            + "predicted to save (for an await in a loop, per execution of the loop its calls' elapsed time less the longest; else the time itself); "
            + "ranked by Proves, the lower end of what the saving can prove (a tag marks one resting on fewer than 10 events, ranked by their Poisson lower bound). Under each finding, the "
            + "basis its time rests on; Cost in links to the row of the method the cost is spent in. Benchmarked costs: ")
            .Append(HtmlPage.Encode(BenchmarkedCosts.Machine)).Append(".</p></section>\n");
        return html.ToString();
    }

    /// <summary>A finding's time as a bar; a measured zero with no bound (no call suspended, no wait seen) has no bar to draw
    /// and reads as <paramref name="text"/> ("0 ms"), as does a missing time ("not observable").</summary>
    private static string TimeCell(Figure? milliseconds, double scale, string title, string text) =>
        milliseconds is { } ms && (ms.Value > 0 || ms.ErrorBound > 0)
            ? HtmlPage.BarCell(ms, scale, Numbers.Time, title)
            : string.Create(CultureInfo.InvariantCulture, $"<td class=\"num\" data-v=\"{(milliseconds is null ? -1 : 0)}\">{HtmlPage.Encode(text)}</td>");

    private static string Methods(AsyncCostReport report, IReadOnlyList<MethodCost> rows)
    {
        MethodColumn[] all =
        [
            new("Calls", m => m.Calls, Numbers.Count, "calls: exact where the hop pass counted every one, else estimated", Numbers.NotObservable),
            new("Bytes/s", m => PassBasis.PerSecond(m.Bytes, report), Numbers.Bytes, "bytes allocated per second of the allocation pass"),
            new("Hops/s", m => PassBasis.PerSecond(m.Hops, report), Numbers.Count, "thread-pool hops per second of the hop pass"),
            new("Blocked ms", m => m.WaitMilliseconds ?? m.BlockedMilliseconds, Numbers.Count, "time threads were blocked in waits the method made (cpu pass, else hop pass)"),
            new("Running ms", m => m.CpuMilliseconds, Numbers.Count, "time threads ran in the method (cpu pass)"),
            new("Bytes/call", m => m.BytesPerCall, v => Numbers.PerCall(v), "bytes per call (allocation pass)"),
            new("Hops/call", m => m.HopsPerCall, v => Numbers.PerCall(v), "hops per suspending call (hop pass)"),
            new("Elapsed/call", m => m.ElapsedPerCallMilliseconds, Numbers.MillisecondsPerCall,
                "mean time a caller waited on a call that suspended, from the call (its synchronous first segment included) to its completion (hop pass)"),
        ];
        var columns = all.Where(c => rows.Any(r => c.Value(r) is not null)).ToList();
        var scales = columns.Select(c => HtmlPage.Scale(rows.Select(c.Value))).ToList();
        var html = new StringBuilder();
        html.Append("<section id=\"methods\"><h2>Async methods, most costly first</h2><div class=\"scroll\"><table class=\"sortable methods\"><thead><tr>")
            .Append(HtmlPage.Header("Method", numeric: false, sortColumn: 0));
        for (var i = 0; i < columns.Count; i++)
        {
            html.Append(HtmlPage.Header(columns[i].Header, numeric: true, sortColumn: i + 1));
        }
        html.Append("</tr></thead>");
        foreach (var group in rows.GroupBy(r => r.Origin))
        {
            html.Append(group.Key == MethodOrigin.User ? "<tbody class=\"user\">" : "<tbody class=\"framework\">");
            foreach (var row in group)
            {
                html.Append(CultureInfo.InvariantCulture, $"<tr id=\"{MethodAnchor(row.MethodKey)}\"><td class=\"method\" title=\"{HtmlPage.Encode(row.MethodKey)}\">{HtmlPage.DottedName(row.DisplayName)}</td>");
                for (var i = 0; i < columns.Count; i++)
                {
                    html.Append(HtmlPage.BarCell(columns[i].Value(row), scales[i], columns[i].Format, columns[i].Meaning, columns[i].Missing));
                }
                html.Append("</tr>");
            }
            html.Append("</tbody>");
        }
        html.Append("</table></div><p class=\"note\">Click a column to sort by it. Each bar is the figure against the column's largest; an estimate's "
            + "whisker spans its 95 % bound (~ marks an estimate; figures without ~ are exact counts). The application's own methods come first, "
            + "then the framework's and libraries' methods summed per assembly.</p></section>\n");
        return html.ToString();
    }

    /// <summary>The id of a method's row: its join key, which findings and reports share.</summary>
    internal static string MethodAnchor(string methodKey) => "m-" + methodKey;
}
