using System.Collections.Generic;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Internal;

/// <summary>
/// Heap allocations visible in a method's own operations (calls are not followed: what a callee allocates is not
/// visible here), for rules that stay quiet where a path already pays more than the cost they would save.
/// </summary>
internal static class HeapAllocations
{
    /// <summary>An expression that allocates where it stands: a reference-type or array creation, an anonymous object,
    /// or a string built at run time (interpolation or concatenation that is not a constant).</summary>
    public static bool IsAllocation(IOperation operation) => operation is IObjectCreationOperation { Type.IsReferenceType: true }
        or IArrayCreationOperation
        or IAnonymousObjectCreationOperation
        or IInterpolatedStringOperation { ConstantValue.HasValue: false, Type.SpecialType: SpecialType.System_String }
        or IBinaryOperation { OperatorKind: BinaryOperatorKind.Add, ConstantValue.HasValue: false, Type.SpecialType: SpecialType.System_String };

    /// <summary>
    /// The statement (or expression) allocates, or acquires a disposable per call (a linked token source and its timer),
    /// whenever it runs: not under a branch, a loop, a catch, a short-circuit or a lambda.
    /// </summary>
    public static bool AllocatesOnEveryPath(IOperation statement)
    {
        foreach (var operation in OnEveryRun(statement))
        {
            if (IsAllocation(operation)
                || operation is IUsingOperation
                    or IUsingDeclarationOperation
                    or IInvocationOperation { TargetMethod: { Name: "CreateLinkedTokenSource", ContainingType.Name: "CancellationTokenSource" } })
            {
                return true;
            }
        }
        return false;
    }

    /// <summary>The statement's operations that run whenever it does (not under a branch, a loop body, a catch, a
    /// short-circuit, or in a lambda or local function).</summary>
    public static IEnumerable<IOperation> OnEveryRun(IOperation statement) => OperationTree.SameMethod(statement, skip: IsConditionallyRun);

    private static bool IsConditionallyRun(IOperation child) => child.Parent switch
    {
        IConditionalOperation conditional => child != conditional.Condition,
        ICoalesceOperation coalesce => child == coalesce.WhenNull,
        IConditionalAccessOperation access => child == access.WhenNotNull,
        IBinaryOperation { OperatorKind: BinaryOperatorKind.ConditionalAnd or BinaryOperatorKind.ConditionalOr } binary => child == binary.RightOperand,
        ILoopOperation loop => child == loop.Body,
        ISwitchOperation switchOperation => child != switchOperation.Value,
        ISwitchExpressionOperation switchExpression => child != switchExpression.Value,
        ITryOperation tryOperation => child != tryOperation.Body && child != tryOperation.Finally,
        _ => false,
    };
}
