using System.Globalization;
using System.Net;
using System.Text;
using AsyncCost.Report;

namespace AsyncCost.Cli.Rendering;

/// <summary>
/// One self-contained HTML page (--format html): inline style and script, no network (a Content-Security-Policy forbids
/// every request), readable on a phone-width window (wide tables scroll sideways, bars shrink with their column).
/// Tables marked sortable reorder their rows when a header is clicked; each tbody sorts on its own, so the application's
/// own methods stay above the framework's assemblies.
/// </summary>
internal sealed class HtmlPage(string title)
{
    private readonly StringBuilder _body = new();

    public HtmlPage Heading(int level, string text, string? id = null)
    {
        _body.Append(CultureInfo.InvariantCulture, $"<h{level}{Attribute("id", id)}>{Encode(text)}</h{level}>\n");
        return this;
    }

    public HtmlPage Paragraph(string text, string? cssClass = null)
    {
        _body.Append(CultureInfo.InvariantCulture, $"<p{Attribute("class", cssClass)}>{Encode(text)}</p>\n");
        return this;
    }

    public HtmlPage List(IEnumerable<string> items, string? cssClass = null)
    {
        _body.Append(CultureInfo.InvariantCulture, $"<ul{Attribute("class", cssClass)}>");
        foreach (var item in items)
        {
            _body.Append("<li>").Append(Encode(item)).Append("</li>");
        }
        _body.Append("</ul>\n");
        return this;
    }

    /// <summary>Markup the caller built from this class's pieces (cells already encoded).</summary>
    public HtmlPage Raw(string html)
    {
        _body.Append(html);
        return this;
    }

    /// <summary>A plain table of formatted cells (process totals, unattributed types), its note under it.</summary>
    public HtmlPage Table(TextTable table)
    {
        var html = new StringBuilder();
        html.Append("<section><h2>").Append(Encode(table.Title)).Append("</h2><div class=\"scroll\"><table><thead><tr>");
        foreach (var column in table.Columns)
        {
            html.Append(Header(column.Header, column.Alignment == ColumnAlignment.Right));
        }
        html.Append("</tr></thead><tbody>");
        foreach (var row in table.Rows)
        {
            html.Append("<tr>");
            for (var i = 0; i < row.Count; i++)
            {
                // Text cells (type and method names) may break after each dot, so a long name wraps instead of widening the table past the page.
                html.Append(table.Columns[i].Alignment == ColumnAlignment.Right ? "<td class=\"num\">" + Encode(row[i]) : "<td>" + DottedName(row[i])).Append("</td>");
            }
            html.Append("</tr>");
        }
        html.Append("</tbody></table></div>");
        if (table.Note is not null)
        {
            html.Append("<p class=\"note\">").Append(Encode(table.Note)).Append("</p>");
        }
        html.Append("</section>\n");
        return Raw(html.ToString());
    }

    public void Write(TextWriter output)
    {
        output.Write($"""
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="dotnet-asynccost">
            <title>{Encode(title)}</title>
            <style>{Style}</style>
            </head>
            <body>
            <h1>{Encode(title)}</h1>

            """);
        output.Write(_body.ToString());
        output.Write($"""
            <script>{Script}</script>
            </body>
            </html>

            """);
    }

    public static string Encode(string text) => WebUtility.HtmlEncode(text);

    /// <summary>A dotted name (a method, a file) that may break after each dot on a narrow window, and nowhere else.</summary>
    public static string DottedName(string name) => Encode(name).Replace(".", ".<wbr>", StringComparison.Ordinal);

    public static string Attribute(string name, string? value) => value is null ? "" : $" {name}=\"{Encode(value)}\"";

    /// <summary>A column header; a sortable table's numeric columns sort most first on the first click.</summary>
    public static string Header(string text, bool numeric, int? sortColumn = null) =>
        $"<th{(numeric ? " class=\"num\"" : "")}{(sortColumn is { } c ? $" data-col=\"{c.ToString(CultureInfo.InvariantCulture)}\" tabindex=\"0\" title=\"Sort by {Encode(text)}\"" : "")}>{Encode(text)}</th>";

    /// <summary>
    /// A number cell with its bar: the bar's length is the value over <paramref name="scale"/> (the column's largest
    /// value + bound), and an estimate's bound is drawn as a whisker from value − bound to value + bound, never a bare bar.
    /// data-v holds the value for sorting (−1 where the figure is missing, so those rows sort last), data-b the bound.
    /// </summary>
    public static string BarCell(Figure? figure, double scale, Func<double, string> format, string? title = null, string missing = "-")
    {
        if (figure is null)
        {
            return $"<td class=\"num\" data-v=\"-1\">{Encode(missing)}</td>";
        }

        var text = Numbers.Figure(figure, format);
        var cell = new StringBuilder();
        cell.Append(CultureInfo.InvariantCulture, $"<td class=\"num\" data-v=\"{Data(figure.Value)}\" data-b=\"{Data(figure.Sampled ? figure.ErrorBound : 0)}\"{Attribute("title", title)}><span class=\"val\">{Encode(text)}</span>");
        if (scale > 0)
        {
            var width = Raw(Clamped(figure.Value / scale));
            cell.Append(CultureInfo.InvariantCulture, $"<span class=\"bar\"><span class=\"fill\" style=\"width:{width}%\"></span>");
            if (figure.Sampled && figure.ErrorBound > 0)
            {
                double low = Clamped(Math.Max(0, figure.Value - figure.ErrorBound) / scale), high = Clamped((figure.Value + figure.ErrorBound) / scale);
                cell.Append(CultureInfo.InvariantCulture, $"<span class=\"whisker\" style=\"left:{Raw(low)}%;width:{Raw(high - low)}%\" title=\"±{Encode(format(figure.ErrorBound))} (95 %)\"></span>");
            }
            cell.Append("</span>");
        }
        return cell.Append("</td>").ToString();
    }

    /// <summary>The largest value + bound of a column: the length of a full bar.</summary>
    public static double Scale(IEnumerable<Figure?> figures) => figures.Select(f => f is null ? 0 : f.Value + (f.Sampled ? f.ErrorBound : 0)).DefaultIfEmpty(0).Max();

    /// <summary>A fraction of the full bar as a CSS percentage, 0 to 100.</summary>
    private static double Clamped(double fraction) => Math.Clamp(fraction * 100, 0, 100);

    private static string Raw(double value) => value.ToString("0.###", CultureInfo.InvariantCulture);

    /// <summary>A number for a data attribute (sorting, tests): every digit, so nothing small rounds to zero.</summary>
    public static string Data(double value) => value.ToString("R", CultureInfo.InvariantCulture);

    private const string Style = """
        :root{color-scheme:light dark;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--bar:#2f81f7;--whisker:#1b1f24;--user:#f6f8fa;--warn:#9a6700;--good:#1a7f37;--bad:#cf222e}
        @media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#8d96a0;--line:#30363d;--bar:#4493f8;--whisker:#e6edf3;--user:#161b22}}
        body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);margin:0 auto;padding:12px;max-width:1200px}
        h1{font-size:1.4em;margin:.2em 0}h2{font-size:1.15em;margin:1.2em 0 .4em}
        .scroll{overflow-x:auto;-webkit-overflow-scrolling:touch}
        p,li{overflow-wrap:anywhere}td{overflow-wrap:break-word}
        table{border-collapse:collapse;width:100%}
        th,td{padding:4px 6px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
        th[data-col]{cursor:pointer;user-select:none;white-space:nowrap}
        th[aria-sort=descending]::after{content:" ▼"}th[aria-sort=ascending]::after{content:" ▲"}
        .num{text-align:right;white-space:nowrap}
        td.method{min-width:10em}
        tbody.framework td.method{color:var(--muted)}
        .val{display:block}
        .bar{display:block;position:relative;height:6px;min-width:60px;background:var(--line);border-radius:2px;margin-top:2px}
        .fill{position:absolute;left:0;top:0;bottom:0;background:var(--bar);border-radius:2px}
        .whisker{position:absolute;top:2px;height:2px;background:var(--whisker)}
        .whisker::before,.whisker::after{content:"";position:absolute;top:-2px;width:1px;height:6px;background:var(--whisker)}
        .whisker::before{left:0}.whisker::after{right:0}
        .note,.meta{color:var(--muted);font-size:.9em}
        .verdict{font-size:1.1em;font-weight:600;padding:8px;border-left:4px solid var(--bar);background:var(--user)}
        tr.change td:first-child{font-weight:600}
        .tag{font-size:.8em;padding:0 4px;border-radius:3px;border:1px solid var(--line);white-space:nowrap}
        .tag.change{border-color:var(--good);color:var(--good)}.tag.worse{border-color:var(--bad);color:var(--bad)}.tag.noise{color:var(--muted)}
        ul.warnings li{color:var(--warn)}
        a{color:var(--bar)}
        tr:target{outline:2px solid var(--bar)}
        @media (max-width:640px){body{padding:6px;font-size:13px}.bar{min-width:40px}th,td{padding:3px 4px}}
        """;

    // Sorting: a click on a header sorts each tbody of its table by that column (numbers by data-v, text by content),
    // most first; a second click reverses. Enter on a focused header does the same.
    private const string Script = """
        (function(){
          function key(row,col){var c=row.cells[col];return c.hasAttribute('data-v')?parseFloat(c.getAttribute('data-v')):c.textContent.trim().toLowerCase();}
          function sort(th){
            var table=th.closest('table'),col=+th.getAttribute('data-col'),desc=th.getAttribute('aria-sort')!=='descending';
            table.querySelectorAll('th[data-col]').forEach(function(h){h.removeAttribute('aria-sort');});
            th.setAttribute('aria-sort',desc?'descending':'ascending');
            table.querySelectorAll('tbody').forEach(function(tb){
              var rows=Array.prototype.slice.call(tb.rows);
              rows.sort(function(a,b){var x=key(a,col),y=key(b,col),d=(typeof x==='number')?x-y:(x<y?-1:x>y?1:0);return desc?-d:d;});
              rows.forEach(function(r){tb.appendChild(r);});
            });
          }
          document.querySelectorAll('table.sortable th[data-col]').forEach(function(th){
            th.addEventListener('click',function(){sort(th);});
            th.addEventListener('keydown',function(e){if(e.key==='Enter'){sort(th);}});
          });
        })();
        """;
}
