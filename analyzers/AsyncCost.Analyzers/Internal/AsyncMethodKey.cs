using System.Globalization;
using System.Linq;
using System.Text;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace AsyncCost.Analyzers.Internal;

/// <summary>
/// The key that joins a finding to the runtime's measurements, built the way the runtime library reads compiler-generated
/// names back: <c>Namespace.Outer.Inner.Method</c> without generic arguments; a local function adds its name
/// (<c>Ns.Program.Main.Local</c>, from <c>&lt;Main&gt;g__Local|0_0</c>); a lambda adds <c>lambda#k</c>, k being the compiler's
/// lambda ordinal in the member (<c>Ns.Program.Main.lambda#2</c>, from <c>&lt;Main&gt;b__0_2</c>), or plain <c>lambda</c> when
/// the ordinal cannot be known from source (see <see cref="LambdaOrdinal"/>).
/// </summary>
internal static class AsyncMethodKey
{
    /// <summary>The diagnostic property (and SARIF <c>customProperties</c> entry) carrying the key.</summary>
    public const string PropertyName = "AsyncCostMethod";

    /// <summary>The diagnostic property (and SARIF <c>customProperties</c> entry) carrying the keys, joined by ';', of the
    /// methods a finding's cost is spent in when they are not the finding's own method: the awaited callees of AC0001's loop,
    /// the method whose task AC0006 blocks on. Absent: the cost is in the method <see cref="PropertyName"/> names.</summary>
    public const string CostInPropertyName = "AsyncCostCostIn";

    /// <summary>The segment naming a lambda; with a known ordinal it is followed by '#' and the ordinal.</summary>
    public const string LambdaSegment = "lambda";

    /// <summary>The key of <paramref name="function"/>: a member, local function or lambda.</summary>
    public static string? For(ISymbol? function)
    {
        var member = DeclaredMember(function);
        if (member is null || member.ContainingType is null)
        {
            return null;
        }

        var builder = new StringBuilder();
        AppendType(builder, member.ContainingType);
        builder.Append('.').Append(MemberName(member));
        switch (function)
        {
            case IMethodSymbol { MethodKind: MethodKind.LocalFunction } local:
                builder.Append('.').Append(local.Name);
                break;
            case IMethodSymbol { MethodKind: MethodKind.AnonymousFunction } lambda:
                builder.Append('.').Append(LambdaSegment);
                if (Ordinal(lambda, member) is { } ordinal)
                {
                    builder.Append('#').Append(ordinal.ToString(CultureInfo.InvariantCulture));
                }
                break;
        }
        return builder.ToString();
    }

    private static int? Ordinal(IMethodSymbol lambda, ISymbol member)
    {
        if (lambda.DeclaringSyntaxReferences.FirstOrDefault()?.GetSyntax() is not { } syntax
            || member.DeclaringSyntaxReferences.Select(r => r.GetSyntax()).FirstOrDefault(s => s.SyntaxTree == syntax.SyntaxTree && s.Span.Contains(syntax.Span)) is not { } memberSyntax
            || HasInitializerFunctions(member))
        {
            return null;
        }
        return LambdaOrdinal.Of(syntax, memberSyntax);
    }

    // Field and property initializers are compiled into each constructor ahead of its body, lambdas and all.
    private static bool HasInitializerFunctions(ISymbol member) =>
        member is not IMethodSymbol
        || member is IMethodSymbol { MethodKind: MethodKind.Constructor or MethodKind.StaticConstructor } && member.ContainingType.DeclaringSyntaxReferences
            .SelectMany(r => r.GetSyntax().ChildNodes())
            .Where(n => n is BaseFieldDeclarationSyntax or PropertyDeclarationSyntax { Initializer: not null })
            .Any(n => n.DescendantNodes().Any(d => d is AnonymousFunctionExpressionSyntax));

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
