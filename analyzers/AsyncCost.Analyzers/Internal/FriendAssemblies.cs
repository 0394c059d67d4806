using System;
using System.Linq;
using Microsoft.CodeAnalysis;

namespace AsyncCost.Analyzers.Internal;

/// <summary>
/// Who else may call this assembly's internal members: the friends its InternalsVisibleTo attributes name. An
/// attribute naming a test assembly opens internals for testing, not as API, so it does not count.
/// </summary>
internal static class FriendAssemblies
{
    // Test, test-support, benchmark and mocking-proxy assemblies (Castle's DynamicProxyGenAssembly2, used by Moq and
    // NSubstitute). A test-support library (Polly.Testing, Polly.TestUtils) serves tests, not the library's users.
    private static readonly string[] TestAssemblySuffixes =
    [
        ".UnitTests", ".IntegrationTests", ".FunctionalTests", ".Specs",
        ".Testing", ".TestUtils", ".TestUtilities", ".TestHelpers",
    ];

    // A part of the name that says tests or benchmarks, last (Library.Tests) or anywhere (Garnet's "Garnet.test.cluster").
    private static readonly string[] TestNameParts = ["Test", "Tests", "Benchmark", "Benchmarks"];

    /// <summary>Whether an InternalsVisibleTo attribute names an assembly other than a test assembly.</summary>
    public static bool HasNonTestFriends(IAssemblySymbol assembly) =>
        assembly.GetAttributes().Any(a => a.AttributeClass?.ToDisplayString() == "System.Runtime.CompilerServices.InternalsVisibleToAttribute"
            && !(a.ConstructorArguments.Length == 1 && a.ConstructorArguments[0].Value is string friend && IsTestAssembly(friend)));

    /// <summary>Whether an InternalsVisibleTo argument (<c>Name</c> or <c>Name, PublicKey=…</c>) names a test assembly.</summary>
    public static bool IsTestAssembly(string friend)
    {
        var comma = friend.IndexOf(',');
        var name = (comma < 0 ? friend : friend.Substring(0, comma)).Trim();
        return name == "DynamicProxyGenAssembly2"
            || TestAssemblySuffixes.Any(suffix => name.EndsWith(suffix, StringComparison.OrdinalIgnoreCase))
            || name.Split('.').Any(part => TestNameParts.Any(test => string.Equals(part, test, StringComparison.OrdinalIgnoreCase)));
    }
}
