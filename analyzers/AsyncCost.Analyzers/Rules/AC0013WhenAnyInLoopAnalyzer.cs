using System.Collections.Generic;
using System.Linq;
using System.Collections.Immutable;
using AsyncCost.Analyzers.Internal;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Rules;

/// <summary>
/// AC0013: inside a loop of an async method, lambda or local function, a <c>Task.WhenAny</c> that races an operation
/// started in this iteration (a call that returns a task other than <c>Task.Delay</c>, or a local the loop body sets),
/// or a <c>ContinueWith</c>: the receive loop that races each datagram's receive against a
/// timeout allocates the WhenAny's task and its continuations, a timer and its task, and a continuation task with its
/// delegate, once per message. Not reported: a call outside a loop or in a lambda declared in it, a loop bounded by a
/// small constant (<c>for (var i = 0; i &lt; 3; i++)</c>, <c>while (++attempt &lt;= 5)</c>: a retry), a WhenAny over
/// tasks that all come from outside the loop (a supervisor waiting on long-running workers wakes when one ends, not per
/// message) or only a delay beside them (a ticker: once per interval), synchronous code (there is nothing to await instead), and test projects.
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
            || OperationScopes.RepeatingLoop(invocation) is not { } loop
            || OperationScopes.FunctionSymbol(invocation, context.ContainingSymbol) is not { IsAsync: true }
            || IsBoundedSmall(loop)
            || IsPaced(loop, types))
        {
            return;
        }
        string cost;
        var delayed = false;
        if (isWhenAny)
        {
            if (!RacesOperationOfThisIteration(invocation, loop, types, out var delays))
            {
                return;
            }
            delayed = delays;
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
            !isWhenAny ? Descriptors.ContinueWithInLoopAdvice : delayed ? Descriptors.WhenAnyInLoopAdvice : Descriptors.WhenAnyRaceInLoopAdvice));
    }

    // One of the raced tasks is an operation started in this iteration: a call returning a task among the arguments, or
    // a local declared or assigned in the loop body (`read = ReadAsync();` before the loop's next race). A Task.Delay
    // does not count (it sets `delays`: a timer per iteration): racing only a delay against tasks made before the loop
    // (`WhenAny(_stopped.Task, Task.Delay(interval))`) is a ticker, which runs once per interval, not per message.
    private static bool RacesOperationOfThisIteration(IInvocationOperation whenAny, ILoopOperation loop, WellKnownAsyncTypes types, out bool delays)
    {
        delays = false;
        var perIteration = false;
        Dictionary<ILocalSymbol, bool>? setInLoop = null;
        foreach (var argument in whenAny.Arguments)
        {
            foreach (var operation in OperationTree.SameMethod(argument.Value))
            {
                switch (operation)
                {
                    case IInvocationOperation call when types.IsTaskLike(call.Type):
                        var delay = IsDelay(call, types);
                        delays |= delay;
                        perIteration |= !delay;
                        break;
                    case ILocalReferenceOperation { Local: var local }
                        when (setInLoop ??= LocalsSetIn(loop.Body, types)).TryGetValue(local, out var onlyDelays):
                        delays |= onlyDelays;
                        perIteration |= !onlyDelays;
                        break;
                }
            }
        }
        return perIteration;
    }

    // A loop that pauses every iteration (`await Task.Delay(interval)`, or a ticker's race of a delay against tasks made
    // before the loop) runs once per interval at most: what its races allocate does not repeat per message.
    private static bool IsPaced(ILoopOperation loop, WellKnownAsyncTypes types) =>
        OperationTree.SameMethod(loop.Body).Any(operation => operation switch
        {
            IAwaitOperation { Operation: var awaited } => IsDelay(ConfigureAwaitCalls.Unwrap(awaited, types), types),
            IInvocationOperation { TargetMethod: { Name: "WhenAny", IsStatic: true } method } ticker when SymbolEqualityComparer.Default.Equals(method.ContainingType, types.Task) =>
                !RacesOperationOfThisIteration(ticker, loop, types, out var delays) && delays,
            _ => false,
        });

    private static bool IsDelay(IOperation? value, WellKnownAsyncTypes types)
    {
        while (value is IConversionOperation { IsImplicit: true } conversion)
        {
            value = conversion.Operand;
        }
        return value is IInvocationOperation { TargetMethod: { Name: "Delay", IsStatic: true } method }
            && SymbolEqualityComparer.Default.Equals(method.ContainingType, types.Task);
    }

    // The locals the loop body gives a value, each with whether every value it gives is a Task.Delay.
    private static Dictionary<ILocalSymbol, bool> LocalsSetIn(IOperation body, WellKnownAsyncTypes types)
    {
        var locals = new Dictionary<ILocalSymbol, bool>(SymbolEqualityComparer.Default);
        void Set(ILocalSymbol local, IOperation value) =>
            locals[local] = IsDelay(value, types) && (!locals.TryGetValue(local, out var before) || before);
        foreach (var operation in OperationTree.SameMethod(body))
        {
            switch (operation)
            {
                case IVariableDeclaratorOperation { Initializer.Value: var value } declarator:
                    Set(declarator.Symbol, value);
                    break;
                case ISimpleAssignmentOperation { Target: ILocalReferenceOperation target, Value: var value }:
                    Set(target.Local, value);
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
