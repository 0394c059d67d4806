namespace AsyncCost.Analyzers.Tests.Verification;

/// <summary>Wraps members (markup allowed) in a compilable file with the usings async code needs.</summary>
public static class Snippet
{
    public const string Usings = """
        using System;
        using System.Collections.Concurrent;
        using System.Collections.Generic;
        using System.Linq;
        using System.Threading;
        using System.Threading.Tasks;

        """;

    /// <summary>The members inside <c>class C</c>.</summary>
    public static string InClass(string members) => Usings + "class C\n{\n" + members + "\n}\n";
}
