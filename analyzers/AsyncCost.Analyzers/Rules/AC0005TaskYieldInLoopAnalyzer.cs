using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using AsyncCost.Analyzers.Internal;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Rules;

/// <summary>
/// AC0005: an unconditional forced yield (<c>await Task.Yield()</c>, or <c>ConfigureAwait(ConfigureAwaitOptions.ForceYielding)</c>)
/// in a loop body queues one thread-pool work item per iteration. A yield at the start of a method, a yield
/// guarded by a condition (yield every N items, or when a time slice is used up) and a yield inside a lambda
/// or local function declared in the loop are left alone, and so is one only a failed attempt reaches (after a try whose
/// success leaves the loop). Where the yield is a poll loop's only wait
/// (<c>while (!TryPause()) await Task.Yield();</c>) the advice differs: moving the yield out would leave a spin that
/// never frees the thread, so the finding says to wait on a signal instead, and carries <see cref="PollProperty"/> so
/// the code fix does not offer the move.
/// </summary>
[DiagnosticAnalyzer(LanguageNames.CSharp)]
public sealed class AC0005TaskYieldInLoopAnalyzer : DiagnosticAnalyzer
{
    // ConfigureAwaitOptions.ForceYielding; compared by value so the rule also runs against frameworks before .NET 8.
    private const int ForceYielding = 4;

    /// <summary>Diagnostic property set on a poll loop's yield: its fix is a signal, not a hoisted yield.</summary>
    public const string PollProperty = "AsyncCostPoll";

    private static readonly ImmutableDictionary<string, string?> PollProperties = ImmutableDictionary<string, string?>.Empty.Add(PollProperty, "true");

    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics => ImmutableArray.Create(Descriptors.TaskYieldInLoop);

    public override void Initialize(AnalysisContext context)
    {
        context.EnableConcurrentExecution();
        context.ConfigureGeneratedCodeAnalysis(GeneratedCodeAnalysisFlags.None);
        context.RegisterCompilationStartAction(start =>
        {
            if (ProjectKind.IsTestProject(start.Compilation, start.Options))
            {
                return; // silent in tests: a test yields in a loop on purpose, to force interleavings
            }
            var types = WellKnownAsyncTypes.Create(start.Compilation);
            if (!types.HasTasks)
            {
                return;
            }
            start.RegisterOperationAction(c => AnalyzeAwait(c, types), OperationKind.Await);
        });
    }

    private static void AnalyzeAwait(OperationAnalysisContext context, WellKnownAsyncTypes types)
    {
        var awaitOperation = (IAwaitOperation)context.Operation;
        if (!IsForcedYield(awaitOperation.Operation, types)
            || OperationScopes.EnclosingLoop(awaitOperation, out var pathFromBody) is not { } loop
            || IsConditional(pathFromBody))
        {
            return;
        }
        var poll = IsPollWait(loop, awaitOperation);
        context.ReportDiagnostic(DiagnosticFactory.Create(Descriptors.TaskYieldInLoop, awaitOperation.Syntax.GetLocation(), awaitOperation, context.ContainingSymbol, poll ? PollProperties : ImmutableDictionary<string, string?>.Empty, poll ? Descriptors.TaskYieldPollAdvice : Descriptors.TaskYieldHoistAdvice));
    }

    // A loop that repeats until a condition changes (while, do, for without a step) and whose every iteration awaits
    // nothing but this yield: the yield is its only wait, for something else to change the condition (a poll:
    // `while (!TryPause())`, or a retry: `while (true) { if (TryX()) break; … }`). An await only some iterations reach
    // (a recovery step inside an `if`) does not make it a work loop. A loop whose condition takes the next item itself
    // (`while (queue.TryDequeue(out var item))`, a counter) works through items, like a foreach or a counted for.
    private static bool IsPollWait(ILoopOperation loop, IAwaitOperation yield)
    {
        var condition = loop switch
        {
            IWhileLoopOperation w => w.Condition,
            IForLoopOperation { AtLoopBottom.Length: 0 } f => f.Condition,
            _ => null,
        };
        if (loop is not (IWhileLoopOperation or IForLoopOperation { AtLoopBottom.Length: 0 }) || Awaits(condition) || TakesNextItem(condition, loop.Body))
        {
            return false;
        }
        foreach (var operation in OperationTree.SameMethod(loop.Body))
        {
            if (operation is IAwaitOperation other && other != yield && !IsConditional(PathFrom(loop.Body, other)))
            {
                return false;
            }
        }
        return true;
    }

    // A counter, or an out argument the body reads (or discards): the condition hands each iteration its item. Out
    // values the body never reads (`while (!Validate(entry, out size))`) are the check's results for after the loop.
    private static bool TakesNextItem(IOperation? condition, IOperation body)
    {
        if (condition is null)
        {
            return false;
        }
        HashSet<ISymbol>? read = null;
        foreach (var operation in OperationTree.SameMethod(condition))
        {
            if (operation is IIncrementOrDecrementOperation)
            {
                return true;
            }
            if (operation is IArgumentOperation { Parameter.RefKind: RefKind.Out } output)
            {
                var target = output.Value is IDeclarationExpressionOperation declaration ? declaration.Expression : output.Value;
                if (OperationTree.ReferencedSymbol(target) is not { } symbol)
                {
                    return true; // a discard, or a target this check does not follow
                }
                read ??= new HashSet<ISymbol>(OperationTree.ReferencedSymbols(body), SymbolEqualityComparer.Default);
                if (read.Contains(symbol))
                {
                    return true;
                }
            }
        }
        return false;
    }

    private static List<IOperation> PathFrom(IOperation ancestor, IOperation operation)
    {
        var path = new List<IOperation>();
        for (IOperation? current = operation; current is not null && current != ancestor; current = current.Parent)
        {
            path.Add(current);
        }
        path.Add(ancestor);
        path.Reverse();
        return path;
    }

    private static bool Awaits(IOperation? operation) => operation is not null && OperationTree.ContainsAwait(operation);

    private static bool IsForcedYield(IOperation awaited, WellKnownAsyncTypes types)
    {
        if (awaited is not IInvocationOperation invocation)
        {
            return false;
        }
        var method = invocation.TargetMethod;
        if (method.Name == "Yield" && method.IsStatic && SymbolEqualityComparer.Default.Equals(method.ContainingType, types.Task))
        {
            return true;
        }
        return method.Name == "ConfigureAwait"
            && types.IsTaskLike(method.ContainingType)
            && invocation.Arguments.Length == 1
            && SymbolEqualityComparer.Default.Equals(invocation.Arguments[0].Value.Type, types.ConfigureAwaitOptions)
            && invocation.Arguments[0].Value.ConstantValue is { HasValue: true, Value: int options }
            && (options & ForceYielding) != 0;
    }

    // A yield that only some iterations reach is the batching this rule recommends, not the per-iteration cost.
    private static bool IsConditional(IReadOnlyList<IOperation> pathFromBody)
    {
        for (var i = 1; i < pathFromBody.Count; i++)
        {
            var parent = pathFromBody[i - 1];
            var child = pathFromBody[i];
            if (parent is IBlockOperation block && FollowsTryLeftOnSuccess(block, child))
            {
                return true;
            }
            var conditional = parent switch
            {
                IConditionalOperation c => child != c.Condition,
                IBinaryOperation { OperatorKind: BinaryOperatorKind.ConditionalAnd or BinaryOperatorKind.ConditionalOr } b => child == b.RightOperand,
                ICoalesceOperation coalesce => child == coalesce.WhenNull,
                IConditionalAccessOperation access => child == access.WhenNotNull,
                ISwitchCaseOperation or ISwitchExpressionArmOperation or ICatchClauseOperation => true,
                _ => false,
            };
            if (conditional)
            {
                return true;
            }
        }
        return false;
    }

    // `try { …; break; } catch { … } await Task.Yield();`: the try leaves the loop (or the method) when it succeeds, so
    // only an iteration whose attempt threw reaches what follows it: a retry's pause, paid once per failure.
    private static bool FollowsTryLeftOnSuccess(IBlockOperation block, IOperation statement)
    {
        foreach (var earlier in block.Operations)
        {
            if (earlier == statement)
            {
                return false;
            }
            if (earlier is ITryOperation { Catches.Length: > 0, Body.Operations: { Length: > 0 } tried }
                && tried[tried.Length - 1] is IBranchOperation or IReturnOperation or IThrowOperation or IExpressionStatementOperation { Operation: IThrowOperation })
            {
                return true;
            }
        }
        return false;
    }
}
