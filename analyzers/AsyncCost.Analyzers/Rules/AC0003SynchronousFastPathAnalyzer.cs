using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using AsyncCost.Analyzers.Internal;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Rules;

/// <summary>
/// AC0003: an async method that starts by awaiting a callee of this compilation which itself can complete without
/// suspending (a cache check, an EnsureInitialized guard), then only does synchronous work. On the common path the
/// awaited task is already complete, so a non-async wrapper can check IsCompletedSuccessfully and skip the state
/// machine. That saves the state machine's work (CostModel.SynchronousStateMachineTime per call) and no allocation (a
/// synchronously completing async method allocates nothing more than the fast path does), so the rule stays quiet
/// where the call's own cost dwarfs it: every completed path of the callee, or the method's remaining work, allocates
/// (a new object or array, a string built at run time, a disposable acquired per call such as a linked token source).
/// Each method is analyzed once: its own "completes synchronously and cheaply" fact and its "starts by awaiting C"
/// shape are recorded, and the two are joined at compilation end (no rescans of callees).
/// </summary>
[DiagnosticAnalyzer(LanguageNames.CSharp)]
public sealed class AC0003SynchronousFastPathAnalyzer : DiagnosticAnalyzer
{
    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics { get; } = ImmutableArray.Create(Descriptors.SynchronousFastPath);

    public override void Initialize(AnalysisContext context)
    {
        context.EnableConcurrentExecution();
        context.ConfigureGeneratedCodeAnalysis(GeneratedCodeAnalysisFlags.None);
        context.RegisterCompilationStartAction(start =>
        {
            if (ProjectKind.IsTestProject(start.Compilation, start.Options))
            {
                return; // silent in tests: a state machine skipped on a fast path saves nothing a test measures
            }
            var types = WellKnownAsyncTypes.Create(start.Compilation);
            if (!types.HasTasks)
            {
                return;
            }
            var analysis = new Analysis(start.Compilation, types);
            start.RegisterOperationBlockAction(analysis.AnalyzeMethod);
            start.RegisterCompilationEndAction(analysis.Report);
        });
    }

    private sealed class Analysis(Compilation compilation, WellKnownAsyncTypes types)
    {
        private readonly ConcurrentDictionary<IMethodSymbol, bool> _completesSynchronously = new(SymbolEqualityComparer.Default);
        private readonly ConcurrentBag<Start> _startsByAwaiting = new();
        private readonly MethodBodies _bodies = new(compilation);

        public void AnalyzeMethod(OperationBlockAnalysisContext context)
        {
            if (context.OwningSymbol is not IMethodSymbol { IsAsync: true, MethodKind: MethodKind.Ordinary } method
                || !types.IsTaskLike(method.ReturnType)
                || context.OperationBlocks.FirstOrDefault(b => b is IMethodBodyOperation or IBlockOperation) is not { } body)
            {
                return;
            }
            // A callee whose every completed path allocates (or acquires a disposable) costs far more than the state
            // machine a fast path in front of it would skip.
            var completion = SynchronousCompletion.Analyze(body, tracksAllocations: true);
            _completesSynchronously[method] = completion.Exists && !completion.EveryCompletionAllocates;
            if (FirstAwaitedCallee(body) is { } start && !SymbolEqualityComparer.Default.Equals(start.Callee, method))
            {
                _startsByAwaiting.Add(new Start(method, start.Callee, start.Await, start.Block));
            }
        }

        public void Report(CompilationAnalysisContext context)
        {
            var allocatingMethods = new Dictionary<IMethodSymbol, bool>(SymbolEqualityComparer.Default);
            foreach (var start in _startsByAwaiting)
            {
                if (_completesSynchronously.TryGetValue(start.Callee, out var synchronous) && synchronous
                    && !RemainingWorkCallsAllocatingMethod(start, allocatingMethods))
                {
                    context.ReportDiagnostic(DiagnosticFactory.Create(
                        Descriptors.SynchronousFastPath, start.Await.Syntax.GetLocation(), start.Method, start.Method.Name, start.Callee.Name));
                }
            }
        }

        // A method that starts by awaiting a call to another of this compilation's methods. A class, not a tuple: a bag
        // of structs is JIT-compiled again for each struct in every fresh compiler process.
        private sealed class Start(IMethodSymbol method, IMethodSymbol callee, IAwaitOperation awaitOperation, IBlockOperation block)
        {
            public IMethodSymbol Method { get; } = method;
            public IMethodSymbol Callee { get; } = callee;
            public IAwaitOperation Await { get; } = awaitOperation;

            /// <summary>The method's body: the await, then the synchronous work after it.</summary>
            public IBlockOperation Block { get; } = block;
        }

        // The work after the await calls, whenever it runs, a synchronous method of this compilation whose every
        // completed path allocates (a new salt, a file stream, a formatted name): that call costs far more than the
        // state machine. One level only (that method's own calls are not followed); each method is judged once.
        private bool RemainingWorkCallsAllocatingMethod(Start start, Dictionary<IMethodSymbol, bool> allocatingMethods)
        {
            foreach (var statement in start.Block.Operations.Skip(1))
            {
                foreach (var operation in HeapAllocations.OnEveryRun(statement))
                {
                    if (operation is IInvocationOperation { TargetMethod: { IsAsync: false, IsVirtual: false, IsAbstract: false, IsOverride: false } target }
                        && SymbolEqualityComparer.Default.Equals(target.ContainingAssembly, compilation.Assembly)
                        && Allocates(target.OriginalDefinition, allocatingMethods))
                    {
                        return true;
                    }
                }
            }
            return false;
        }

        private bool Allocates(IMethodSymbol method, Dictionary<IMethodSymbol, bool> allocatingMethods)
        {
            if (!allocatingMethods.TryGetValue(method, out var allocates))
            {
                allocates = _bodies.Of(method) is { } body && SynchronousCompletion.Analyze(body, tracksAllocations: true).EveryCompletionAllocates;
                allocatingMethods[method] = allocates;
            }
            return allocates;
        }

        // The shape: the first statement is `await C(...);` or `var x = await C(...);` with C in this compilation, and
        // at least one more statement follows, none of which awaits (await using and await foreach included).
        private (IMethodSymbol Callee, IAwaitOperation Await, IBlockOperation Block)? FirstAwaitedCallee(IOperation body)
        {
            var block = body switch
            {
                IMethodBodyOperation { BlockBody: { } blockBody } => blockBody,
                IBlockOperation plain => plain,
                _ => null,
            };
            if (block is null || block.Operations.Length < 2)
            {
                return null;
            }
            var awaitOperation = block.Operations[0] switch
            {
                IExpressionStatementOperation { Operation: IAwaitOperation awaited } => awaited,
                IVariableDeclarationGroupOperation { Declarations.Length: 1 } group
                    when group.Declarations[0].Declarators is { Length: 1 } declarators && declarators[0].Initializer?.Value is IAwaitOperation awaited => awaited,
                _ => null,
            };
            if (awaitOperation is null
                || ConfigureAwaitCalls.Unwrap(awaitOperation.Operation, types) is not IInvocationOperation { TargetMethod: var callee }
                || !SymbolEqualityComparer.Default.Equals(callee.ContainingAssembly, compilation.Assembly)
                || block.Operations.Skip(1).Any(RunsAsynchronously)
                || block.Operations.Any(HeapAllocations.AllocatesOnEveryPath))
            {
                return null;
            }
            return (callee.OriginalDefinition, awaitOperation, block);
        }

        private static bool RunsAsynchronously(IOperation statement) =>
            OperationTree.SameMethod(statement).Any(op => op is IAwaitOperation
                or IUsingOperation { IsAsynchronous: true }
                or IUsingDeclarationOperation { IsAsynchronous: true }
                or IForEachLoopOperation { IsAsynchronous: true });
    }
}
