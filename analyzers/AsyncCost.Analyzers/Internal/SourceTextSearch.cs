using System;
using System.Collections.Generic;
using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;

namespace AsyncCost.Analyzers.Internal;

/// <summary>
/// Ordinal searches of source text, read in chunks (overlapping by the needle's length) so that no copy of a whole
/// file is made. A textual gate costs far less than binding, or than a callback for every operation of a method.
/// </summary>
internal static class SourceTextSearch
{
    private const int ChunkSize = 16384;

    /// <summary>Where <paramref name="name"/> starts in the span of the text.</summary>
    public static List<int> Occurrences(SourceText text, TextSpan span, string name)
    {
        var found = new List<int>();
        Scan(text, span, name, position =>
        {
            found.Add(position);
            return true;
        });
        return found;
    }

    /// <summary>
    /// Whether the source of the operation blocks (a member's body, initializers) contains any of the names: an
    /// identifier that a rule looks for cannot appear in an operation without appearing in this text.
    /// </summary>
    public static bool Mentions(ImmutableArray<IOperation> blocks, string[] names)
    {
        foreach (var block in blocks)
        {
            var text = block.Syntax.SyntaxTree.GetText();
            foreach (var name in names)
            {
                var seen = false;
                Scan(text, block.Syntax.Span, name, _ =>
                {
                    seen = true;
                    return false;
                });
                if (seen)
                {
                    return true;
                }
            }
        }
        return false;
    }

    // Calls onMatch with each position of the name in the span until it returns false.
    private static void Scan(SourceText text, TextSpan span, string name, Func<int, bool> onMatch)
    {
        var buffer = new char[Math.Min(ChunkSize, span.Length) + name.Length];
        for (var start = span.Start; start < span.End; start += ChunkSize)
        {
            var count = Math.Min(ChunkSize + name.Length - 1, span.End - start);
            text.CopyTo(start, buffer, 0, count);
            var chunk = new ReadOnlySpan<char>(buffer, 0, count);
            var limit = Math.Min(ChunkSize, count);
            for (var offset = 0; offset < limit;)
            {
                var at = chunk.Slice(offset).IndexOf(name.AsSpan(), StringComparison.Ordinal);
                if (at < 0 || offset + at >= limit)
                {
                    break;
                }
                if (!onMatch(start + offset + at))
                {
                    return;
                }
                offset += at + 1;
            }
        }
    }
}
