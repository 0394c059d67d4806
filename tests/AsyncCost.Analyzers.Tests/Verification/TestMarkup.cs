using System.Text;
using Microsoft.CodeAnalysis.Text;

namespace AsyncCost.Analyzers.Tests.Verification;

/// <summary>An expected diagnostic: its span in the clean source and, when the markup names one, its id.</summary>
public sealed record ExpectedSpan(TextSpan Span, string? Id);

/// <summary>
/// Test sources mark expected diagnostics inline: <c>[|code|]</c> for the rule under test,
/// <c>{|AC0004:code|}</c> for a named id. Spans do not nest.
/// </summary>
public static class TestMarkup
{
    public static (string Source, IReadOnlyList<ExpectedSpan> Spans) Parse(string markup)
    {
        var source = new StringBuilder(markup.Length);
        var spans = new List<ExpectedSpan>();
        var i = 0;
        while (i < markup.Length)
        {
            if (Starts(markup, i, "[|"))
            {
                i = ReadSpan(markup, i + 2, source, spans, id: null);
            }
            else if (Starts(markup, i, "{|") && markup.IndexOf(':', i) is var colon and > 0)
            {
                i = ReadSpan(markup, colon + 1, source, spans, markup.Substring(i + 2, colon - i - 2));
            }
            else
            {
                source.Append(markup[i++]);
            }
        }
        return (source.ToString(), spans);
    }

    private static int ReadSpan(string markup, int start, StringBuilder source, List<ExpectedSpan> spans, string? id)
    {
        var end = markup.IndexOf('|', start);
        while (end >= 0 && end + 1 < markup.Length && markup[end + 1] is not (']' or '}'))
        {
            end = markup.IndexOf('|', end + 1);
        }
        if (end < 0)
        {
            throw new FormatException($"Unclosed markup span at {start}.");
        }
        var spanStart = source.Length;
        source.Append(markup, start, end - start);
        spans.Add(new ExpectedSpan(TextSpan.FromBounds(spanStart, source.Length), id));
        return end + 2;
    }

    private static bool Starts(string text, int index, string token) =>
        string.CompareOrdinal(text, index, token, 0, token.Length) == 0;
}
