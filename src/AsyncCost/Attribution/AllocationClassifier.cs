using AsyncCost.Report;

namespace AsyncCost.Attribution;

/// <summary>What an allocated type is to async code, from its name alone.</summary>
/// <param name="Kind">Box, task, closure, delegate or other.</param>
/// <param name="Method">The async method the name itself names (boxes, closures with their type and ordinal); null when the name does not say.</param>
internal sealed record AllocationClass(AllocationKind Kind, AsyncMethodName? Method);

/// <summary>Classifies runtime type names of sampled allocations.</summary>
internal static class AllocationClassifier
{
    public const string TaskOfT = "System.Threading.Tasks.Task`1";

    public static AllocationClass Classify(string typeName)
    {
        var parsed = RuntimeTypeName.Parse(typeName);
        if (parsed.ArraySuffix.Length > 0)
        {
            return new AllocationClass(AllocationKind.Other, null);
        }
        if (AsyncMethodName.Parse(parsed.Name) is { } own)
        {
            // A class state machine (Debug builds) is its own box; a display class is a closure.
            return new AllocationClass(own.Kind == GeneratedTypeKind.Closure ? AllocationKind.Closure : AllocationKind.StateMachineBox, own);
        }
        // AsyncStateMachineBox`1[TResult, TStateMachine], its Debug/ValueTask/pooling variants: the state machine is an argument.
        foreach (var argument in parsed.Arguments)
        {
            if (AsyncMethodName.Parse(argument.Name) is { Kind: not GeneratedTypeKind.Closure } method)
            {
                return new AllocationClass(AllocationKind.StateMachineBox, method);
            }
        }
        if (parsed.Name is "System.Threading.Tasks.Task" or TaskOfT)
        {
            return new AllocationClass(AllocationKind.Task, null);
        }
        if (parsed.Name.StartsWith("System.Action", StringComparison.Ordinal) || parsed.Name.StartsWith("System.Func`", StringComparison.Ordinal))
        {
            return new AllocationClass(AllocationKind.Delegate, null);
        }
        return new AllocationClass(AllocationKind.Other, null);
    }
}
