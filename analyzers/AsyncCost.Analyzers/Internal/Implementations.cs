using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using System.Threading;
using Microsoft.CodeAnalysis;

namespace AsyncCost.Analyzers.Internal;

/// <summary>
/// The bodies a call may run, among the methods declared in this compilation: the method itself when it is not
/// virtual; for an interface member, virtual or abstract method, every implementation or override declared here
/// (and its own body, when it has one). Empty for a method compiled elsewhere with nothing here implementing it. The
/// compilation's types are listed once, on the first question, and each answer is cached.
/// </summary>
internal sealed class Implementations
{
    private readonly Compilation _compilation;
    private readonly Lazy<ImmutableArray<INamedTypeSymbol>> _types;
    private readonly ConcurrentDictionary<IMethodSymbol, ImmutableArray<IMethodSymbol>> _of = new(SymbolEqualityComparer.Default);

    public Implementations(Compilation compilation)
    {
        _compilation = compilation;
        _types = new Lazy<ImmutableArray<INamedTypeSymbol>>(() => SourceTypes(compilation.Assembly.GlobalNamespace).ToImmutableArray(), LazyThreadSafetyMode.ExecutionAndPublication);
    }

    public ImmutableArray<IMethodSymbol> Of(IMethodSymbol method) => _of.GetOrAdd(method.OriginalDefinition, Find);

    private ImmutableArray<IMethodSymbol> Find(IMethodSymbol method)
    {
        var isOpen = method.IsAbstract || method.IsVirtual || method.IsOverride && !method.IsSealed && !method.ContainingType.IsSealed
            || method.ContainingType.TypeKind == TypeKind.Interface;
        var own = IsDeclaredHere(method) && !method.IsAbstract ? ImmutableArray.Create(method) : ImmutableArray<IMethodSymbol>.Empty;
        if (!isOpen)
        {
            return own;
        }
        var found = own.ToBuilder();
        foreach (var type in _types.Value)
        {
            if (method.ContainingType.TypeKind == TypeKind.Interface)
            {
                if (type.TypeKind != TypeKind.Interface && type.FindImplementationForInterfaceMember(method) is IMethodSymbol implementation
                    && IsDeclaredHere(implementation) && !implementation.IsAbstract)
                {
                    found.Add(implementation.OriginalDefinition);
                }
                continue;
            }
            foreach (var member in type.GetMembers(method.Name).OfType<IMethodSymbol>())
            {
                if (member.IsOverride && !member.IsAbstract && Overrides(member, method))
                {
                    found.Add(member.OriginalDefinition);
                }
            }
        }
        return found.Distinct<IMethodSymbol>(SymbolEqualityComparer.Default).ToImmutableArray();
    }

    private static bool Overrides(IMethodSymbol member, IMethodSymbol method)
    {
        for (var overridden = member.OverriddenMethod; overridden is not null; overridden = overridden.OverriddenMethod)
        {
            if (SymbolEqualityComparer.Default.Equals(overridden.OriginalDefinition, method.OriginalDefinition))
            {
                return true;
            }
        }
        return false;
    }

    private bool IsDeclaredHere(IMethodSymbol method) =>
        SymbolEqualityComparer.Default.Equals(method.ContainingAssembly, _compilation.Assembly) && method.DeclaringSyntaxReferences.Length > 0;

    private static IEnumerable<INamedTypeSymbol> SourceTypes(INamespaceSymbol ns)
    {
        foreach (var member in ns.GetMembers())
        {
            if (member is INamespaceSymbol inner)
            {
                foreach (var type in SourceTypes(inner))
                {
                    yield return type;
                }
            }
            else if (member is INamedTypeSymbol type)
            {
                foreach (var nested in WithNested(type))
                {
                    yield return nested;
                }
            }
        }
    }

    private static IEnumerable<INamedTypeSymbol> WithNested(INamedTypeSymbol type)
    {
        yield return type;
        foreach (var nested in type.GetTypeMembers().SelectMany(WithNested))
        {
            yield return nested;
        }
    }
}
