using System;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using System.Runtime.CompilerServices;
using System.Threading;
using AsyncCost.Analyzers.Internal;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Rules;

/// <summary>
/// AC0006: <c>.Result</c>, <c>.Wait()</c>, <c>.GetAwaiter().GetResult()</c>, <c>Task.WaitAll/WaitAny</c> on a task
/// not known to be complete, in async and synchronous code alike: blocking a thread on an incomplete task starves
/// the thread pool wherever it happens. Known complete: an earlier await of it (or of a <c>WhenAll</c> holding it), an
/// enclosing or early-exit <c>IsCompleted</c>-family, <c>Status</c> or successful timed-<c>Wait</c> check
/// (vs-threading#301), the antecedent inside its <c>ContinueWith</c> or awaiter callback, an event waited on that
/// such a callback sets, tasks complete by construction (<c>Task.FromResult</c>, the result of
/// <c>await Task.WhenAny</c>, a <c>bool async</c> or enum-mode core called in its synchronous mode), a comparison
/// with such a task (<c>winner != t</c>), a local only ever given null or completed tasks. An earlier
/// reported wait on the same task makes it known too: each task is reported once. Not reported: a console app's
/// synchronous <c>Main</c> (the program's edge), a dedicated thread's start method or lambda (that thread's edge), the synchronous mode a library names (<c>if (!async)</c>,
/// <c>io == IOBehavior.Synchronous</c>), a test's timed probe, and, when the team sets
/// <c>asynccost.AC0006.public_sync_bridges = true</c>, a public synchronous member's own wait. The message says
/// "await it" where an await fits and, in synchronous code, to make the chain async or block at the program's edge.
/// Only a method with a blocking call is walked for these facts, once, however many blocking calls it has.
/// </summary>
[DiagnosticAnalyzer(LanguageNames.CSharp)]
public sealed class AC0006BlockingOnTaskAnalyzer : DiagnosticAnalyzer
{
    /// <summary>
    /// Diagnostic property (in SARIF's properties too) naming what may keep the task pending, where the analyzer shows it:
    /// the evidence that made the finding a warning. Absent on a suggestion whose task's completion cannot be seen.
    /// </summary>
    public const string PendingOnProperty = "AsyncCostPendingOn";

    // AC0010 and AC0011 are this analysis split by where the fix applies and who pays for the wait: the same waits,
    // inside a synchronous contract (SynchronousContract), or anywhere in a test project.
    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics =>
        ImmutableArray.Create(Descriptors.BlockingOnTask, Descriptors.BlockingInSynchronousContract, Descriptors.BlockingInTest);

    public override void Initialize(AnalysisContext context)
    {
        context.EnableConcurrentExecution();
        context.ConfigureGeneratedCodeAnalysis(GeneratedCodeAnalysisFlags.None);
        context.RegisterCompilationStartAction(start =>
        {
            var types = new BlockingAnalysis(start.Compilation, start.Options);
            if (!types.Async.HasTasks)
            {
                return;
            }
            var compilation = start.Compilation;
            var entryPoint = new Lazy<IMethodSymbol?>(
                () => compilation.Options.OutputKind is OutputKind.ConsoleApplication or OutputKind.WindowsApplication
                    ? compilation.GetEntryPoint(CancellationToken.None)
                    : null,
                LazyThreadSafetyMode.ExecutionAndPublication);
            var factsByBody = new ConditionalWeakTable<IOperation, CompletionFacts>();
            var peers = new PeerSuppressions(PeerSuppressions.BlockingPeers);
            var measured = MeasuredCosts.Load(start.Compilation, start.Options, start.CancellationToken);
            start.RegisterOperationAction(c => Analyze(c, types, entryPoint, factsByBody, peers, measured), OperationKind.Invocation, OperationKind.PropertyReference);
        });
    }

    // Blocking calls are rare: each operation is filtered by name first, and only a method with a blocking call
    // is walked (once, shared by all its blocking calls) for the facts that can prove a task complete.
    private static void Analyze(OperationAnalysisContext context, BlockingAnalysis types, Lazy<IMethodSymbol?> entryPoint, ConditionalWeakTable<IOperation, CompletionFacts> factsByBody, PeerSuppressions peers, MeasuredCosts? measured)
    {
        if (BlockingCalls.Classify(context.Operation, types) is not { } use || IsExempt(use, context.ContainingSymbol, entryPoint))
        {
            return;
        }
        var function = OperationScopes.FunctionSymbol(use.Operation, context.ContainingSymbol);
        if (BlockingExemptions.IsDeliberate(use, function, context, types) || BlockingExemptions.IsAwaiterGetResult(use, function, types))
        {
            return;
        }
        var facts = factsByBody.GetValue(OperationTree.Root(context.Operation), root => new CompletionFacts(types, root));
        // Cheapest first: the facts of this body, then (for a parameter of a private method) the arguments of its calls.
        var unknown = use.Subjects.Where(s => !facts.IsKnownComplete(s, use.Operation)).ToList();
        if (unknown.Count == 0 || function is not null && unknown.All(s => BlockingExemptions.IsCompleteAtEveryCall(s, function, facts, types, factsByBody))
            || function is { IsAsync: false } && (BlockingExemptions.IsThreadStart(use.Operation, function, types)
                || OperationScopes.EnclosingFunction(use.Operation) is null && BlockingExemptions.RunsOnlyOnMainThread(function, entryPoint.Value, types))
            || peers.AreSuppressed(use.Operation.Syntax.GetLocation(), context.ContainingSymbol))
        {
            return; // complete, a thread's edge, or a wait the team already decided to keep (VSTHRD002, MA0045, CA1849 suppressed there)
        }
        var properties = AwaitPlacement.Properties(use.Operation, context.ContainingSymbol).Add(BlockingCalls.KindProperty, use.Kind);
        if (use.Kind == BlockingCalls.HelperKind || use.Kind != BlockingCalls.GetResultKind && CatchesAggregateException(use.Operation))
        {
            // A helper's call has no mechanical rewrite. `.Result`, `Wait()` and `WaitAll` throw AggregateException, an
            // await the inner exception: where a catch here depends on the wrapper, the fix would change which handler runs.
            properties = properties.Remove(AwaitPlacement.PropertyName);
        }
        if (types.ConfiguresAwaits(context.ContainingSymbol.ContainingType))
        {
            properties = properties.Add(BlockingCalls.ConfigureAwaitProperty, "true");
        }
        properties = DiagnosticFactory.WithCostIn(properties, BlockedOn(use));
        var contract = types.IsTestProject ? null : types.Contracts.Of(use.Operation, function);
        var descriptor = types.IsTestProject ? Descriptors.BlockingInTest
            : contract is null ? Descriptors.BlockingOnTask
            : Descriptors.BlockingInSynchronousContract;
        var pending = unknown.Select(s => types.Pending.Of(s.Operation)).FirstOrDefault(p => p is not null);
        if (pending is not null)
        {
            properties = properties.Add(PendingOnProperty, pending.Describe());
        }
        context.ReportDiagnostic(DiagnosticFactory.Create(
            descriptor, Severity(descriptor, pending, function), measured, NameLocation(use.Operation.Syntax), use.Operation, context.ContainingSymbol, properties,
            use.Display, contract ?? Advice(use, context.ContainingSymbol, function, types),
            pending is null ? "a task that may not have completed" : "a task that may still be pending on " + pending.Describe()));
    }

    // A warning only on evidence that the task may be pending there; without it the same finding is a suggestion. A
    // contract's wait (AC0010) is a warning where a member other assemblies call synchronously blocks on network I/O: the
    // shape of VSTHRD002's true positives; a constructor's, finalizer's or Dispose's wait on a loop stays a suggestion.
    private static DiagnosticSeverity Severity(DiagnosticDescriptor descriptor, PendingEvidence.Pending? pending, IMethodSymbol? function) =>
        descriptor == Descriptors.BlockingOnTask ? (pending is null ? DiagnosticSeverity.Info : DiagnosticSeverity.Warning)
        : descriptor == Descriptors.BlockingInSynchronousContract && pending is { Kind: PendingKind.Network }
          && function is { MethodKind: MethodKind.Ordinary or MethodKind.PropertyGet or MethodKind.PropertySet, Name: not ("Dispose" or "Close") }
          && CallSites.IsVisibleOutside(function)
            ? DiagnosticSeverity.Warning
            : descriptor.DefaultSeverity;

    // The methods whose tasks the wait blocks on, where the code names them: the call itself (`GetAsync().Result`), or the
    // one call a local is ever given (`var t = GetAsync(); … t.Result`). The time the wait holds its thread is theirs.
    private static IEnumerable<IMethodSymbol> BlockedOn(BlockingUse use) =>
        use.Subjects.Where(s => !s.IsCollection).Select(s => TaskReference.Strip(s.Operation) switch
        {
            IInvocationOperation call => call.TargetMethod,
            ILocalReferenceOperation { Local: var local } => OnlyCallStoredIn(local, OperationTree.Root(use.Operation)),
            _ => null,
        }).OfType<IMethodSymbol>();

    private static IMethodSymbol? OnlyCallStoredIn(ILocalSymbol local, IOperation root)
    {
        IMethodSymbol? stored = null;
        foreach (var operation in root.DescendantsAndSelf())
        {
            var value = operation switch
            {
                IVariableDeclaratorOperation declarator when SymbolEqualityComparer.Default.Equals(declarator.Symbol, local) => declarator.Initializer?.Value,
                IAssignmentOperation { Target: ILocalReferenceOperation target } assignment when SymbolEqualityComparer.Default.Equals(target.Local, local) => assignment.Value,
                _ => null,
            };
            if (value is null)
            {
                continue;
            }
            if (stored is not null || TaskReference.Strip(value) is not IInvocationOperation call)
            {
                return null;
            }
            stored = call.TargetMethod;
        }
        return stored;
    }

    // What to do where the wait stands: await it where an await fits; inside a lock of an async function, await it
    // outside; in synchronous code, where "await it" does not compile, make the chain async or block only at its edge.
    private static string Advice(BlockingUse use, ISymbol containingSymbol, IMethodSymbol? function, BlockingAnalysis types) =>
        AwaitPlacement.CanAwait(use.Operation, containingSymbol) ? use.Instead + " instead"
        : function is { IsAsync: true } && OperationScopes.IsInside<ILockOperation>(use.Operation)
            ? use.Instead + " outside the lock (a SemaphoreSlim taken with WaitAsync can replace it)"
        // A member's own wait that async code of this compilation reaches: it blocks a thread inside that async flow.
        : function is { IsAsync: false, MethodKind: not (MethodKind.AnonymousFunction or MethodKind.LocalFunction) }
          && types.AsyncCallers.PathTo(function) is { } path
            ? "async code reaches it (" + string.Join(" → ", path.Select(SynchronousContract.Display))
              + "), so the wait blocks a thread inside that async flow: make that chain async and " + use.Instead + ", keeping the blocking only for synchronous callers"
        : "make the calling chain async and " + use.Instead + ", or move the blocking to the program's edge (Main, or the one synchronous entry point a framework calls)";

    private static bool CatchesAggregateException(IOperation operation)
    {
        for (IOperation child = operation, parent = operation.Parent!; parent is not null and not IAnonymousFunctionOperation and not ILocalFunctionOperation; child = parent, parent = parent.Parent!)
        {
            if (parent is ITryOperation attempt && child == attempt.Body
                && attempt.Catches.Any(c => c.ExceptionType is { Name: nameof(AggregateException), ContainingNamespace.Name: nameof(System) }))
            {
                return true;
            }
        }
        return false;
    }

    // The squiggle goes on the blocking member's name (`Result`, `Wait`, `GetResult`, `WaitAll`), not the whole chain.
    private static Location NameLocation(SyntaxNode syntax) => syntax switch
    {
        InvocationExpressionSyntax invocation => NameLocation(invocation.Expression),
        MemberAccessExpressionSyntax access => access.Name.GetLocation(),
        MemberBindingExpressionSyntax binding => binding.Name.GetLocation(),
        _ => syntax.GetLocation(),
    };

    private static bool IsExempt(BlockingUse use, ISymbol containingSymbol, Lazy<IMethodSymbol?> entryPoint)
    {
        if (OperationScopes.IsNeverRun(use.Operation))
        {
            return true;
        }
        // A synchronous Main is the program's edge: blocking there, once, is how a sync entry point waits.
        return OperationScopes.FunctionSymbol(use.Operation, containingSymbol) is { IsAsync: false } function
            && SymbolEqualityComparer.Default.Equals(function, entryPoint.Value);
    }
}
