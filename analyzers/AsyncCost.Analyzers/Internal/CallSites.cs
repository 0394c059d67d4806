using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.Diagnostics.CodeAnalysis;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;
using Microsoft.CodeAnalysis.Text;

namespace AsyncCost.Analyzers.Internal;

/// <summary>
/// The calls to a method that is not visible outside this compilation (private, internal, a local function), found
/// where they can be: the trees of its containing type for a private method, its own tree for a local function,
/// every tree for an internal one. The search is textual first (the method's name in the source text), and only
/// the matching identifiers are bound. Asked rarely (for a finding a rule is about to report), cached per method.
/// </summary>
internal sealed class CallSites
{
    private readonly Compilation _compilation;
    private readonly ConcurrentDictionary<IMethodSymbol, Found> _found = new(SymbolEqualityComparer.Default);

    public CallSites(Compilation compilation) => _compilation = compilation;

    /// <summary>The calls found, and whether they are all the uses of the method (no method group, delegate or function pointer).</summary>
    public sealed class Found
    {
        public static readonly Found Unknown = new(ImmutableArray<(IInvocationOperation Invocation, ISymbol Container)>.Empty, isComplete: false);

        public Found(ImmutableArray<(IInvocationOperation Invocation, ISymbol Container)> calls, bool isComplete)
        {
            Calls = calls;
            IsComplete = isComplete;
        }

        /// <summary>Each call, with the member whose body holds it.</summary>
        public ImmutableArray<(IInvocationOperation Invocation, ISymbol Container)> Calls { get; }

        /// <summary>Every use of the method is one of <see cref="Calls"/>.</summary>
        public bool IsComplete { get; }
    }

    /// <summary>Whether code outside this compilation may call the method (public or protected, and so are its containing types).</summary>
    public static bool IsVisibleOutside(IMethodSymbol method)
    {
        if (method.MethodKind == MethodKind.LocalFunction)
        {
            return false;
        }
        for (ISymbol? current = method; current is not null and not INamespaceSymbol; current = current.ContainingSymbol)
        {
            if (current.DeclaredAccessibility is Accessibility.Private or Accessibility.Internal or Accessibility.ProtectedAndInternal)
            {
                return false;
            }
        }
        return true;
    }

    public Found Of(IMethodSymbol method)
    {
        method = Normalize(method);
        return IsVisibleOutside(method) ? Found.Unknown : _found.GetOrAdd(method, m => Search(m));
    }

    private static IMethodSymbol Normalize(IMethodSymbol method)
    {
        var definition = (method.ReducedFrom ?? method).OriginalDefinition;
        return definition.PartialDefinitionPart ?? definition;
    }

    private Found Search(IMethodSymbol method)
    {
        var calls = ImmutableArray.CreateBuilder<(IInvocationOperation Invocation, ISymbol Container)>();
        var complete = true;
        foreach (var tree in TreesToSearch(method))
        {
            var text = tree.GetText();
            var root = tree.GetRoot();
            foreach (var position in Occurrences(text, method.Name))
            {
                var token = root.FindToken(position);
                if (token.SpanStart != position || !token.IsKind(SyntaxKind.IdentifierToken) || token.ValueText != method.Name || token.Parent is not SimpleNameSyntax name)
                {
                    continue;
                }
                switch (Classify(name, method, out var call))
                {
                    case Use.Call:
                        calls.Add(call);
                        break;
                    case Use.Other:
                        complete = false;
                        break;
                }
            }
        }
        return new Found(calls.ToImmutable(), complete);
    }

    private enum Use
    {
        None,
        Call,
        Other,
    }

    [SuppressMessage("MicrosoftCodeAnalysisPerformance", "RS1030:Do not invoke Compilation.GetSemanticModel() method within a diagnostic analyzer", Justification = "Only identifiers spelled like the method are bound; the result is cached per method.")]
    private Use Classify(SimpleNameSyntax name, IMethodSymbol method, out (IInvocationOperation Invocation, ISymbol Container) call)
    {
        call = default;
        var model = _compilation.GetSemanticModel(name.SyntaxTree);
        var info = model.GetSymbolInfo(name);
        if (info.Symbol is not IMethodSymbol referenced)
        {
            // An overload resolution that failed may still mean this method: count it as a use we cannot read.
            foreach (var candidate in info.CandidateSymbols)
            {
                if (candidate is IMethodSymbol candidateMethod && SymbolEqualityComparer.Default.Equals(Normalize(candidateMethod), method))
                {
                    return Use.Other;
                }
            }
            return Use.None;
        }
        if (!SymbolEqualityComparer.Default.Equals(Normalize(referenced), method))
        {
            return Use.None;
        }
        SyntaxNode callee = name.Parent switch
        {
            MemberAccessExpressionSyntax access when access.Name == name => access,
            MemberBindingExpressionSyntax binding when binding.Name == name => binding,
            _ => name,
        };
        if (callee.Parent is InvocationExpressionSyntax invocation && invocation.Expression == callee
            && model.GetOperation(invocation) is IInvocationOperation operation
            && model.GetEnclosingSymbol(invocation.SpanStart) is { } container)
        {
            call = (operation, container);
            return Use.Call;
        }
        return IsInNameOf(name) ? Use.None : Use.Other;
    }

    private static bool IsInNameOf(SyntaxNode node)
    {
        for (var current = node.Parent; current is not null and not StatementSyntax and not MemberDeclarationSyntax; current = current.Parent)
        {
            if (current is InvocationExpressionSyntax { Expression: IdentifierNameSyntax { Identifier.ValueText: "nameof" } })
            {
                return true;
            }
        }
        return false;
    }

    private IEnumerable<SyntaxTree> TreesToSearch(IMethodSymbol method)
    {
        ISymbol? scope = method.MethodKind == MethodKind.LocalFunction ? method.ContainingSymbol
            : method.DeclaredAccessibility == Accessibility.Private ? method.ContainingType
            : null;
        if (scope is null)
        {
            return _compilation.SyntaxTrees;
        }
        var trees = new HashSet<SyntaxTree>();
        foreach (var reference in scope.DeclaringSyntaxReferences)
        {
            if (_compilation.ContainsSyntaxTree(reference.SyntaxTree))
            {
                trees.Add(reference.SyntaxTree);
            }
        }
        return trees;
    }

    // Where the name starts in the text, read in chunks so that no copy of a whole file is made.
    private static IEnumerable<int> Occurrences(SourceText text, string name)
    {
        const int ChunkSize = 8192;
        var buffer = new char[ChunkSize + name.Length];
        for (var start = 0; start < text.Length; start += ChunkSize)
        {
            var count = System.Math.Min(ChunkSize + name.Length - 1, text.Length - start);
            text.CopyTo(start, buffer, 0, count);
            var last = System.Math.Min(ChunkSize, count - name.Length + 1);
            for (var i = 0; i < last; i++)
            {
                if (buffer[i] == name[0] && Matches(buffer, i, name))
                {
                    yield return start + i;
                }
            }
        }
    }

    private static bool Matches(char[] buffer, int at, string name)
    {
        for (var j = 1; j < name.Length; j++)
        {
            if (buffer[at + j] != name[j])
            {
                return false;
            }
        }
        return true;
    }
}
