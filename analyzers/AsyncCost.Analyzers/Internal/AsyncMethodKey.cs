using System.Text;
using Microsoft.CodeAnalysis;

namespace AsyncCost.Analyzers.Internal;

/// <summary>
/// The key that joins a finding to the runtime's measurements: <c>Namespace.Outer.Inner.Method</c>, without
/// generic arguments. Lambdas and local functions belong to the user-declared member that contains them, the
/// same way the runtime library reads compiler-generated state-machine names back (<c>&lt;&lt;Main&gt;g__Local|0_0&gt;d</c> is <c>Main</c>).
/// </summary>
internal static class AsyncMethodKey
{
    /// <summary>The diagnostic property (and SARIF <c>customProperties</c> entry) carrying the key.</summary>
    public const string PropertyName = "AsyncCostMethod";

    public static string? For(ISymbol? symbol)
    {
        var member = DeclaredMember(symbol);
        if (member is null || member.ContainingType is null)
        {
            return null;
        }

        var builder = new StringBuilder();
        AppendType(builder, member.ContainingType);
        builder.Append('.').Append(MemberName(member));
        return builder.ToString();
    }

    private static ISymbol? DeclaredMember(ISymbol? symbol)
    {
        var current = symbol;
        while (current is IMethodSymbol { MethodKind: MethodKind.LocalFunction or MethodKind.AnonymousFunction })
        {
            current = current.ContainingSymbol;
        }
        return current;
    }

    // Accessors and constructors are named the way the compiler names their state machines' hosts.
    private static string MemberName(ISymbol member) => member switch
    {
        IMethodSymbol { MethodKind: MethodKind.PropertyGet or MethodKind.PropertySet, AssociatedSymbol: { } property } method =>
            (method.MethodKind == MethodKind.PropertyGet ? "get_" : "set_") + property.Name,
        _ => member.Name,
    };

    private static void AppendType(StringBuilder builder, INamedTypeSymbol type)
    {
        if (type.ContainingType is { } outer)
        {
            AppendType(builder, outer);
            builder.Append('.');
        }
        else if (type.ContainingNamespace is { IsGlobalNamespace: false } ns)
        {
            builder.Append(ns.ToDisplayString()).Append('.');
        }
        builder.Append(type.Name);
    }
}
