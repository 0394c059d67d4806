using System;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using System.Runtime.CompilerServices;
using System.Threading;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Internal;

/// <summary>The blocking calls AC0006, AC0010 and AC0011 report: <c>.Result</c>, <c>.Wait(…)</c>, <c>GetResult()</c>, <c>Task.WaitAll/WaitAny</c>, a blocking helper; and the tasks each blocks on.</summary>
internal static class BlockingCalls
{
    /// <summary>Diagnostic property telling the fix which shape it is rewriting.</summary>
    /// <summary>Diagnostic property telling the fix which shape it is rewriting.</summary>
    public const string KindProperty = "AsyncCostBlockingKind";
    public const string ResultKind = "Result";
    public const string WaitKind = "Wait";
    public const string GetResultKind = "GetResult";
    public const string WaitAllKind = "WaitAll";
    /// <summary>WaitAny and the WaitAll overloads with a timeout or token: reported, with no mechanical fix.</summary>
    public const string WaitAnyKind = "WaitAny";
    /// <summary>A call of a blocking helper (<c>task.Sync()</c>): reported, with no mechanical fix.</summary>
    public const string HelperKind = "Helper";

    /// <summary>Set when the awaited task should be configured (library code outside UI types), so the fix's await is clean under AC0004.</summary>
    public const string ConfigureAwaitProperty = "AsyncCostConfigureAwait";
    /// <summary>The blocking call an operation is, if any: <c>.Result</c>, <c>.Wait(…)</c>, <c>GetResult()</c>, <c>Task.WaitAll/WaitAny</c>.</summary>
    public static BlockingUse? Classify(IOperation operation, BlockingAnalysis types)
    {
        if (operation is IPropertyReferenceOperation { Property.Name: "Result", Instance: { } task } reference)
        {
            var type = reference.Property.ContainingType.OriginalDefinition;
            return SymbolEqualityComparer.Default.Equals(type, types.Async.TaskOfT) || SymbolEqualityComparer.Default.Equals(type, types.Async.ValueTaskOfT)
                ? new BlockingUse(reference, ResultKind, ".Result", "await it", ImmutableArray.Create(new WaitedTask(types.Underlying(task))))
                : null;
        }
        if (operation is not IInvocationOperation invocation)
        {
            return null;
        }
        var method = invocation.TargetMethod;
        switch (method.Name)
        {
            case "Wait" when !method.IsStatic && invocation.Instance is { } waited && types.Async.IsTask(method.ContainingType)
                && WaitTimeouts.Of(invocation, types.TimeSpan) is not WaitTimeouts.Kind.Zero and var timeout:
                return new BlockingUse(invocation, WaitKind, ".Wait()", "await it", ImmutableArray.Create(new WaitedTask(types.Underlying(waited))), IsProbe(invocation, timeout));
            case "GetResult" when invocation.Instance is { } awaiter && types.Awaiters.Contains(method.ContainingType.OriginalDefinition):
                return new BlockingUse(invocation, GetResultKind, ".GetAwaiter().GetResult()", "await it", ImmutableArray.Create(new WaitedTask(types.TaskBehindAwaiter(awaiter))));
            case "WaitAll" or "WaitAny" when types.IsTaskStatic(method, method.Name) && WaitTimeouts.Of(invocation, types.TimeSpan) is not WaitTimeouts.Kind.Zero and var timeout:
                var isAll = method.Name == "WaitAll";
                // Only WaitAll(params Task[]) has a WhenAll twin with the same arguments and no result.
                var kind = isAll && method.Parameters.Length == 1 && method.ReturnsVoid ? WaitAllKind : WaitAnyKind;
                return new BlockingUse(invocation, kind, "Task." + method.Name, isAll ? "await Task.WhenAll" : "await Task.WhenAny", TaskArguments(invocation, types), IsProbe(invocation, timeout));
            default:
                // `DisposeAsync().Sync()`: a code base's own helper whose only work is to block on the task it is given.
                return types.IsBlockingHelper(method) && invocation.Arguments.FirstOrDefault(a => a.Parameter?.Ordinal == 0) is { } blocked
                    ? new BlockingUse(invocation, HelperKind, method.Name + "()", "await it", ImmutableArray.Create(new WaitedTask(types.Underlying(blocked.Value))))
                    : null;
        }
    }

    // A wait with a timeout whose answer is used (`t.Wait(20).ShouldBeFalse()`, `Assert.False(t.Wait(20))`): in a test, a probe.
    private static bool IsProbe(IInvocationOperation wait, WaitTimeouts.Kind timeout) =>
        timeout == WaitTimeouts.Kind.NonZero && !wait.TargetMethod.ReturnsVoid && wait.Parent is not IExpressionStatementOperation;

    // Task.WaitAll(a, b) / WhenAll(a, b): the params elements; WaitAll(tasks) / WhenAll(list): the elements of the collection.
    public static ImmutableArray<WaitedTask> TaskArguments(IInvocationOperation invocation, BlockingAnalysis types)
    {
        var tasks = ImmutableArray.CreateBuilder<WaitedTask>();
        foreach (var argument in invocation.Arguments)
        {
            if (argument.Parameter is not { Type: var type } || type.SpecialType == SpecialType.System_Int32 || type.Name is "TimeSpan" or "CancellationToken")
            {
                continue;
            }
            if (Elements(argument.Value) is { } elements)
            {
                tasks.AddRange(elements.Select(value => new WaitedTask(types.Underlying(value))));
            }
            else if (type is IArrayTypeSymbol || type.OriginalDefinition.SpecialType == SpecialType.System_Collections_Generic_IEnumerable_T || type.Name == "ReadOnlySpan")
            {
                tasks.Add(new WaitedTask(argument.Value, isCollection: true));
            }
        }
        return tasks.ToImmutable();
    }

    // The tasks written out in the call: `WhenAll(a, b)` as a params array, an array created in place
    // (`new Task[] { a, b }`) or a collection expression. C# 13 binds `WhenAll(a, b)` to the `params ReadOnlySpan<Task>`
    // overload, whose argument is a collection expression (an operation kind this Roslyn 4.5 build has no interface
    // for: its children are the elements; a spread is not one task, so the elements are not listed then).
    public static IEnumerable<IOperation>? Elements(IOperation value)
    {
        var stripped = TaskReference.Strip(value);
        if (stripped is IArrayCreationOperation { Initializer: { } initializer })
        {
            return initializer.ElementValues;
        }
        if (stripped is { Kind: CollectionExpressionKind } collection)
        {
            var children = collection.ChildOperations.ToList();
            return children.All(child => child.Kind != SpreadKind) ? children : null;
        }
        return null;
    }

    private const OperationKind CollectionExpressionKind = (OperationKind)0x7F;
    private const OperationKind SpreadKind = (OperationKind)0x80;
}

/// <summary>A task expression, or a collection whose elements are the tasks (<c>Task.WaitAll(tasks)</c>). A class, like
/// <see cref="Evidence"/>: the lists and LINQ it passes through run shared code, not a copy JIT-compiled per struct in
/// every fresh compiler process.</summary>
internal sealed class WaitedTask
{
    public WaitedTask(IOperation operation, bool isCollection = false)
    {
        Operation = operation;
        IsCollection = isCollection;
    }

    public IOperation Operation { get; }
    public bool IsCollection { get; }

    public TaskReference? Reference => IsCollection ? TaskReference.Of(Operation)?.ElementOf() : TaskReference.Of(Operation);
}

/// <summary>A blocking call and the tasks it blocks on.</summary>
internal sealed class BlockingUse
{
    public BlockingUse(IOperation operation, string kind, string display, string instead, ImmutableArray<WaitedTask> subjects, bool isProbe = false)
    {
        Operation = operation;
        Kind = kind;
        Display = display;
        Instead = instead;
        Subjects = subjects;
        IsProbe = isProbe;
    }

    public IOperation Operation { get; }
    public string Kind { get; }
    public string Display { get; }
    /// <summary>What to write instead, for the message: "await it", "await Task.WhenAll".</summary>
    public string Instead { get; }
    public ImmutableArray<WaitedTask> Subjects { get; }

    /// <summary>WaitAny blocks until one of its tasks completes, not each: it reports none of them for later uses.</summary>
    public bool CoversSubjects => Operation is not IInvocationOperation { TargetMethod.Name: "WaitAny" };

    /// <summary>A wait with a timeout whose answer is used (<c>t.Wait(20).ShouldBeFalse()</c>): a test's probe.</summary>
    public bool IsProbe { get; }
}
