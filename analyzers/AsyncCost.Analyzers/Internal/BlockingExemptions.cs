using System;
using System.Linq;
using System.Runtime.CompilerServices;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Internal;

/// <summary>Waits the blocking rules leave alone: blocking the code chose, a thread's own edge, an awaiter's GetResult, and task parameters every call passes complete.</summary>
internal static class BlockingExemptions
{
    // The GetResult of an awaiter wrapping a task or another awaiter (`public T GetResult() => this.inner.GetResult();`):
    // `await` calls it only once IsCompleted is true or the continuation OnCompleted took has run, so its wait on what it
    // wraps (a field or property of its own) finds it complete. A caller that skips the await pattern
    // (`x.GetAwaiter().GetResult()`) blocks at that call, which is reported there.
    public static bool IsAwaiterGetResult(BlockingUse use, IMethodSymbol? function, BlockingAnalysis types) =>
        function is { Name: "GetResult", IsStatic: false, Parameters.Length: 0, ContainingType: var awaiter }
        && types.NotifyCompletion is { } notifyCompletion
        && awaiter.AllInterfaces.Contains(notifyCompletion, SymbolEqualityComparer.Default)
        && use.Operation switch
        {
            IPropertyReferenceOperation { Instance: { } waited } => IsOwnMember(waited),
            IInvocationOperation { Instance: { } waited } => IsOwnMember(waited),
            _ => false,
        };

    private static bool IsOwnMember(IOperation operation) => ConfigureAwaitCalls.SkipConversions(operation)
        is IFieldReferenceOperation { Instance: IInstanceReferenceOperation } or IPropertyReferenceOperation { Instance: IInstanceReferenceOperation };

    // A dedicated thread's start (`new Thread(AppMain).Start(args)`, `new Thread(() => …)`) is that thread's edge, as Main is
    // the program's: blocking there holds only the thread made for it, never a pool thread, and no context runs there.
    // A private method or local function counts when starting threads is its only use.
    public static bool IsThreadStart(IOperation operation, IMethodSymbol function, BlockingAnalysis types) =>
        OperationScopes.EnclosingFunction(operation) switch
        {
            IAnonymousFunctionOperation lambda => lambda.Parent is IDelegateCreationOperation { Parent: IArgumentOperation { Parent: var receiver } }
                && CallSites.IsThreadCreation(receiver),
            _ => types.CallSites.Of(function) is { IsComplete: true, Calls.Length: 0, HandedTo.Length: 0, ThreadStarts: > 0 },
        };

    // How many synchronous methods may stand between the synchronous Main and the wait.
    private const int MaxMainThreadChain = 4;

    // A synchronous method only the synchronous Main reaches, by calls or handed to a non-scheduler (a command-line
    // parser's `WithParsed(Run)`, a host's callback) through up to four synchronous methods: it runs on Main's thread,
    // the program's edge, where the message itself says to block. Handed to Task.Run, StartNew, ContinueWith, the
    // ThreadPool or a timer, it runs on a pool thread, and is reported.
    public static bool RunsOnlyOnMainThread(IMethodSymbol function, IMethodSymbol? entryPoint, BlockingAnalysis types, int depth = 0)
    {
        if (entryPoint is not { IsAsync: false })
        {
            return false;
        }
        if (SymbolEqualityComparer.Default.Equals(function.OriginalDefinition, entryPoint.OriginalDefinition))
        {
            return true;
        }
        if (depth >= MaxMainThreadChain || function is not { IsAsync: false, MethodKind: MethodKind.Ordinary or MethodKind.LocalFunction })
        {
            return false;
        }
        var found = types.CallSites.Of(function);
        return found is { IsComplete: true, ThreadStarts: 0 } && found.Calls.Length + found.HandedTo.Length > 0
            && found.Calls.All(call => call.Container is IMethodSymbol caller && RunsOnlyOnMainThread(caller, entryPoint, types, depth + 1))
            && found.HandedTo.All(receiver => !IsScheduler(receiver.TargetMethod)
                && receiver.SemanticModel?.GetEnclosingSymbol(receiver.Syntax.SpanStart) is IMethodSymbol handing
                && SymbolEqualityComparer.Default.Equals(handing.OriginalDefinition, entryPoint.OriginalDefinition));
    }

    private static bool IsScheduler(IMethodSymbol method) =>
        method.ContainingType?.ContainingNamespace?.ToDisplayString() is "System.Threading.Tasks" or "System.Threading";

    /// <summary>The .editorconfig option by which a library says its public synchronous API bridges to its async core on purpose.</summary>
    public const string PublicSyncBridgesOption = "public_sync_bridges";

    /// <summary>
    /// The .editorconfig option naming a team's own blocking helpers (<c>asynccost.AC0006.blocking_helpers = BlockingWait,
    /// Tasks.RunSync, Shop.Common.Tasks.RunSync</c>: a method name, or the containing type's name or full name and the method's), so their calls
    /// are reported in every project of the solution, where the helper is only an assembly reference.
    /// </summary>
    public const string BlockingHelpersOption = "blocking_helpers";

    // Blocking the code chose, or reported elsewhere: a test's timed probe whose answer is the assertion, the body of a
    // blocking helper (`static void Sync(this Task t) => t.GetAwaiter().GetResult();`: its calls are reported), the
    // synchronous mode of a library that serves both APIs (a `bool async` flag or an enum mode such as
    // IOBehavior.Synchronous), and, where the team says so, the public synchronous API of a library over its async core.
    public static bool IsDeliberate(BlockingUse use, IMethodSymbol? function, OperationAnalysisContext context, BlockingAnalysis types) =>
        types.IsTestProject && use.IsProbe
        || function is not null && types.IsReportedAtCalls(function)
        || AsyncFlag.RunsInSynchronousMode(use.Operation)
        || function is not null && AsyncFlag.IsSynchronousArm(use.Operation, function)
        || function is { IsAsync: false } && IsPublicSynchronousMember(use.Operation, function)
            && RuleOptions.Get(context.Options, use.Operation.Syntax.SyntaxTree, RuleIds.BlockingOnTask, PublicSyncBridgesOption) is { } bridges
            && bridges.Equals("true", StringComparison.OrdinalIgnoreCase);

    // A member other assemblies call synchronously, the wait in its own body (not in a lambda it hands on): a public or
    // protected method, accessor or constructor of a visible type, or an interface implementation or override of one.
    private static bool IsPublicSynchronousMember(IOperation operation, IMethodSymbol function) =>
        OperationScopes.EnclosingFunction(operation) is null
        && (CallSites.IsVisibleOutside(function)
            || function.ExplicitInterfaceImplementations.Length > 0 && CallSites.IsVisibleOutside(function.ContainingType));

    // A task parameter of a private method or local function, never reassigned, that every call passes complete
    // (`if (t.IsCompleted) Settle(t); … await t; Settle(t);`), or the antecedent where the method is handed as the
    // continuation itself: to ContinueWith (`work.ContinueWith(Deliver, state, …)`), or, with the task, to a method of
    // this compilation that takes a task and a callback taking one (`AwaitTask(task, new(this, &SetResult))`): the
    // shape of a continuation, which runs once that task is done.
    public static bool IsCompleteAtEveryCall(WaitedTask subject, IMethodSymbol function, CompletionFacts facts, BlockingAnalysis types, ConditionalWeakTable<IOperation, CompletionFacts> factsByBody)
    {
        if (subject.IsCollection
            || TaskReference.Strip(subject.Operation) is not IParameterReferenceOperation { Parameter: var parameter }
            || !SymbolEqualityComparer.Default.Equals(parameter.ContainingSymbol, function)
            || function.MethodKind is not (MethodKind.Ordinary or MethodKind.LocalFunction)
            || facts.IsAssigned(parameter))
        {
            return false;
        }
        var found = types.CallSites.Of(function);
        return found.IsComplete && found.ThreadStarts == 0 && found.Calls.Length + found.HandedTo.Length > 0
            && found.HandedTo.All(receiver => parameter.Ordinal == 0
                && (receiver.TargetMethod is { Name: "ContinueWith", IsStatic: false } continueWith && types.Async.IsTask(continueWith.ContainingType)
                    || IsHandedTheTaskToo(receiver, types)))
            && found.Calls.All(call =>
                call.Invocation.Arguments.FirstOrDefault(a => SymbolEqualityComparer.Default.Equals(a.Parameter?.OriginalDefinition, parameter.OriginalDefinition)) is { } argument
                && factsByBody.GetValue(OperationTree.Root(call.Invocation), root => new CompletionFacts(types, root))
                    .IsKnownComplete(new WaitedTask(types.Underlying(argument.Value)), call.Invocation));
    }

    // A method declared here (not a framework scheduler: QueueUserWorkItem's state is a type parameter, not a task)
    // whose own parameter list takes a task, and that is handed one.
    private static bool IsHandedTheTaskToo(IInvocationOperation receiver, BlockingAnalysis types) =>
        receiver.TargetMethod.DeclaringSyntaxReferences.Length > 0
        && receiver.Arguments.Any(argument => argument.Parameter?.OriginalDefinition.Type is { } declared && types.Async.IsTaskLike(declared.OriginalDefinition));

}
