using AsyncCost.Analyzers.Internal;
using AsyncCost.Analyzers.Tests.Verification;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace AsyncCost.Analyzers.Tests;

/// <summary>The join key must read the way the runtime library reads compiler-generated names back.</summary>
public class AsyncMethodKeyTests
{
    private const string Source = """
        using System;
        using System.Threading.Tasks;
        namespace Shop.Prices
        {
            public class Cache<T>
            {
                public class Entry
                {
                    public async Task<int> LoadAsync()
                    {
                        async Task<int> Local() { await Task.Yield(); return 1; }
                        Func<Task> lambda = async () => await Task.Yield();
                        await lambda();
                        return await Local();
                    }
                }
                public Task<int> Count => Task.FromResult(0);
            }
        }
        class NoNamespace { Task Run() => Task.CompletedTask; }
        """;

    [Theory]
    [InlineData("LoadAsync", "Shop.Prices.Cache.Entry.LoadAsync")]
    [InlineData("Local", "Shop.Prices.Cache.Entry.LoadAsync.Local")]
    [InlineData("Run", "NoNamespace.Run")]
    public void Methods_are_keyed_by_type_and_name_and_local_functions_add_their_name(string declared, string expected)
    {
        var (compilation, model) = Compile();
        var node = compilation.SyntaxTrees.First().GetRoot().DescendantNodes()
            .First(n => n is MethodDeclarationSyntax m && m.Identifier.Text == declared || n is LocalFunctionStatementSyntax l && l.Identifier.Text == declared);
        Assert.Equal(expected, AsyncMethodKey.For(model.GetDeclaredSymbol(node)));
    }

    [Fact]
    public void A_lambda_adds_its_compiler_ordinal_counted_with_the_local_functions_before_it()
    {
        var (compilation, model) = Compile();
        var lambda = compilation.SyntaxTrees.First().GetRoot().DescendantNodes().OfType<ParenthesizedLambdaExpressionSyntax>().Single();
        Assert.Equal("Shop.Prices.Cache.Entry.LoadAsync.lambda#1", AsyncMethodKey.For(model.GetSymbolInfo(lambda).Symbol));
    }

    [Fact]
    public async Task A_finding_inside_a_lambda_carries_the_lambdas_key_and_one_outside_the_members()
    {
        const string source = """
            using System;
            using System.Threading.Tasks;
            namespace Shop
            {
                public class Feed
                {
                    public async Task RunAsync()
                    {
                        Func<Task> poll = async () =>
                        {
                            for (var i = 0; i < 3; i++) { await Task.Yield(); }
                        };
                        for (var i = 0; i < 3; i++) { await Task.Yield(); }
                        await poll();
                    }
                }
            }
            """;
        var compilation = TestCompilation.Create([source], OutputKind.DynamicallyLinkedLibrary);

        var diagnostics = await TestCompilation.AnalyzeAsync(compilation, new AsyncCost.Analyzers.Rules.AC0005TaskYieldInLoopAnalyzer(), new TestOptions());

        Assert.Equal(
            ["Shop.Feed.RunAsync.lambda#0", "Shop.Feed.RunAsync"],
            diagnostics.Where(d => d.Id == "AC0005").Select(d => d.Properties[AsyncMethodKey.PropertyName]));
    }

    [Fact]
    public void Property_getters_are_named_like_their_compiled_accessor()
    {
        var (compilation, model) = Compile();
        var property = compilation.SyntaxTrees.First().GetRoot().DescendantNodes().OfType<PropertyDeclarationSyntax>().Single();
        var getter = ((IPropertySymbol)model.GetDeclaredSymbol(property)!).GetMethod;
        Assert.Equal("Shop.Prices.Cache.get_Count", AsyncMethodKey.For(getter));
    }

    private static (Compilation, SemanticModel) Compile()
    {
        var compilation = TestCompilation.Create([Source], OutputKind.DynamicallyLinkedLibrary);
        TestCompilation.AssertCompiles(compilation);
        return (compilation, compilation.GetSemanticModel(compilation.SyntaxTrees.First()));
    }
}
