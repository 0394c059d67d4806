using System.Collections.Generic;
using System.Collections.Immutable;
using AsyncCost.Analyzers.Internal;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Rules;

/// <summary>
/// AC0005: an unconditional forced yield (<c>await Task.Yield()</c>, or <c>ConfigureAwait(ConfigureAwaitOptions.ForceYielding)</c>)
/// in a loop body queues one thread-pool work item per iteration. A yield at the start of a method, a yield
/// guarded by a condition (yield every N items, or when a time slice is used up) and a yield inside a lambda
/// or local function declared in the loop are left alone. Where the yield is a poll loop's only wait
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

    // A loop that repeats until a condition changes (while, do, for without a step), whose body is the yield and at
    // most `if (…) break;` exits, and which awaits nothing else: the yield is its only wait, so something else must
    // change the condition while it hops. A foreach or a counted for works through items instead.
    private static bool IsPollWait(ILoopOperation loop, IAwaitOperation yield)
    {
        var repeatsUntil = loop switch
        {
            IWhileLoopOperation w => !Awaits(w.Condition),
            IForLoopOperation { AtLoopBottom.Length: 0 } f => !Awaits(f.Condition),
            _ => false,
        };
        if (!repeatsUntil)
        {
            return false;
        }
        var statements = loop.Body is IBlockOperation block ? block.Operations : ImmutableArray.Create(loop.Body);
        foreach (var statement in statements)
        {
            var isTheYield = statement is IExpressionStatementOperation { Operation: var expression } && expression == yield;
            if (!isTheYield && !IsExit(statement))
            {
                return false;
            }
        }
        return true;
    }

    private static bool IsExit(IOperation statement) => statement switch
    {
        IBranchOperation { BranchKind: BranchKind.Break } or IReturnOperation => true,
        IConditionalOperation { WhenFalse: null } c => !Awaits(c.Condition) && IsExitBody(c.WhenTrue),
        _ => false,
    };

    private static bool IsExitBody(IOperation body) =>
        body is IBlockOperation block ? block.Operations.Length == 1 && IsExit(block.Operations[0]) : IsExit(body);

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
}
