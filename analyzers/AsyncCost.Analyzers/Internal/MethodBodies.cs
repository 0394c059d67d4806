using System.Collections.Concurrent;
using System.Diagnostics.CodeAnalysis;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Internal;

/// <summary>
/// The bodies, as operations, of methods and the initializers of fields declared in this compilation, for rules
/// that look into a callee (does it complete synchronously, is it a timed wait). One lookup per symbol per compilation.
/// </summary>
internal sealed class MethodBodies
{
    private readonly Compilation _compilation;
    private readonly ConcurrentDictionary<ISymbol, IOperation?> _bodies = new(SymbolEqualityComparer.Default);

    public MethodBodies(Compilation compilation) => _compilation = compilation;

    /// <summary>The block or expression body of a method or local function declared here, or null (abstract, extern, metadata, partial without body).</summary>
    public IOperation? Of(IMethodSymbol method)
    {
        method = method.OriginalDefinition.PartialImplementationPart ?? method.OriginalDefinition;
        return method.IsAbstract || method.IsExtern ? null : _bodies.GetOrAdd(method, m => Load(m));
    }

    /// <summary>The initializer of a field declared here (<c>static readonly Task&lt;bool&gt; True = Task.FromResult(true);</c>), or null.</summary>
    public IOperation? InitializerOf(IFieldSymbol field) => _bodies.GetOrAdd(field.OriginalDefinition, f => Load(f));

    // The declaration may sit in another file of the compilation; the analyzer driver shares the semantic models it
    // builds, so asking for that file's model does not build a second one.
    [SuppressMessage("MicrosoftCodeAnalysisPerformance", "RS1030:Do not invoke Compilation.GetSemanticModel() method within a diagnostic analyzer", Justification = "The body lives in another tree; the result is cached per symbol.")]
    private IOperation? Load(ISymbol symbol)
    {
        if (symbol.DeclaringSyntaxReferences.Length != 1)
        {
            return null;
        }
        var syntax = symbol.DeclaringSyntaxReferences[0].GetSyntax();
        SyntaxNode? body = syntax switch
        {
            MethodDeclarationSyntax declaration => (SyntaxNode?)declaration.Body ?? declaration.ExpressionBody,
            LocalFunctionStatementSyntax local => (SyntaxNode?)local.Body ?? local.ExpressionBody,
            VariableDeclaratorSyntax { Initializer: { } initializer } => initializer,
            _ => null,
        };
        if (body is null || !_compilation.ContainsSyntaxTree(syntax.SyntaxTree))
        {
            return null;
        }
        var operation = _compilation.GetSemanticModel(syntax.SyntaxTree).GetOperation(body is EqualsValueClauseSyntax ? body : syntax);
        return operation switch
        {
            IMethodBodyOperation methodBody => (IOperation?)methodBody.BlockBody ?? methodBody.ExpressionBody,
            ILocalFunctionOperation localFunction => localFunction.Body,
            IFieldInitializerOperation initializer => initializer.Value,
            _ => null,
        };
    }
}
