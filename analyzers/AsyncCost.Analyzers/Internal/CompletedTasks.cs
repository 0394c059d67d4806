using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Internal;

/// <summary>
/// Awaits that can never suspend because the awaited task is complete where it is made: the factories
/// <see cref="WellKnownAsyncTypes.IsCompletedByConstruction"/> knows, and a static readonly field declared here that
/// caches one (<c>static readonly Task&lt;bool&gt; True = Task.FromResult(true);</c>). Such an await resumes
/// inline: no context is captured, nothing is boxed.
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
            _ => types.IsCompletedByConstruction(value),
        };
    }
}
