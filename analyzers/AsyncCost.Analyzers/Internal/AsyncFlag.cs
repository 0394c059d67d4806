using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Diagnostics.CodeAnalysis;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Internal;

/// <summary>
/// The <c>bool async</c> idiom: one implementation serves a synchronous and an asynchronous API, a <c>bool</c>
/// parameter choosing <c>await stream.ReadAsync(…)</c> or <c>stream.Read(…)</c>. The sync API calls it with
/// <c>false</c> and blocks on a task that, by construction, has completed; the async body holds blocking calls in
/// the arm that runs when the flag is false. Both are the idiom working as meant, not sync-over-async.
/// </summary>
internal sealed class AsyncFlag
{
    // Calls forwarding the flag are followed this deep; beyond, the forwarded callee is trusted to follow the idiom.
    private const int MaxDepth = 4;

    private readonly Compilation _compilation;
    private readonly WellKnownAsyncTypes _types;
    private readonly ConcurrentDictionary<(IMethodSymbol Method, int Ordinal), bool> _synchronousWhenFalse = new();

    public AsyncFlag(Compilation compilation, WellKnownAsyncTypes types)
    {
        _compilation = compilation;
        _types = types;
    }

    /// <summary>
    /// Whether the operation is the synchronous arm of a split on a <c>bool</c> parameter of its own function
    /// (<c>if (async) await X.WaitAsync(); else X.Wait();</c>, <c>if (!async) …</c>, <c>async ? await … : …</c>):
    /// it runs only when that flag is false, and the function awaits only where the flag is true.
    /// </summary>
    public static bool IsSynchronousArm(IOperation operation, IMethodSymbol function)
    {
        var flags = function.Parameters.Where(p => p.Type.SpecialType == SpecialType.System_Boolean && RunsOnlyWhen(operation, p, false)).ToList();
        if (flags.Count == 0)
        {
            return false;
        }
        var body = OperationScopes.EnclosingFunction(operation) ?? OperationTree.Root(operation);
        var awaits = OperationTree.SameMethod(body).OfType<IAwaitOperation>().ToList();
        return awaits.Count > 0 && flags.Any(flag => awaits.All(awaitOperation => RunsOnlyWhen(awaitOperation, flag, true)));
    }

    /// <summary>
    /// Whether the call passes the constant <c>false</c> to a <c>bool</c> parameter of a method that, for that value,
    /// completes without suspending: each of its awaits sits where the flag is true, or awaits a call that hands the
    /// flag on to a method that does the same.
    /// </summary>
    public bool CompletesSynchronously(IInvocationOperation call)
    {
        foreach (var argument in call.Arguments)
        {
            if (argument.Parameter is { Type.SpecialType: SpecialType.System_Boolean } parameter
                && TaskReference.Strip(argument.Value)!.ConstantValue is { HasValue: true, Value: false }
                && IsSynchronousWhenFalse(call.TargetMethod, parameter.Ordinal, depth: 0, new HashSet<IMethodSymbol>(SymbolEqualityComparer.Default)))
            {
                return true;
            }
        }
        return false;
    }

    private bool IsSynchronousWhenFalse(IMethodSymbol method, int ordinal, int depth, HashSet<IMethodSymbol> visiting)
    {
        method = method.OriginalDefinition.PartialImplementationPart ?? method.OriginalDefinition;
        if (!visiting.Add(method))
        {
            return true; // recursion: the cycle adds no await of its own
        }
        try
        {
            return _synchronousWhenFalse.TryGetValue((method, ordinal), out var known)
                ? known
                : _synchronousWhenFalse.GetOrAdd((method, ordinal), Judge(method, ordinal, depth, visiting));
        }
        finally
        {
            visiting.Remove(method);
        }
    }

    private bool Judge(IMethodSymbol method, int ordinal, int depth, HashSet<IMethodSymbol> visiting)
    {
        if (Body(method) is not { } body)
        {
            // Abstract, interface or compiled elsewhere: a method handed the flag by one that follows the idiom
            // is taken to follow it too; one called directly with false proves nothing.
            return depth > 0;
        }
        var flag = method.Parameters[ordinal];
        if (method.IsAsync)
        {
            foreach (var operation in OperationTree.SameMethod(body))
            {
                var suspends = operation switch
                {
                    IAwaitOperation awaitOperation => !ForwardsFlag(awaitOperation.Operation, flag, depth, visiting),
                    IForEachLoopOperation { IsAsynchronous: true } or IUsingOperation { IsAsynchronous: true } or IUsingDeclarationOperation { IsAsynchronous: true } => true,
                    _ => false,
                };
                if (suspends && !RunsOnlyWhen(operation, flag, true))
                {
                    return false;
                }
            }
            return true;
        }
        // A method returning the task of another: every task it returns must complete synchronously for false.
        return OperationTree.SameMethod(body).OfType<IReturnOperation>()
            .All(returned => returned.ReturnedValue is not { } value || ReturnsCompleted(value, flag, depth, visiting));
    }

    private bool ReturnsCompleted(IOperation value, IParameterSymbol flag, int depth, HashSet<IMethodSymbol> visiting) =>
        TaskReference.Strip(value) is IConditionalOperation { WhenFalse: { } whenFalse } conditional
            ? ReturnsCompleted(conditional.WhenTrue, flag, depth, visiting) && ReturnsCompleted(whenFalse, flag, depth, visiting)
            : _types.IsCompletedByConstruction(TaskReference.Strip(value)) || ForwardsFlag(value, flag, depth, visiting) || RunsOnlyWhen(value, flag, true);

    // `await Read(async, …)` or `return ReadAsync(async, …)`: a call handed the flag itself, to a method that completes
    // synchronously for false (ConfigureAwait, conversions looked through).
    private bool ForwardsFlag(IOperation awaited, IParameterSymbol flag, int depth, HashSet<IMethodSymbol> visiting)
    {
        var operation = TaskReference.Strip(awaited);
        if (operation is IInvocationOperation { TargetMethod.Name: ConfigureAwaitCalls.MethodName, Instance: { } configured })
        {
            operation = TaskReference.Strip(configured);
        }
        if (operation is not IInvocationOperation call)
        {
            return false;
        }
        foreach (var argument in call.Arguments)
        {
            if (argument.Parameter is { } parameter
                && TaskReference.Strip(argument.Value) is IParameterReferenceOperation reference
                && SymbolEqualityComparer.Default.Equals(reference.Parameter, flag))
            {
                return depth >= MaxDepth || IsSynchronousWhenFalse(call.TargetMethod, parameter.Ordinal, depth + 1, visiting);
            }
        }
        return false;
    }

    private static bool RunsOnlyWhen(IOperation operation, IParameterSymbol flag, bool value) =>
        EnclosingConditions.Of(operation, crossFunctions: false).Any(known => Implies(known, flag, value));

    private static bool Implies(EnclosingConditions.Known known, IParameterSymbol flag, bool value) =>
        EnclosingConditions.Implies(known.Condition, known.Value, (leaf, leafValue) =>
            leafValue == value && leaf is IParameterReferenceOperation reference && SymbolEqualityComparer.Default.Equals(reference.Parameter, flag));

    // The callee's body as operations. Its declaration may sit in another file of the compilation; the analyzer
    // driver shares the semantic models it builds, so asking for that file's model does not build a second one.
    [SuppressMessage("MicrosoftCodeAnalysisPerformance", "RS1030:Do not invoke Compilation.GetSemanticModel() method within a diagnostic analyzer", Justification = "The callee's body lives in another tree; the result is cached per method.")]
    private IOperation? Body(IMethodSymbol method)
    {
        if (method.IsAbstract || method.IsExtern || method.DeclaringSyntaxReferences.Length != 1)
        {
            return null;
        }
        var syntax = method.DeclaringSyntaxReferences[0].GetSyntax();
        SyntaxNode? body = syntax switch
        {
            MethodDeclarationSyntax declaration => (SyntaxNode?)declaration.Body ?? declaration.ExpressionBody,
            LocalFunctionStatementSyntax local => (SyntaxNode?)local.Body ?? local.ExpressionBody,
            _ => null,
        };
        if (body is null || !_compilation.ContainsSyntaxTree(syntax.SyntaxTree))
        {
            return null;
        }
        var operation = _compilation.GetSemanticModel(syntax.SyntaxTree).GetOperation(syntax);
        return operation switch
        {
            IMethodBodyOperation methodBody => (IOperation?)methodBody.BlockBody ?? methodBody.ExpressionBody,
            ILocalFunctionOperation localFunction => localFunction.Body,
            _ => null,
        };
    }
}
