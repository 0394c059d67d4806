using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Internal;

/// <summary>
/// Awaits that can never suspend because the awaited task is already complete: complete where it is made (the
/// factories <see cref="WellKnownAsyncTypes.IsCompletedByConstruction"/> knows, and a static readonly field declared
/// here that caches one: <c>static readonly Task&lt;bool&gt; True = Task.FromResult(true);</c>), or the task an awaited
/// <c>Task.WhenAny</c> handed back. Such an await resumes inline: no context is captured, nothing is boxed.
/// </summary>
internal static class CompletedTasks
{
    public static bool IsAlreadyComplete(IOperation awaited, WellKnownAsyncTypes types, MethodBodies bodies)
    {
        var value = ConfigureAwaitCalls.SkipConversions(awaited);
        return value switch
        {
            IFieldReferenceOperation { Field: { IsStatic: true, IsReadOnly: true } field } =>
                bodies.InitializerOf(field) is { } initializer && types.IsCompletedByConstruction(ConfigureAwaitCalls.SkipConversions(initializer)),
            ILocalReferenceOperation local => IsDeclaredWithAnAwait(local.Local)
                && OperationTree.ValuesGivenTo(local) is { Count: > 0 } values && values.All(v => IsWhenAnyWinner(v, types)),
            _ => types.IsCompletedByConstruction(value) || IsWhenAnyWinner(value, types),
        };
    }

    // What awaiting Task.WhenAny gives: the task that completed first, complete by WhenAny's contract, so the await of
    // it (`await await Task.WhenAny(a, b)`, or `var winner = await Task.WhenAny(a, b); … await winner;`) never suspends.
    // The await of WhenAny itself does: its task is pending until one of them completes.
    private static bool IsWhenAnyWinner(IOperation value, WellKnownAsyncTypes types) =>
        ConfigureAwaitCalls.SkipConversions(value) is IAwaitOperation { Operation: var whenAny }
        && ConfigureAwaitCalls.Unwrap(whenAny, types) is IInvocationOperation { TargetMethod: { Name: "WhenAny", IsStatic: true } method }
        && SymbolEqualityComparer.Default.Equals(method.ContainingType, types.Task);

    // A look at the declaration before the walk of the whole body that proves each value the local is given: most
    // awaited locals hold a task started earlier (`var t = GetAsync(); … await t;`), and every await of one asks.
    private static bool IsDeclaredWithAnAwait(ILocalSymbol local) =>
        local.DeclaringSyntaxReferences.Length == 1
        && local.DeclaringSyntaxReferences[0].GetSyntax() is VariableDeclaratorSyntax { Initializer.Value: AwaitExpressionSyntax };
}
