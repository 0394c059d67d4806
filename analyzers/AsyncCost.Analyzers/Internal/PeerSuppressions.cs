using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace AsyncCost.Analyzers.Internal;

/// <summary>
/// Where a team already wrote down a decision about the same finding under a peer analyzer's ID: a
/// <c>#pragma warning disable VSTHRD002</c> region around the line, or a <c>[SuppressMessage(…, "VSTHRD002…")]</c> on the
/// member or a type containing it. A rule that makes the peer's claim stays silent there. A project-wide
/// <c>.editorconfig</c> severity of the peer is not such a decision (a team may turn the peer off because it uses AsyncCost).
/// One scan of a file's pragmas per compilation.
/// </summary>
internal sealed class PeerSuppressions
{
    /// <summary>The peers of AC0006 and AC0010: sync-over-async.</summary>
    public static readonly ImmutableArray<string> BlockingPeers = ImmutableArray.Create("VSTHRD002", "MA0045", "CA1849");

    /// <summary>The peers of AC0004: ConfigureAwait.</summary>
    public static readonly ImmutableArray<string> ConfigureAwaitPeers = ImmutableArray.Create("CA2007", "MA0004", "VSTHRD111");

    private static readonly string[] SuppressAttributeNames = ["SuppressMessageAttribute", "UnconditionalSuppressMessageAttribute"];

    private readonly ImmutableArray<string> _peerIds;
    private readonly ConcurrentDictionary<SyntaxTree, Pragma[]> _pragmas = new();

    public PeerSuppressions(ImmutableArray<string> peerIds) => _peerIds = peerIds;

    /// <summary>A peer's ID is disabled by a pragma at the location, or suppressed on the member or a containing type.</summary>
    public bool AreSuppressed(Location location, ISymbol? member) =>
        location.SourceTree is { } tree && IsDisabledAt(tree, location.SourceSpan.Start) || IsSuppressedOn(member);

    private bool IsDisabledAt(SyntaxTree tree, int position)
    {
        var pragmas = _pragmas.GetOrAdd(tree, Scan);
        if (pragmas.Length == 0)
        {
            return false;
        }
        var disabled = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        foreach (var pragma in pragmas)
        {
            if (pragma.Position > position)
            {
                break;
            }
            foreach (var id in pragma.Ids)
            {
                _ = pragma.Disables ? disabled.Add(id) : disabled.Remove(id);
            }
        }
        return disabled.Count > 0;
    }

    // Only the pragmas that name a peer, in file order.
    private Pragma[] Scan(SyntaxTree tree)
    {
        var root = tree.GetRoot();
        if (!root.ContainsDirectives)
        {
            return [];
        }
        return root.DescendantTrivia()
            .Where(t => t.IsKind(SyntaxKind.PragmaWarningDirectiveTrivia))
            .Select(t => t.GetStructure())
            .OfType<PragmaWarningDirectiveTriviaSyntax>()
            .Select(p => new Pragma(
                p.SpanStart,
                p.DisableOrRestoreKeyword.IsKind(SyntaxKind.DisableKeyword),
                p.ErrorCodes.Select(code => code.ToString().Trim()).Where(IsPeer).ToArray()))
            .Where(p => p.Ids.Length > 0)
            .ToArray();
    }

    private bool IsSuppressedOn(ISymbol? member)
    {
        for (var current = member; current is not null and not INamespaceSymbol; current = current is IMethodSymbol { AssociatedSymbol: { } property } ? property : current.ContainingSymbol)
        {
            foreach (var attribute in current.GetAttributes())
            {
                if (Array.IndexOf(SuppressAttributeNames, attribute.AttributeClass?.Name) >= 0
                    && attribute.ConstructorArguments.Length == 2
                    && attribute.ConstructorArguments[1].Value is string checkId
                    && IsPeer(checkId.Split(':')[0].Trim()))
                {
                    return true;
                }
            }
        }
        return false;
    }

    private bool IsPeer(string id) => _peerIds.Contains(id, StringComparer.OrdinalIgnoreCase);

    private sealed class Pragma(int position, bool disables, string[] ids)
    {
        public int Position { get; } = position;
        public bool Disables { get; } = disables;
        public string[] Ids { get; } = ids;
    }
}
