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

    /// <summary>AsyncMethodBuilderCore.ContinuationWrapper: the runtime wraps await continuations in it only while
    /// TplEventSource is enabled by some session (allocation events print the nested name alone).</summary>
    private const string ContinuationWrapper = "ContinuationWrapper";

    /// <summary>True for a type the runtime allocates only while some session has TPL events on.</summary>
    public static bool ExistsOnlyUnderTplTracing(string typeName)
    {
        var name = RuntimeTypeName.Parse(typeName).Name;
        return name == ContinuationWrapper || name.EndsWith("+" + ContinuationWrapper, StringComparison.Ordinal);
    }

    /// <summary>
    /// True for a Task&lt;T&gt; of a shape the framework's own async methods return (their R2R code is absent from a trace's
    /// method events, so they are never among the candidates that return it): a CLR primitive, string, object or array of
    /// bytes (Stream.ReadAsync's Task&lt;int&gt;, SemaphoreSlim.WaitAsync's Task&lt;bool&gt;, ReadLineAsync's Task&lt;string&gt;), or
    /// a framework type of a namespace under System or Microsoft (HttpResponseMessage). Values of the application's own
    /// (decimal, DateTime, Guid, its own types) are not. One async method returning it is then a guess, not attribution.
    /// </summary>
    public static bool IsFrameworkShapedTask(string typeName)
    {
        var parsed = RuntimeTypeName.Parse(typeName);
        return parsed is { Name: TaskOfT, ArraySuffix.Length: 0, Arguments.Count: 1 } && IsFrameworkShaped(parsed.Arguments[0]);

        static bool IsFrameworkShaped(RuntimeTypeName type) =>
            FrameworkResults.Contains(type.Name + type.ArraySuffix)
            || type.Name.LastIndexOf('.') is var dot and > 0 && type.Name[..dot] is var space && space.Contains('.', StringComparison.Ordinal)
                && (space.StartsWith("System.", StringComparison.Ordinal) || space.StartsWith("Microsoft.", StringComparison.Ordinal));
    }

    private static readonly HashSet<string> FrameworkResults = new(StringComparer.Ordinal)
    {
        "System.Boolean", "System.Byte", "System.SByte", "System.Char", "System.Int16", "System.UInt16", "System.Int32",
        "System.UInt32", "System.Int64", "System.UInt64", "System.IntPtr", "System.UIntPtr", "System.Single", "System.Double",
        "System.String", "System.Object", "System.Byte[]",
    };

    public static AllocationClass Classify(string typeName)
    {
        var parsed = RuntimeTypeName.Parse(typeName);
        if (parsed.ArraySuffix.Length > 0)
        {
            return new AllocationClass(AllocationKind.Other, null);
        }
        if (AsyncMethodName.Parse(parsed.Name) is { } own)
        {
            // A class state machine (Debug builds, async iterators) beside its box; a display class is a closure.
            return new AllocationClass(own.Kind == GeneratedTypeKind.Closure ? AllocationKind.Closure : AllocationKind.StateMachine, own);
        }
        if (parsed.Name.StartsWith('<') && AsyncMethodName.Parse(AsyncMethodName.UnknownType + "+" + parsed.Name) is { Kind: not GeneratedTypeKind.Closure } bare)
        {
            // Allocation events name a class state machine by its nested name alone ("<CountAsync>d__2"): the report
            // resolves its declaring type from the trace's method rundown.
            return new AllocationClass(AllocationKind.StateMachine, bare);
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
