using System.Collections.Immutable;
using AsyncCost.Analyzers.Internal;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Rules;

/// <summary>
/// AC0008: an async method or local function whose whole body is <c>return await X</c>, <c>=> await X</c> or
/// (returning Task/ValueTask) <c>await X;</c>, where returning X directly means the same thing: no <c>using</c>,
/// <c>try</c> or <c>lock</c> around it (the shape is one statement), no other await, and X of exactly the
/// return type (nullability included) or a <c>Task&lt;T&gt;</c> for a <c>Task</c> (a reference conversion).
/// Never <c>Task&lt;int&gt;</c> for <c>Task&lt;object&gt;</c> (AsyncFixer#40) nor <c>Task</c> for <c>ValueTask</c>,
/// and not async lambdas: eliding changes a lambda's inferred type and can change overload resolution.
/// The message states the cost that occurs: the state-machine box of a suspending call, or, when X is complete where
/// it is made (<c>await Task.CompletedTask</c>, <c>return await Task.FromResult(v)</c>), only the state machine's
/// instructions (and a Task&lt;T&gt; method's own result task).
/// </summary>
[DiagnosticAnalyzer(LanguageNames.CSharp)]
public sealed class AC0008ElidableStateMachineAnalyzer : DiagnosticAnalyzer
{
    /// <summary>Set when X was written <c>task.ConfigureAwait(bool)</c>: the fix returns <c>task</c>.</summary>
    public const string ConfigureAwaitProperty = "AsyncCostConfigureAwait";

    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics => ImmutableArray.Create(Descriptors.ElidableStateMachine);

    public override void Initialize(AnalysisContext context)
    {
        context.EnableConcurrentExecution();
        context.ConfigureGeneratedCodeAnalysis(GeneratedCodeAnalysisFlags.None);
        context.RegisterCompilationStartAction(start =>
        {
            if (ProjectKind.IsTestProject(start.Compilation, start.Options))
            {
                return; // silent in tests: a test method's await keeps the test itself in the stack trace of a failure
            }
            var types = WellKnownAsyncTypes.Create(start.Compilation);
            if (!types.HasTasks)
            {
                return;
            }
            var bodies = new MethodBodies(start.Compilation);
            start.RegisterOperationAction(
                c =>
                {
                    var body = (IMethodBodyOperation)c.Operation;
                    Analyze(c, types, bodies, c.ContainingSymbol as IMethodSymbol, body.BlockBody ?? body.ExpressionBody);
                },
                OperationKind.MethodBody);
            start.RegisterOperationAction(
                c =>
                {
                    var local = (ILocalFunctionOperation)c.Operation;
                    Analyze(c, types, bodies, local.Symbol, local.Body);
                },
                OperationKind.LocalFunction);
        });
    }

    private static void Analyze(OperationAnalysisContext context, WellKnownAsyncTypes types, MethodBodies bodies, IMethodSymbol? method, IBlockOperation? body)
    {
        if (method is not { IsAsync: true } || body is null || !types.IsTaskLike(method.ReturnType)
            || SingleAwait(body, method.ReturnType, types) is not { } awaitOperation
            || AsyncKeyword(context.Operation.Syntax) is not { } asyncKeyword)
        {
            return;
        }
        var awaited = awaitOperation.Operation;
        var properties = ImmutableDictionary<string, string?>.Empty;
        if (ConfiguredTask(awaited, types) is { } configured)
        {
            awaited = configured;
            properties = properties.Add(ConfigureAwaitProperty, "true");
        }
        if (OperationTree.ContainsAwait(awaited) || !ReturnsAsIs(awaited.Type, method.ReturnType, types))
        {
            return;
        }
        var cost = !CompletedTasks.IsAlreadyComplete(awaited, types, bodies) ? Descriptors.ElidableSuspendingCost
            : types.IsGenericTask(method.ReturnType) ? Descriptors.ElidableCompletedResultCost
            : Descriptors.ElidableCompletedCost;
        context.ReportDiagnostic(DiagnosticFactory.Create(
            Descriptors.ElidableStateMachine, asyncKeyword.GetLocation(), method, properties, method.Name, cost));
    }

    // `return await X;` (also the implicit return of `=> await X`), or `await X;` in a method without a result.
    private static IAwaitOperation? SingleAwait(IBlockOperation body, ITypeSymbol returnType, WellKnownAsyncTypes types)
    {
        IOperation? single = null;
        foreach (var statement in body.Operations)
        {
            if (statement is IReturnOperation { IsImplicit: true, ReturnedValue: null })
            {
                continue;
            }
            if (single is not null)
            {
                return null;
            }
            single = statement;
        }
        return single switch
        {
            IReturnOperation { ReturnedValue: IAwaitOperation awaitOperation } => awaitOperation,
            IExpressionStatementOperation { Operation: IAwaitOperation awaitOperation } when !types.IsGenericTask(returnType) && returnType is INamedTypeSymbol { IsGenericType: false } => awaitOperation,
            _ => null,
        };
    }

    // `task.ConfigureAwait(true|false)` only: ConfigureAwaitOptions can force a yield or swallow exceptions, which returning the task would lose.
    private static IOperation? ConfiguredTask(IOperation awaited, WellKnownAsyncTypes types) =>
        awaited is IInvocationOperation { TargetMethod.Name: "ConfigureAwait", Instance: { } task, Arguments.Length: 1 } invocation
        && types.IsTaskLike(invocation.TargetMethod.ContainingType)
        && invocation.Arguments[0].Value.Type?.SpecialType == SpecialType.System_Boolean
            ? task
            : null;

    private static bool ReturnsAsIs(ITypeSymbol? awaitedType, ITypeSymbol returnType, WellKnownAsyncTypes types)
    {
        if (awaitedType is null)
        {
            return false;
        }
        if (SymbolEqualityComparer.IncludeNullability.Equals(awaitedType, returnType))
        {
            return true;
        }
        // Task<T> is a Task: `Task SaveAsync() => db.SaveChangesAsync();` compiles and behaves the same.
        return SymbolEqualityComparer.Default.Equals(returnType, types.Task) && types.IsTask(awaitedType);
    }

    private static SyntaxToken? AsyncKeyword(SyntaxNode declaration)
    {
        var modifiers = declaration switch
        {
            MethodDeclarationSyntax method => method.Modifiers,
            LocalFunctionStatementSyntax local => local.Modifiers,
            _ => default,
        };
        foreach (var modifier in modifiers)
        {
            if (modifier.IsKind(SyntaxKind.AsyncKeyword))
            {
                return modifier;
            }
        }
        return null;
    }
}
