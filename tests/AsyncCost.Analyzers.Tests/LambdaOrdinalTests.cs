using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using System.Reflection.PortableExecutable;
using System.Text.RegularExpressions;
using AsyncCost.Analyzers.Internal;
using AsyncCost.Analyzers.Tests.Verification;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace AsyncCost.Analyzers.Tests;

/// <summary>
/// A lambda's key carries the compiler's lambda ordinal (the k in <c>&lt;M&gt;b__0_k</c>): checked against the names the
/// compiler really emits for each shape. Every function below calls Mark with a unique label; the emitted method whose
/// IL loads that label (the lambda's body, or its state machine's MoveNext) names the ordinal the compiler chose.
/// </summary>
public partial class LambdaOrdinalTests
{
    internal const string Shapes = """
        using System;
        using System.Collections.Generic;
        using System.Linq;
        using System.Linq.Expressions;
        using System.Threading.Tasks;
        namespace Shapes
        {
            public class Cases
            {
                private int _field;
                private static void Mark(string label) { }

                public async Task Siblings()
                {
                    Func<Task> a = async () => { await Task.Yield(); Mark("siblings-first"); };
                    Func<Task> b = async () => { await Task.Yield(); Mark("siblings-second"); };
                    Action sync = () => Mark("siblings-sync");
                    await a(); await b(); sync();
                }

                // A foreach body is a scope of its own: the later lambda of the enclosing block is numbered first.
                public async Task LoopScopeComesAfter(int[] items)
                {
                    foreach (var item in items)
                    {
                        Func<Task> inLoop = async () => { await Task.Yield(); Mark("loop-inner" + item); };
                        await inLoop();
                    }
                    Func<Task> after = async () => { await Task.Yield(); Mark("loop-after"); };
                    await after();
                }

                // Capturing lambdas live in display classes (<M>b__k, no method ordinal); nested lambdas follow their parent.
                public async Task NestedAndCapturing(int value)
                {
                    async Task Local()
                    {
                        Func<Task> inLocal = async () => { await Task.Yield(); Mark("nested-in-local" + value); };
                        await inLocal();
                        Mark("nested-local");
                    }
                    Func<Task> outer = async () =>
                    {
                        Func<Task> inner = async () => { await Task.Yield(); Mark("nested-inner" + value); };
                        await inner();
                        Mark("nested-outer" + _field);
                    };
                    await Local();
                    await outer();
                    await Task.WhenAll(new[] { 1, 2 }.Select(async i => { await Task.Yield(); Mark("nested-select" + i); }));
                }

                // A lambda converted to an expression tree takes an ordinal too.
                public async Task AfterAnExpressionTree()
                {
                    Expression<Func<int, bool>> tree = x => x > 0;
                    Func<int, bool> predicate = x => { Mark("tree-delegate"); return x > 1; };
                    Func<Task> run = async () => { await Task.Yield(); Mark("tree-async"); };
                    await run();
                    _ = tree; _ = predicate;
                }

                // Top-of-block locals do not reorder anything: one scope.
                public async Task WithLocals(bool flag)
                {
                    var count = 1;
                    if (flag)
                    {
                        Func<Task> inIf = async () => { await Task.Yield(); Mark("locals-if"); };
                        await inIf();
                    }
                    Func<Task> last = async () => { await Task.Yield(); Mark("locals-last" + count); };
                    await last();
                }

                // An object initializer may hold compiler temporaries: which lambda comes first is not knowable from source.
                public async Task Initializer()
                {
                    var holder = new Holder { Run = async () => { await Task.Yield(); Mark("initializer-inside"); } };
                    Func<Task> later = async () => { await Task.Yield(); Mark("initializer-later"); };
                    await holder.Run(); await later();
                }
            }

            public class Holder { public Func<Task> Run { get; set; } = () => Task.CompletedTask; }
        }
        """;

    /// <summary>Labels whose ordinal syntax cannot know; every other label's key must carry the emitted ordinal.</summary>
    private static readonly HashSet<string> Unknowable = ["initializer-inside", "initializer-later"];

    /// <summary>What the compiler numbers, written down so a compiler that changes its numbering fails here first.</summary>
    public static TheoryData<string, int> ExpectedOrdinals => new()
    {
        { "siblings-first", 0 }, { "siblings-second", 1 }, { "siblings-sync", 2 },
        { "loop-after", 0 }, { "loop-inner", 1 },
        { "nested-local", 0 }, { "nested-outer", 1 }, { "nested-select", 2 }, { "nested-in-local", 3 }, { "nested-inner", 4 },
        { "tree-delegate", 1 }, { "tree-async", 2 },
        { "locals-if", 1 }, { "locals-last", 0 },
        { "initializer-inside", 1 }, { "initializer-later", 0 },
    };

    [Theory]
    [InlineData(OptimizationLevel.Debug)]
    [InlineData(OptimizationLevel.Release)]
    public void Keys_carry_the_ordinal_the_compiler_emits(OptimizationLevel optimization)
    {
        var compilation = TestCompilation.Create([Shapes], OutputKind.DynamicallyLinkedLibrary)
            .WithOptions(new Microsoft.CodeAnalysis.CSharp.CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary, optimizationLevel: optimization));
        TestCompilation.AssertCompiles(compilation);
        var emitted = EmittedOrdinals(compilation);
        var keys = AnalyzerKeys(compilation);

        Assert.Equal(emitted.Keys.Order(), keys.Keys.Order());
        foreach (var (label, key) in keys)
        {
            var ordinal = Regex.Match(key, @"\.lambda#(\d+)$") is { Success: true } m ? int.Parse(m.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture) : (int?)null;
            if (key.EndsWith(".lambda", StringComparison.Ordinal))
            {
                Assert.Contains(label, Unknowable);
            }
            else if (ordinal is not null)
            {
                Assert.False(Unknowable.Contains(label), $"{label}: {key}");
                Assert.True(emitted[label] == ordinal, $"{label}: analyzer says {key}, the compiler emitted ordinal {emitted[label]}");
            }
        }
    }

    [Theory]
    [MemberData(nameof(ExpectedOrdinals))]
    public void The_compiler_numbers_the_shapes_as_written_down(string label, int ordinal)
    {
        var compilation = TestCompilation.Create([Shapes], OutputKind.DynamicallyLinkedLibrary);
        Assert.Equal(ordinal, EmittedOrdinals(compilation)[label]);
    }

    [Fact]
    public void Keys_name_member_then_local_function_or_lambda()
    {
        var keys = AnalyzerKeys(TestCompilation.Create([Shapes], OutputKind.DynamicallyLinkedLibrary));

        Assert.Equal("Shapes.Cases.NestedAndCapturing.Local", keys["nested-local"]);
        Assert.Equal("Shapes.Cases.NestedAndCapturing.lambda#3", keys["nested-in-local"]);
        Assert.Equal("Shapes.Cases.LoopScopeComesAfter.lambda#1", keys["loop-inner"]);
        Assert.Equal("Shapes.Cases.Initializer.lambda", keys["initializer-later"]);
    }

    /// <summary>Label -> the key AsyncMethodKey gives the function that calls Mark with it.</summary>
    private static Dictionary<string, string> AnalyzerKeys(Compilation compilation)
    {
        var tree = compilation.SyntaxTrees.Single();
        var model = compilation.GetSemanticModel(tree);
        var keys = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var call in tree.GetRoot().DescendantNodes().OfType<InvocationExpressionSyntax>().Where(i => i.Expression.ToString() == "Mark"))
        {
            var label = Label(call.ArgumentList.Arguments[0].Expression);
            var function = call.Ancestors().First(a => a is AnonymousFunctionExpressionSyntax or LocalFunctionStatementSyntax);
            var symbol = function is LocalFunctionStatementSyntax local ? model.GetDeclaredSymbol(local) : model.GetSymbolInfo(function).Symbol;
            keys.Add(label, AsyncMethodKey.For(symbol)!);
        }
        return keys;
    }

    // "loop-inner" + item -> loop-inner
    private static string Label(ExpressionSyntax argument) =>
        argument.DescendantNodesAndSelf().OfType<LiteralExpressionSyntax>().First().Token.ValueText;

    /// <summary>Label -> the lambda ordinal in the name of the emitted method (or state machine) whose IL loads it.</summary>
    internal static Dictionary<string, int> EmittedOrdinals(Compilation compilation)
    {
        using var stream = new MemoryStream();
        var result = compilation.Emit(stream);
        Assert.True(result.Success, string.Join("\n", result.Diagnostics));
        stream.Position = 0;
        using var pe = new PEReader(stream);
        var reader = pe.GetMetadataReader();
        var ordinals = new Dictionary<string, int>(StringComparer.Ordinal);
        foreach (var handle in reader.MethodDefinitions)
        {
            var method = reader.GetMethodDefinition(handle);
            if (method.RelativeVirtualAddress == 0)
            {
                continue;
            }
            var name = reader.GetString(method.Name);
            var owner = name == "MoveNext" ? reader.GetString(reader.GetTypeDefinition(method.GetDeclaringType()).Name) : name;
            if (GeneratedOrdinal().Match(owner) is not { Success: true } match)
            {
                continue;
            }
            foreach (var label in LoadedStrings(reader, pe.GetMethodBody(method.RelativeVirtualAddress)))
            {
                ordinals[label] = int.Parse(match.Groups["ordinal"].Value, System.Globalization.CultureInfo.InvariantCulture);
            }
        }
        return ordinals;
    }

    // <M>b__0_3, <M>b__3 (display class), <M>g__Local|0_3, each possibly the inner name of a state machine.
    [GeneratedRegex(@"(?:b__|g__\w+\|)(?:\d+_)?(?<ordinal>\d+)")]
    private static partial Regex GeneratedOrdinal();

    private static IEnumerable<string> LoadedStrings(MetadataReader reader, MethodBodyBlock body)
    {
        var il = body.GetILBytes() ?? [];
        for (var i = 0; i + 4 < il.Length; i++)
        {
            // ldstr <user string token 0x70xxxxxx>
            if (il[i] == 0x72 && il[i + 4] == 0x70)
            {
                var offset = il[i + 1] | il[i + 2] << 8 | il[i + 3] << 16;
                var text = reader.GetUserString(MetadataTokens.UserStringHandle(offset)) ?? "";
                if (text.Length > 0)
                {
                    yield return text;
                }
            }
        }
    }
}
