using System;
using System.Collections.Generic;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Internal;

/// <summary>
/// The conditions the control structure around an operation guarantees where it runs: the arm of an <c>if</c> or
/// <c>?:</c> it sits in, the right side of <c>&amp;&amp;</c> / <c>||</c>, an early exit (<c>if (!c) return …;</c>),
/// a wait-until loop (<c>while (!c) …</c>) or a <c>Debug.Assert(c)</c> before it in an enclosing block. Rules
/// read each condition for the fact they care about (a task completed, a <c>bool async</c> flag is false).
/// </summary>
internal static class EnclosingConditions
{
    /// <summary>"<see cref="Condition"/> evaluated to <see cref="Value"/>" where the operation runs (a class: LINQ over it then runs shared code, nothing JIT-compiled for it).</summary>
    public sealed class Known
    {
        public Known(IOperation condition, bool value)
        {
            Condition = condition;
            Value = value;
        }

        public IOperation Condition { get; }
        public bool Value { get; }
    }

    /// <summary>
    /// The known conditions from the operation outwards. With <paramref name="crossFunctions"/> false the walk stops
    /// at the lambda or local function around the operation (its body may run long after the conditions were checked).
    /// </summary>
    public static IEnumerable<Known> Of(IOperation operation, bool crossFunctions)
    {
        for (IOperation child = operation, parent = operation.Parent!; parent is not null; child = parent, parent = parent.Parent!)
        {
            switch (parent)
            {
                case IAnonymousFunctionOperation or ILocalFunctionOperation when !crossFunctions:
                    yield break;
                case IConditionalOperation conditional when child == conditional.WhenTrue:
                    yield return new Known(conditional.Condition, true);
                    break;
                case IConditionalOperation conditional when child == conditional.WhenFalse:
                    yield return new Known(conditional.Condition, false);
                    break;
                case IBinaryOperation { OperatorKind: BinaryOperatorKind.ConditionalAnd } conjunction when child == conjunction.RightOperand:
                    yield return new Known(conjunction.LeftOperand, true);
                    break;
                case IBinaryOperation { OperatorKind: BinaryOperatorKind.ConditionalOr } disjunction when child == disjunction.RightOperand:
                    yield return new Known(disjunction.LeftOperand, false);
                    break;
                case IBlockOperation block:
                    foreach (var statement in block.Operations.TakeWhile(s => s != child))
                    {
                        if (AfterStatement(statement) is { } known)
                        {
                            yield return known;
                        }
                    }
                    break;
            }
        }
    }

    /// <summary>
    /// Whether <paramref name="condition"/> evaluating to <paramref name="value"/> implies a fact: the boolean
    /// structure (<c>!</c>, <c>&amp;&amp;</c>, <c>||</c>, <c>== true</c>, <c>is false</c>, <c>is not …</c>) is read here, and
    /// <paramref name="leaf"/> judges each remaining operand with the value it must have had.
    /// </summary>
    public static bool Implies(IOperation condition, bool value, Func<IOperation, bool, bool> leaf)
    {
        var stripped = TaskReference.Strip(condition)!;
        switch (stripped)
        {
            case IUnaryOperation { OperatorKind: UnaryOperatorKind.Not } negation:
                return Implies(negation.Operand, !value, leaf);
            case IBinaryOperation { OperatorKind: BinaryOperatorKind.ConditionalAnd } conjunction when value:
                return Implies(conjunction.LeftOperand, true, leaf) || Implies(conjunction.RightOperand, true, leaf);
            case IBinaryOperation { OperatorKind: BinaryOperatorKind.ConditionalOr } disjunction when !value:
                return Implies(disjunction.LeftOperand, false, leaf) || Implies(disjunction.RightOperand, false, leaf);
            case IBinaryOperation { OperatorKind: BinaryOperatorKind.Equals or BinaryOperatorKind.NotEquals } comparison
                when BoolConstant(comparison.RightOperand) is { } right:
                return Implies(comparison.LeftOperand, (comparison.OperatorKind == BinaryOperatorKind.Equals) == value ? right : !right, leaf);
            case IBinaryOperation { OperatorKind: BinaryOperatorKind.Equals or BinaryOperatorKind.NotEquals } comparison
                when BoolConstant(comparison.LeftOperand) is { } left:
                return Implies(comparison.RightOperand, (comparison.OperatorKind == BinaryOperatorKind.Equals) == value ? left : !left, leaf);
            case IIsPatternOperation { Pattern: IConstantPatternOperation { Value: var constant } } isConstant when BoolConstant(constant) is { } matched:
                return Implies(isConstant.Value, value ? matched : !matched, leaf);
            case IIsPatternOperation { Pattern: INegatedPatternOperation { Pattern: IConstantPatternOperation { Value: var negated } } } isNot when BoolConstant(negated) is { } unmatched:
                return Implies(isNot.Value, value ? !unmatched : unmatched, leaf);
            default:
                return leaf(stripped, value);
        }
    }

    private static bool? BoolConstant(IOperation operation) =>
        TaskReference.Strip(operation)!.ConstantValue is { HasValue: true, Value: bool constant } ? constant : null;

    /// <summary>Whether control never falls out of the end of the operation (return, throw, break, continue, goto).</summary>
    public static bool AlwaysExits(IOperation operation) => operation switch
    {
        IReturnOperation or IThrowOperation or IBranchOperation => true,
        IExpressionStatementOperation { Operation: IThrowOperation } => true,
        IBlockOperation { Operations.Length: > 0 } block => AlwaysExits(block.Operations[block.Operations.Length - 1]),
        _ => false,
    };

    // What holds after a statement that falls through: the opposite of an early exit's condition, the negation of a
    // wait-until loop's condition, the argument of Debug.Assert.
    private static Known? AfterStatement(IOperation statement) => statement switch
    {
        IConditionalOperation { WhenFalse: null } exit when AlwaysExits(exit.WhenTrue) => new Known(exit.Condition, false),
        IConditionalOperation { WhenFalse: { } whenFalse } exit when AlwaysExits(exit.WhenTrue) && !AlwaysExits(whenFalse) => new Known(exit.Condition, false),
        IConditionalOperation { WhenFalse: { } whenFalse } exit when AlwaysExits(whenFalse) && !AlwaysExits(exit.WhenTrue) => new Known(exit.Condition, true),
        IWhileLoopOperation { ConditionIsTop: true, Condition: { } condition } => new Known(condition, false),
        IExpressionStatementOperation { Operation: IInvocationOperation { TargetMethod: { Name: "Assert", ContainingType: { Name: "Debug" } debug } } assert }
            when assert.Arguments.Length > 0 && debug.ContainingNamespace?.ToDisplayString() == "System.Diagnostics" =>
            new Known(assert.Arguments[0].Value, true),
        _ => null,
    };
}
