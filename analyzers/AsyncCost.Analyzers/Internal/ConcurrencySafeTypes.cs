using System;
using System.Collections.Generic;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;

namespace AsyncCost.Analyzers.Internal;

/// <summary>
/// Types whose instance methods may be called concurrently on one shared instance: the framework's HTTP client,
/// and the types a team lists in <c>.editorconfig</c> (<c>asynccost.AC0001.concurrency_safe_types = Ns.Client, IPrices</c>,
/// each a full or simple name of the type, a base class or an interface).
/// </summary>
internal sealed class ConcurrencySafeTypes
{
    /// <summary>The .editorconfig option that lists a team's own concurrency-safe types.</summary>
    public const string OptionName = "concurrency_safe_types";

    // Documented as safe for concurrent requests on one instance.
    private static readonly string[] BuiltIn = ["System.Net.Http.HttpClient", "System.Net.Http.HttpMessageInvoker"];

    private static readonly char[] Separators = [',', ';', ' ', '\t'];

    private readonly HashSet<string> _names;

    private ConcurrencySafeTypes(HashSet<string> names) => _names = names;

    /// <summary>The built-in types and those the option names for the file.</summary>
    public static ConcurrencySafeTypes For(AnalyzerOptions options, SyntaxTree tree, string ruleId)
    {
        var names = new HashSet<string>(BuiltIn, StringComparer.Ordinal);
        if (RuleOptions.Get(options, tree, ruleId, OptionName) is { } listed)
        {
            foreach (var name in listed.Split(Separators, StringSplitOptions.RemoveEmptyEntries))
            {
                names.Add(name.StartsWith("global::", StringComparison.Ordinal) ? name.Substring("global::".Length) : name);
            }
        }
        return new ConcurrencySafeTypes(names);
    }

    /// <summary>The type, one of its base classes or one of its interfaces is listed.</summary>
    public bool Contains(ITypeSymbol? type)
    {
        if (type is null)
        {
            return false;
        }
        for (var current = type as INamedTypeSymbol; current is not null; current = current.BaseType)
        {
            if (IsListed(current))
            {
                return true;
            }
        }
        foreach (var implemented in type.AllInterfaces)
        {
            if (IsListed(implemented))
            {
                return true;
            }
        }
        return type is ITypeParameterSymbol parameter && parameter.ConstraintTypes.Any(Contains);
    }

    /// <summary>The framework's HTTP client (HttpClient, HttpMessageInvoker, or a class deriving from one).</summary>
    public static bool IsFrameworkHttpClient(ITypeSymbol? type)
    {
        for (var current = type as INamedTypeSymbol; current is not null; current = current.BaseType)
        {
            if (Array.IndexOf(BuiltIn, FullName(current)) >= 0)
            {
                return true;
            }
        }
        return false;
    }

    private bool IsListed(INamedTypeSymbol type) => _names.Contains(type.Name) || _names.Contains(FullName(type));

    // Namespace, containing types and name, without generic arguments: "Shop.Clients.PriceClient", "Shop.Outer.Inner".
    private static string FullName(INamedTypeSymbol type)
    {
        var name = type.Name;
        for (var container = type.ContainingType; container is not null; container = container.ContainingType)
        {
            name = container.Name + "." + name;
        }
        return type.ContainingNamespace is { IsGlobalNamespace: false } ns ? ns.ToDisplayString() + "." + name : name;
    }
}
