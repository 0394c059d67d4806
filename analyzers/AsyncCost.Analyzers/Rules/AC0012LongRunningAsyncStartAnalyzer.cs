using System.Collections.Immutable;
using AsyncCost.Analyzers.Internal;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Rules;

/// <summary>
/// AC0012: <c>TaskFactory.StartNew</c> with <c>TaskCreationOptions.LongRunning</c> (a constant) and a delegate that
/// returns a task (an async lambda, a lambda or method group returning <c>Task</c>, <c>Task&lt;T&gt;</c> or
/// <c>ValueTask</c>, any overload). The dedicated thread LongRunning creates runs the delegate only up to its first
/// await, then goes away; the rest runs on the thread pool. And the <c>Task&lt;Task&gt;</c> StartNew returns completes
/// when the delegate returns its task, at that first await, not when the work ends, unless it is unwrapped.
/// Not reported: a delegate that does its work before returning (an async lambda without an await, a lambda whose
/// every return is a completed task), LongRunning that is not a constant, or that a <c>TaskFactory</c> was created
/// with, StartNew without LongRunning (the unwrapping question alone is AsyncFixer05's), and <c>Task.Run</c>.
/// Reported in test projects too: a test that awaits the outer task checks before the work ends. Also reported where
/// LongRunning binds as the state object (<c>StartNew(async _ => …, TaskCreationOptions.LongRunning)</c>): no option
/// applies, and the Task&lt;Task&gt; is the same.
/// </summary>
[DiagnosticAnalyzer(LanguageNames.CSharp)]
public sealed class AC0012LongRunningAsyncStartAnalyzer : DiagnosticAnalyzer
{
    /// <summary>Set when the call's result is unwrapped (<c>StartNew(…).Unwrap()</c>): the fix replaces both.</summary>
    public const string UnwrappedProperty = "AsyncCostUnwrapped";

    /// <summary>
    /// Set where <c>Task.Run(delegate[, token])</c> means the same but for the fix: <c>Task.Factory</c>, the delegate's
    /// own overload (no state) with no options but LongRunning and DenyChildAttach (Task.Run's own) and the default
    /// scheduler, a delegate returning Task or Task&lt;T&gt;, and a result that is unwrapped, discarded or converted to
    /// <c>Task</c>, where the unwrapped task fits.
    /// </summary>
    public const string TaskRunProperty = "AsyncCostTaskRun";

    // TaskCreationOptions.LongRunning and DenyChildAttach; compared by value.
    private const int LongRunning = 2;
    private const int DenyChildAttach = 8;

    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics => ImmutableArray.Create(Descriptors.LongRunningAsyncStart);

    public override void Initialize(AnalysisContext context)
    {
        context.EnableConcurrentExecution();
        context.ConfigureGeneratedCodeAnalysis(GeneratedCodeAnalysisFlags.None);
        context.RegisterCompilationStartAction(start =>
        {
            var types = WellKnownAsyncTypes.Create(start.Compilation);
            var factory = start.Compilation.GetTypeByMetadataName("System.Threading.Tasks.TaskFactory");
            var factoryOfT = start.Compilation.GetTypeByMetadataName("System.Threading.Tasks.TaskFactory`1");
            var options = start.Compilation.GetTypeByMetadataName("System.Threading.Tasks.TaskCreationOptions");
            if (!types.HasTasks || factory is null || options is null)
            {
                return;
            }
            start.RegisterOperationAction(c => Analyze(c, types, factory, factoryOfT, options), OperationKind.Invocation);
        });
    }

    private static void Analyze(OperationAnalysisContext context, WellKnownAsyncTypes types, INamedTypeSymbol factory, INamedTypeSymbol? factoryOfT, INamedTypeSymbol options)
    {
        var invocation = (IInvocationOperation)context.Operation;
        var method = invocation.TargetMethod;
        if (method.Name != "StartNew"
            || !(SymbolEqualityComparer.Default.Equals(method.ContainingType.OriginalDefinition, factory)
                || SymbolEqualityComparer.Default.Equals(method.ContainingType.OriginalDefinition, factoryOfT))
            || LongRunningUse(invocation, options) is not { } use
            || StartedDelegate(invocation) is not { } started
            || !types.IsTaskLike(started.Type is INamedTypeSymbol { DelegateInvokeMethod: { } invoke } ? invoke.ReturnType : null)
            || CompletesBeforeReturning(started, types))
        {
            return;
        }

        var unwrapped = UnwrapOf(invocation) is not null;
        var properties = unwrapped
            ? ImmutableDictionary<string, string?>.Empty.Add(UnwrappedProperty, "true")
            : ImmutableDictionary<string, string?>.Empty;
        if (use == Use.Option && CanBecomeTaskRun(invocation, started, unwrapped, types))
        {
            properties = properties.Add(TaskRunProperty, "true");
        }
        context.ReportDiagnostic(DiagnosticFactory.Create(
            Descriptors.LongRunningAsyncStart,
            CallLocation.Of(invocation),
            invocation,
            context.ContainingSymbol,
            properties,
            string.Format(System.Globalization.CultureInfo.InvariantCulture,
                use == Use.Option ? Descriptors.LongRunningThreadForNothing : Descriptors.LongRunningPassedAsState, Describe(started)),
            unwrapped ? Descriptors.LongRunningUnwrappedAdvice : Descriptors.LongRunningNestedTaskAdvice));
    }

    /// <summary>The <c>.Unwrap()</c> call made on the result of <paramref name="startNew"/>, or null.</summary>
    public static IInvocationOperation? UnwrapOf(IInvocationOperation startNew)
    {
        var parent = startNew.Parent;
        if (parent is IArgumentOperation { Parent: IInvocationOperation extension } && extension.TargetMethod.IsExtensionMethod)
        {
            parent = extension;
        }
        return parent is IInvocationOperation { TargetMethod.Name: "Unwrap" } unwrap && OperationTree.ReceiverOf(unwrap) == startNew ? unwrap : null;
    }

    private static bool CanBecomeTaskRun(IInvocationOperation invocation, IOperation started, bool unwrapped, WellKnownAsyncTypes types)
    {
        var parameters = invocation.TargetMethod.Parameters;
        return invocation.Instance is IPropertyReferenceOperation { Property: { Name: "Factory", IsStatic: true } factory }
            && SymbolEqualityComparer.Default.Equals(factory.ContainingType, types.Task)
            && (parameters.Length == 2
                || parameters.Length == 4
                    && SymbolEqualityComparer.Default.Equals(parameters[1].Type, types.CancellationToken)
                    && ArgumentValue(invocation, 3) is IPropertyReferenceOperation { Property: { Name: "Default", IsStatic: true, ContainingType.Name: "TaskScheduler" } })
            && ArgumentValue(invocation, parameters.Length == 2 ? 1 : 2)?.ConstantValue is { HasValue: true, Value: int options }
            && (options & ~(LongRunning | DenyChildAttach)) == 0
            && started.Type is INamedTypeSymbol { DelegateInvokeMethod.ReturnType: var returned } && types.IsTask(returned)
            && (unwrapped || invocation.Parent switch
            {
                IExpressionStatementOperation => true,
                ISimpleAssignmentOperation { Target: IDiscardOperation } => true,
                IConversionOperation { IsImplicit: true, Type: var target } => SymbolEqualityComparer.Default.Equals(target, types.Task),
                _ => false,
            });
    }

    private static IOperation? ArgumentValue(IInvocationOperation invocation, int ordinal)
    {
        foreach (var argument in invocation.Arguments)
        {
            if (argument.Parameter?.Ordinal == ordinal)
            {
                return argument.Value;
            }
        }
        return null;
    }

    /// <summary>How the call gives LongRunning: as its options, or, in <c>StartNew(async _ => …, LongRunning)</c>, as the
    /// state object of the (delegate, object) overload, which the compiler picks for a lambda with one parameter.</summary>
    private enum Use { Option, State }

    private static Use? LongRunningUse(IInvocationOperation invocation, INamedTypeSymbol options)
    {
        foreach (var argument in invocation.Arguments)
        {
            if (SymbolEqualityComparer.Default.Equals(argument.Parameter?.Type, options))
            {
                return CallSites.IsLongRunningConstant(argument.Value) ? Use.Option : null;
            }
            if (argument.Parameter is { Name: "state", Type.SpecialType: SpecialType.System_Object }
                && Unconverted(argument.Value) is var state
                && SymbolEqualityComparer.Default.Equals(state.Type, options)
                && CallSites.IsLongRunningConstant(state))
            {
                return Use.State;
            }
        }
        return null;
    }

    // The delegate the new task runs: the argument of delegate type (StartNew's first parameter in every overload).
    private static IOperation? StartedDelegate(IInvocationOperation invocation)
    {
        foreach (var argument in invocation.Arguments)
        {
            if (argument.Parameter?.Type.TypeKind == TypeKind.Delegate)
            {
                return argument.Value;
            }
        }
        return null;
    }

    // The delegate's work is done by the time it returns its task: an async lambda that never awaits, or a lambda
    // whose every return is a task complete where it is made. Then the dedicated thread does the work, as LongRunning means.
    private static bool CompletesBeforeReturning(IOperation started, WellKnownAsyncTypes types)
    {
        if (started is not IDelegateCreationOperation { Target: IAnonymousFunctionOperation lambda })
        {
            return false;
        }
        if (lambda.Symbol.IsAsync)
        {
            return !OperationTree.ContainsAwait(lambda.Body);
        }
        var returns = 0;
        foreach (var operation in OperationTree.SameMethod(lambda.Body))
        {
            if (operation is IReturnOperation { ReturnedValue: { } value })
            {
                returns++;
                if (!types.IsCompletedByConstruction(Unconverted(value)))
                {
                    return false;
                }
            }
        }
        return returns > 0;
    }

    private static IOperation Unconverted(IOperation value)
    {
        while (value is IConversionOperation { IsImplicit: true } conversion)
        {
            value = conversion.Operand;
        }
        return value;
    }

    private static string Describe(IOperation started) => started switch
    {
        IDelegateCreationOperation { Target: IAnonymousFunctionOperation { Symbol.IsAsync: true } } => "an async lambda",
        IDelegateCreationOperation { Target: IAnonymousFunctionOperation } => "a lambda that returns a task",
        IDelegateCreationOperation { Target: IMethodReferenceOperation reference } => "'" + reference.Method.Name + "', which returns a task,",
        _ => "a delegate that returns a task",
    };
}
