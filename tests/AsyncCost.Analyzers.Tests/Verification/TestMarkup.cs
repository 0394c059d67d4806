using System.Text;
using Microsoft.CodeAnalysis.Text;

namespace AsyncCost.Analyzers.Tests.Verification;

/// <summary>An expected diagnostic: its span in the clean source and, when the markup names one, its id.</summary>
public sealed record ExpectedSpan(TextSpan Span, string? Id);

/// <summary>
/// Test sources mark expected diagnostics inline: <c>[|code|]</c> for the rule under test,
/// <c>{|AC0004:code|}</c> for a named id. Spans may nest (<c>await [|await [|X()|]|]</c>).
/// </summary>
public static class TestMarkup
{
    public static (string Source, IReadOnlyList<ExpectedSpan> Spans) Parse(string markup)
    {
        var source = new StringBuilder(markup.Length);
        var spans = new List<ExpectedSpan>();
        var open = new Stack<(int Start, string? Id)>();
        var i = 0;
        while (i < markup.Length)
        {
            if (Starts(markup, i, "[|"))
            {
                open.Push((source.Length, null));
                i += 2;
            }
            else if (Starts(markup, i, "{|") && NamedId(markup, i + 2) is { } id)
            {
                open.Push((source.Length, id));
                i += 2 + id.Length + 1;
            }
            else if (open.Count > 0 && (Starts(markup, i, "|]") || Starts(markup, i, "|}")))
            {
                var (start, spanId) = open.Pop();
                spans.Add(new ExpectedSpan(TextSpan.FromBounds(start, source.Length), spanId));
                i += 2;
            }
            else
            {
                source.Append(markup[i++]);
            }
        }
        if (open.Count > 0)
        {
            throw new FormatException($"Unclosed markup span at {open.Peek().Start}.");
        }
        return (source.ToString(), spans);
    }

    // The id of a {|ID:...|} span: letters and digits up to the colon.
    private static string? NamedId(string markup, int start)
    {
        var end = start;
        while (end < markup.Length && char.IsLetterOrDigit(markup[end]))
        {
            end++;
        }
        return end > start && end < markup.Length && markup[end] == ':' ? markup.Substring(start, end - start) : null;
    }

    private static bool Starts(string text, int index, string token) =>
        string.CompareOrdinal(text, index, token, 0, token.Length) == 0;
}
