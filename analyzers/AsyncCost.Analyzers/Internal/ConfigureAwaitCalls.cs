using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;
using System.Runtime.CompilerServices;

namespace AsyncCost.Analyzers.Internal;

/// <summary>Recognizes <c>x.ConfigureAwait(...)</c> on a task-like, so rules can look through it to the awaited work.</summary>
internal static class ConfigureAwaitCalls
{
    public const string MethodName = "ConfigureAwait";

    /// <summary>The task-like receiver of a <c>ConfigureAwait</c> call, or the operand itself when it is not one.</summary>
    public static IOperation Unwrap(IOperation operand, WellKnownAsyncTypes types)
    {
        var current = SkipConversions(operand);
        if (current is IInvocationOperation { TargetMethod.Name: MethodName, Instance: { } receiver } && types.IsTaskLike(receiver.Type))
        {
            return SkipConversions(receiver);
        }
        return current;
    }

    [MethodImpl(HotPath.Optimized)]
    public static IOperation SkipConversions(IOperation operation)
    {
        var current = operation;
        while (current is IConversionOperation { IsImplicit: true } conversion)
        {
            current = conversion.Operand;
        }
        return current;
    }
}
