using AsyncCost.Analyzers.Internal;
using AsyncCost.Analyzers.Tests.Verification;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace AsyncCost.Analyzers.Tests;

/// <summary>The join key must read the way the runtime library reads state-machine names back.</summary>
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
    [InlineData("Local", "Shop.Prices.Cache.Entry.LoadAsync")]
    [InlineData("Run", "NoNamespace.Run")]
    public void Methods_and_their_local_functions_map_to_the_declared_member(string declared, string expected)
    {
        var (compilation, model) = Compile();
        var node = compilation.SyntaxTrees.First().GetRoot().DescendantNodes()
            .First(n => n is MethodDeclarationSyntax m && m.Identifier.Text == declared || n is LocalFunctionStatementSyntax l && l.Identifier.Text == declared);
        Assert.Equal(expected, AsyncMethodKey.For(model.GetDeclaredSymbol(node)));
    }

    [Fact]
    public void Lambdas_map_to_the_enclosing_member()
    {
        var (compilation, model) = Compile();
        var lambda = compilation.SyntaxTrees.First().GetRoot().DescendantNodes().OfType<ParenthesizedLambdaExpressionSyntax>().Single();
        Assert.Equal("Shop.Prices.Cache.Entry.LoadAsync", AsyncMethodKey.For(model.GetSymbolInfo(lambda).Symbol));
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
