using System.Collections.Generic;
using System.Collections.Immutable;
using AsyncCost.Analyzers.Internal;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Rules;

/// <summary>
/// AC0013: inside a loop of an async method, lambda or local function, a <c>Task.WhenAny</c> that races a task started
/// in this iteration (a call that returns a task, such as the operation or a <c>Task.Delay</c> timeout, or a local
/// declared in the loop body), or a <c>ContinueWith</c>: the receive loop that races each datagram's receive against a
/// timeout allocates the WhenAny's task and its continuations, a timer and its task, and a continuation task with its
/// delegate, once per message. Not reported: a call outside a loop or in a lambda declared in it, a loop bounded by a
/// small constant (<c>for (var i = 0; i &lt; 3; i++)</c>, <c>while (++attempt &lt;= 5)</c>: a retry), a WhenAny over
/// tasks that all come from outside the loop (a supervisor waiting on long-running workers wakes when one ends, not per
/// message), synchronous code (there is nothing to await instead), and test projects.
/// </summary>
[DiagnosticAnalyzer(LanguageNames.CSharp)]
public sealed class AC0013WhenAnyInLoopAnalyzer : DiagnosticAnalyzer
{
    /// <summary>The largest constant bound of a loop counter that makes a loop a retry of a few tries.</summary>
    public const int MaxBoundedIterations = 16;

    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics => ImmutableArray.Create(Descriptors.WhenAnyInLoop);

    public override void Initialize(AnalysisContext context)
    {
        context.EnableConcurrentExecution();
        context.ConfigureGeneratedCodeAnalysis(GeneratedCodeAnalysisFlags.None);
        context.RegisterCompilationStartAction(start =>
        {
            if (ProjectKind.IsTestProject(start.Compilation, start.Options))
            {
                return; // silent in tests: a test's loop runs a handful of times, and its allocations are not the service's
            }
            var types = WellKnownAsyncTypes.Create(start.Compilation);
            if (!types.HasTasks)
            {
                return;
            }
            start.RegisterOperationAction(c => Analyze(c, types), OperationKind.Invocation);
        });
    }

    private static void Analyze(OperationAnalysisContext context, WellKnownAsyncTypes types)
    {
        var invocation = (IInvocationOperation)context.Operation;
        var method = invocation.TargetMethod;
        var isWhenAny = method is { Name: "WhenAny", IsStatic: true } && SymbolEqualityComparer.Default.Equals(method.ContainingType, types.Task);
        var isContinueWith = !isWhenAny && method is { Name: "ContinueWith", IsStatic: false } && types.IsTask(method.ContainingType);
        if (!(isWhenAny || isContinueWith)
            || OperationScopes.EnclosingLoop(invocation, out _) is not { } loop
            || OperationScopes.FunctionSymbol(invocation, context.ContainingSymbol) is not { IsAsync: true }
            || IsBoundedSmall(loop))
        {
            return;
        }
        string cost;
        if (isWhenAny)
        {
            if (!RacesTaskOfThisIteration(invocation, loop, types, out var delays))
            {
                return;
            }
            cost = delays ? Descriptors.WhenAnyWithDelayCost : Descriptors.WhenAnyCost;
        }
        else
        {
            cost = Descriptors.ContinueWithCost;
        }
        context.ReportDiagnostic(DiagnosticFactory.Create(
            Descriptors.WhenAnyInLoop,
            CallLocation.Of(invocation),
            invocation,
            context.ContainingSymbol,
            isWhenAny ? "Task.WhenAny" : "ContinueWith",
            cost,
            isWhenAny ? Descriptors.WhenAnyInLoopAdvice : Descriptors.ContinueWithInLoopAdvice));
    }

    // One of the raced tasks is made in this iteration: a call returning a task among the arguments (the operation,
    // Task.Delay), or a local declared or assigned in the loop body (`read = ReadAsync();` before the loop's next race).
    // `delays` says a Task.Delay is among them (a timer per iteration).
    private static bool RacesTaskOfThisIteration(IInvocationOperation whenAny, ILoopOperation loop, WellKnownAsyncTypes types, out bool delays)
    {
        delays = false;
        var perIteration = false;
        HashSet<ILocalSymbol>? setInLoop = null;
        foreach (var argument in whenAny.Arguments)
        {
            foreach (var operation in OperationTree.SameMethod(argument.Value))
            {
                switch (operation)
                {
                    case IInvocationOperation call when types.IsTaskLike(call.Type):
                        perIteration = true;
                        delays |= call.TargetMethod is { Name: "Delay", IsStatic: true } && SymbolEqualityComparer.Default.Equals(call.TargetMethod.ContainingType, types.Task);
                        break;
                    case ILocalReferenceOperation { Local: var local }:
                        perIteration |= (setInLoop ??= LocalsSetIn(loop.Body)).Contains(local);
                        break;
                }
            }
        }
        return perIteration;
    }

    private static HashSet<ILocalSymbol> LocalsSetIn(IOperation body)
    {
        var locals = new HashSet<ILocalSymbol>(SymbolEqualityComparer.Default);
        foreach (var operation in OperationTree.SameMethod(body))
        {
            switch (operation)
            {
                case IVariableDeclaratorOperation declarator:
                    locals.Add(declarator.Symbol);
                    break;
                case ISimpleAssignmentOperation { Target: ILocalReferenceOperation target }:
                    locals.Add(target.Local);
                    break;
            }
        }
        return locals;
    }

    // A counter compared with a small constant in the loop's condition (`i < 3`, `++attempt <= MaxAttempts`, also as
    // one side of `&&`): a retry of a few tries, whose allocations do not repeat per message.
    private static bool IsBoundedSmall(ILoopOperation loop) => loop switch
    {
        IForLoopOperation { Condition: { } condition } => IsSmallBound(condition),
        IWhileLoopOperation { Condition: { } condition } => IsSmallBound(condition),
        _ => false,
    };

    private static bool IsSmallBound(IOperation condition)
    {
        while (condition is IConversionOperation { IsImplicit: true } conversion)
        {
            condition = conversion.Operand;
        }
        if (condition is not IBinaryOperation binary)
        {
            return false;
        }
        return binary.OperatorKind switch
        {
            BinaryOperatorKind.ConditionalAnd => IsSmallBound(binary.LeftOperand) || IsSmallBound(binary.RightOperand),
            BinaryOperatorKind.LessThan or BinaryOperatorKind.LessThanOrEqual => IsCounter(binary.LeftOperand) && IsSmallConstant(binary.RightOperand),
            BinaryOperatorKind.GreaterThan or BinaryOperatorKind.GreaterThanOrEqual => IsSmallConstant(binary.LeftOperand) && IsCounter(binary.RightOperand),
            _ => false,
        };
    }

    private static bool IsCounter(IOperation operand) =>
        (operand is IIncrementOrDecrementOperation step ? step.Target : operand) is ILocalReferenceOperation or IParameterReferenceOperation;

    private static bool IsSmallConstant(IOperation operand) =>
        operand.ConstantValue is { HasValue: true, Value: { } value }
        && value is int or long or short or byte or uint or ulong or ushort or sbyte
        && System.Convert.ToDecimal(value, System.Globalization.CultureInfo.InvariantCulture) is > 0 and <= MaxBoundedIterations;
}
