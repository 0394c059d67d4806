using System.Globalization;
using System.Text;
using AsyncCost.Report;

namespace AsyncCost.Cli.Rendering;

/// <summary>The async call tree on the page: an indented table, every call under the one that awaited it, the costliest
/// path first, waited time as bars on one scale; the cells are the text table's (<see cref="CallTreeDocument"/>).</summary>
internal static class CallTreeHtml
{
    /// <summary>The section, or "" when the tree has no calls.</summary>
    public static string Section(AsyncCostReport report, bool allMethods)
    {
        ArgumentNullException.ThrowIfNull(report);
        var tree = report.CallTree;
        var lines = tree.Lines();
        if (lines.Count == 0)
        {
            return "";
        }
        var per = HotFindingsDocument.Unit(tree.Per, PassBasis.OperationsAreRequests(report));
        var scale = HtmlPage.Scale(lines.Select(l => l.Node.WaitedMilliseconds));
        var html = new StringBuilder();
        html.Append("<section id=\"call-tree\"><h2>Async call tree, costliest path first</h2><div class=\"scroll\"><table class=\"calltree\"><thead><tr>")
            .Append(HtmlPage.Header("Call", numeric: false)).Append(HtmlPage.Header("Calls" + per, numeric: true)).Append(HtmlPage.Header("Ran", numeric: false))
            .Append(HtmlPage.Header("Waited" + per, numeric: true)).Append(HtmlPage.Header("Elapsed/call", numeric: true)).Append(HtmlPage.Header("Saves" + per, numeric: true))
            .Append("</tr></thead><tbody>");
        foreach (var line in lines)
        {
            var node = line.Node;
            // Indented by depth; the name cell keeps the tree's marks (└, ↻) so that a copied table reads as the text one.
            html.Append(CultureInfo.InvariantCulture, $"<tr data-depth=\"{line.Depth}\"><td class=\"method\" title=\"{HtmlPage.Encode(node.MethodKey)}\" style=\"padding-left:{0.4 + (1.2 * line.Depth):0.0}em\">")
                .Append(HtmlPage.DottedName(CallTreeDocument.Name(line, allMethods).TrimStart())).Append("</td>")
                .Append("<td class=\"num\">").Append(HtmlPage.Encode(CallTreeDocument.Calls(node))).Append("</td>")
                .Append("<td>").Append(HtmlPage.Encode(CallTreeDocument.RanText(node, line.Depth))).Append("</td>")
                .Append(HtmlPage.BarCell(node.WaitedMilliseconds, scale, Numbers.Time, "what the caller waited on these calls"))
                .Append("<td class=\"num\">").Append(HtmlPage.Encode(Numbers.Time(node.ElapsedPerCallMilliseconds))).Append("</td>")
                .Append("<td class=\"num\">").Append(HtmlPage.Encode(CallTreeDocument.SavingText(node))).Append("</td></tr>");
        }
        return html.Append("</tbody></table></div><p class=\"note\">").Append(HtmlPage.Encode(CallTreeDocument.Note(per))).Append("</p></section>\n").ToString();
    }
}
