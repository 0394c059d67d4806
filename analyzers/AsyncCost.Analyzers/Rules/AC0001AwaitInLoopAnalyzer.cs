using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using AsyncCost.Analyzers.Internal;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Rules;

/// <summary>
/// AC0001: an await in a loop body whose iterations do not depend on one another, so the loop waits once per
/// element where Task.WhenAll or Parallel.ForEachAsync would wait once. Silent whenever an iteration can depend on
/// an earlier one: the awaited value (or anything derived from it) drives the loop condition, feeds a later
/// iteration's await, or decides an early exit; pacing with Task.Delay; streams consumed in order (await foreach);
/// ordered calls on one shared stream, writer, reader, connection, DbContext, channel or semaphore; and awaits that
/// do not use the iteration's data at all (the same call repeated, such as polling).
/// </summary>
[DiagnosticAnalyzer(LanguageNames.CSharp)]
public sealed class AC0001AwaitInLoopAnalyzer : DiagnosticAnalyzer
{
    // Objects whose operations must run one after another when shared across iterations.
    private static readonly string[] OrderedResourceTypeNames =
    [
        "System.IO.Stream", "System.IO.TextWriter", "System.IO.TextReader", "System.Xml.XmlWriter", "System.Xml.XmlReader",
        "System.Data.Common.DbConnection", "System.Data.Common.DbCommand", "System.Data.Common.DbDataReader",
        "System.Data.Common.DbTransaction", "System.Data.Common.DbBatch", "System.Data.IDbConnection",
        "System.Net.Sockets.Socket", "System.Net.WebSockets.WebSocket",
        "System.IO.Pipelines.PipeReader", "System.IO.Pipelines.PipeWriter",
        "System.Threading.Channels.ChannelReader`1", "System.Threading.Channels.ChannelWriter`1",
        "System.Threading.SemaphoreSlim",
        "Microsoft.EntityFrameworkCore.DbContext", "Microsoft.EntityFrameworkCore.DbSet`1",
        "Microsoft.AspNetCore.Http.HttpResponse",
    ];

    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics { get; } = ImmutableArray.Create(Descriptors.AwaitInLoop);

    public override void Initialize(AnalysisContext context)
    {
        context.EnableConcurrentExecution();
        context.ConfigureGeneratedCodeAnalysis(GeneratedCodeAnalysisFlags.None);
        context.RegisterCompilationStartAction(start =>
        {
            var types = WellKnownAsyncTypes.Create(start.Compilation);
            if (!types.HasTasks)
            {
                return;
            }
            var orderedTypes = OrderedResourceTypeNames
                .Select(start.Compilation.GetTypeByMetadataName)
                .Where(t => t is not null)
                .Select(t => t!)
                .ToImmutableArray();
            var taskDelay = types.Task!.GetMembers("Delay");
            start.RegisterOperationAction(
                c =>
                {
                    // Most loops have no await: skip them before building any per-loop facts.
                    var loop = (ILoopOperation)c.Operation;
                    if (loop.Body is not null && OperationTree.ContainsAwait(loop.Body))
                    {
                        new LoopAnalysis(loop, types, orderedTypes, taskDelay).Report(c);
                    }
                },
                OperationKind.Loop);
        });
    }

    private sealed class LoopAnalysis(ILoopOperation loop, WellKnownAsyncTypes types, ImmutableArray<INamedTypeSymbol> orderedTypes, ImmutableArray<ISymbol> taskDelay)
    {
        // Every operation the loop runs in this method: control parts and body, without lambdas and local functions.
        private readonly List<IOperation> _operations = OperationTree.SameMethod(loop).ToList();

        // Locals declared in the body are fresh per iteration; anything else the loop writes is carried between iterations.
        private readonly HashSet<ISymbol> _bodyLocals = new(
            OperationTree.SameMethod(loop.Body).OfType<IVariableDeclaratorOperation>().Select(d => (ISymbol)d.Symbol),
            SymbolEqualityComparer.Default);

        public void Report(OperationAnalysisContext context)
        {
            if (loop is IForEachLoopOperation { IsAsynchronous: true })
            {
                return; // an async stream is consumed in order, one element at a time
            }
            var awaits = BodyAwaits().ToList();
            if (awaits.Count == 0 || !HasBoundedIterations() || awaits.Any(a => IsTaskDelay(Awaited(a))))
            {
                return;
            }
            var tainted = AwaitTaintedSymbols();
            if (IterationsDependOnAwaitedValues(awaits, tainted))
            {
                return;
            }
            // One ordered resource (a stream written in order, a semaphore held around the rest) serializes the whole body.
            if (awaits.Any(a => UsesSharedOrderedResource(Awaited(a))))
            {
                return;
            }
            var varying = IterationVaryingSymbols();
            foreach (var awaitOperation in awaits)
            {
                var awaited = Awaited(awaitOperation);
                if (types.IsTaskLike(awaited.Type) && UsesIterationData(awaited, varying))
                {
                    context.ReportDiagnostic(DiagnosticFactory.Create(
                        Descriptors.AwaitInLoop, awaitOperation.Syntax.GetLocation(), awaitOperation, context.ContainingSymbol, Describe(awaited)));
                }
            }
        }

        // Awaits the body runs once per iteration: not in lambdas, and not in a nested loop's body (that loop owns them);
        // a nested loop's collection or condition does run once per iteration of this one.
        private IEnumerable<IAwaitOperation> BodyAwaits() =>
            OperationTree.SameMethod(loop.Body, skip: op => op.Parent is ILoopOperation nested && nested != loop && op == nested.Body)
                .OfType<IAwaitOperation>();

        private IOperation Awaited(IAwaitOperation awaitOperation) => ConfigureAwaitCalls.Unwrap(awaitOperation.Operation, types);

        // foreach and counted for loops have a known number of iterations; a while/do loop needs a condition that
        // the loop itself advances (a counter, a TryDequeue(out var item)), otherwise it is a work loop (while (true),
        // while (!token.IsCancellationRequested)) that Task.WhenAll cannot replace.
        private bool HasBoundedIterations()
        {
            switch (loop)
            {
                case IForEachLoopOperation:
                    return true;
                case IForLoopOperation forLoop:
                    return forLoop.Condition is not null && forLoop.Condition.ConstantValue is not { HasValue: true };
                case IWhileLoopOperation { Condition: { } condition } when condition.ConstantValue is not { HasValue: true }:
                    var written = WrittenSymbols();
                    return OperationTree.SameMethod(condition).Any(op =>
                        op is IArgumentOperation { Parameter.RefKind: RefKind.Out }
                        || op is IIncrementOrDecrementOperation
                        || (OperationTree.ReferencedSymbol(op) is { } symbol && written.Contains(symbol)));
                default:
                    return false;
            }
        }

        private HashSet<ISymbol> WrittenSymbols()
        {
            var written = new HashSet<ISymbol>(SymbolEqualityComparer.Default);
            foreach (var operation in _operations)
            {
                if (WriteTarget(operation) is { } target && OperationTree.ReferencedSymbol(target) is { } symbol)
                {
                    written.Add(symbol);
                }
            }
            return written;
        }

        private static IOperation? WriteTarget(IOperation operation) => operation switch
        {
            IAssignmentOperation assignment => assignment.Target,
            IIncrementOrDecrementOperation increment => increment.Target,
            IArgumentOperation { Parameter.RefKind: RefKind.Out or RefKind.Ref } argument => argument.Value,
            _ => null,
        };

        // Symbols holding data that came from an await in this loop, followed through assignments, declarations and
        // calls that store into a receiver (results.Add(await F(x)) taints results), to a fixed point.
        private HashSet<ISymbol> AwaitTaintedSymbols()
        {
            var tainted = new HashSet<ISymbol>(SymbolEqualityComparer.Default);
            var flows = new List<(bool Awaits, List<ISymbol> Reads, ISymbol[] Targets)>();
            void AddFlow(IOperation value, ISymbol[] targets)
            {
                if (targets.Length == 0)
                {
                    return;
                }
                // Each value is walked once; the fixed point below only compares symbol sets.
                var awaits = false;
                var reads = new List<ISymbol>();
                foreach (var op in OperationTree.SameMethod(value))
                {
                    awaits |= op is IAwaitOperation;
                    if (OperationTree.ReferencedSymbol(op) is { } symbol)
                    {
                        reads.Add(symbol);
                    }
                }
                if (awaits || reads.Count > 0)
                {
                    flows.Add((awaits, reads, targets));
                }
            }

            foreach (var operation in _operations)
            {
                switch (operation)
                {
                    case IAssignmentOperation assignment:
                        AddFlow(assignment.Value, OperationTree.ReferencedSymbols(assignment.Target).ToArray());
                        break;
                    case IVariableDeclaratorOperation { Initializer: { } initializer } declarator:
                        AddFlow(initializer.Value, [declarator.Symbol]);
                        break;
                    case IInvocationOperation { Instance: { } instance } invocation when OperationTree.ReferencedSymbol(instance) is { } receiver:
                        foreach (var argument in invocation.Arguments)
                        {
                            AddFlow(argument.Value, [receiver]);
                        }
                        break;
                }
            }
            for (var changed = true; changed;)
            {
                changed = false;
                foreach (var (awaits, reads, targets) in flows)
                {
                    if (awaits || reads.Exists(tainted.Contains))
                    {
                        foreach (var target in targets)
                        {
                            changed |= tainted.Add(target);
                        }
                    }
                }
            }
            return tainted;
        }

        private bool IterationsDependOnAwaitedValues(List<IAwaitOperation> awaits, HashSet<ISymbol> tainted)
        {
            bool ReadsTainted(IOperation operation) =>
                OperationTree.SameMethod(operation).Any(op => op is IAwaitOperation || (OperationTree.ReferencedSymbol(op) is { } s && tainted.Contains(s)));

            // The loop's control reads awaited data: while (await r.WaitToReadAsync()), paging until the token is null.
            var controls = loop switch
            {
                IWhileLoopOperation whileLoop => new[] { whileLoop.Condition },
                IForLoopOperation forLoop => new[] { forLoop.Condition },
                _ => [],
            };
            if (controls.Any(c => c is not null && ReadsTainted(c)))
            {
                return true;
            }

            // An await takes its input from an earlier iteration's awaited result (a continuation token).
            if (awaits.Any(a => OperationTree.ReferencedSymbols(a.Operation).Any(s => tainted.Contains(s) && !_bodyLocals.Contains(s))))
            {
                return true;
            }

            // The loop stops on an awaited value (sequential search, retry until success) or hands each result to a
            // consumer that may stop early (yield return).
            foreach (var operation in OperationTree.SameMethod(loop.Body))
            {
                if (IsExitFromLoop(operation) && ExitDependsOnAwaitedValues(operation, ReadsTainted))
                {
                    return true;
                }
            }
            return false;
        }

        private bool IsExitFromLoop(IOperation operation) => operation switch
        {
            IReturnOperation => true,
            IBranchOperation { BranchKind: BranchKind.Break } branch => SymbolEqualityComparer.Default.Equals(branch.Target, loop.ExitLabel),
            IBranchOperation { BranchKind: BranchKind.GoTo } => true,
            _ => false,
        };

        private bool ExitDependsOnAwaitedValues(IOperation exit, System.Func<IOperation, bool> readsTainted)
        {
            if (exit is IReturnOperation { Kind: OperationKind.YieldReturn } || (exit is IReturnOperation { ReturnedValue: { } value } && readsTainted(value)))
            {
                return true;
            }
            var guarded = false;
            for (IOperation? child = exit, parent = exit.Parent; parent is not null && child != loop.Body; child = parent, parent = parent.Parent)
            {
                switch (parent)
                {
                    case IConditionalOperation conditional when child != conditional.Condition:
                        guarded = true;
                        if (readsTainted(conditional.Condition))
                        {
                            return true;
                        }
                        break;
                    case ISwitchOperation switchOperation:
                        guarded = true;
                        if (readsTainted(switchOperation.Value))
                        {
                            return true;
                        }
                        break;
                    case ITryOperation tryOperation when child == tryOperation.Body && OperationTree.ContainsAwait(tryOperation.Body):
                        return true; // retry until the awaited call succeeds
                }
            }
            return !guarded; // an unconditional exit: the loop does not really iterate over independent work
        }

        // The iteration variable, anything declared per iteration, and anything the loop writes (counters, cursors).
        private HashSet<ISymbol> IterationVaryingSymbols()
        {
            var varying = WrittenSymbols();
            varying.UnionWith(_bodyLocals);
            varying.UnionWith(loop.Locals);
            return varying;
        }

        private static bool UsesIterationData(IOperation awaited, HashSet<ISymbol> varying) =>
            OperationTree.ReferencedSymbols(awaited).Any(varying.Contains);

        private bool IsTaskDelay(IOperation awaited) =>
            awaited is IInvocationOperation invocation && taskDelay.Contains(invocation.TargetMethod.OriginalDefinition, SymbolEqualityComparer.Default);

        // The call's receiver or an argument is one stream, writer, connection... shared by all iterations.
        private bool UsesSharedOrderedResource(IOperation awaited)
        {
            if (awaited is not IInvocationOperation invocation)
            {
                return false;
            }
            var inputs = invocation.Arguments.Select(a => a.Value);
            if (invocation.Instance is { } instance)
            {
                inputs = inputs.Prepend(instance);
            }
            return inputs.Any(IsSharedOrderedResource);
        }

        private bool IsSharedOrderedResource(IOperation input)
        {
            for (IOperation? current = ConfigureAwaitCalls.SkipConversions(input); current is not null;)
            {
                if (IsOrderedResourceType(current.Type) && OperationTree.ReferencedSymbol(current) is { } symbol && !_bodyLocals.Contains(symbol))
                {
                    return true;
                }
                current = current is IMemberReferenceOperation { Instance: { } owner } ? ConfigureAwaitCalls.SkipConversions(owner) : null;
            }
            return false;
        }

        private bool IsOrderedResourceType(ITypeSymbol? type)
        {
            if (type is null)
            {
                return false;
            }
            for (var current = type; current is not null; current = current.BaseType)
            {
                if (orderedTypes.Contains(current.OriginalDefinition, SymbolEqualityComparer.Default))
                {
                    return true;
                }
            }
            return type.AllInterfaces.Any(i => orderedTypes.Contains(i.OriginalDefinition, SymbolEqualityComparer.Default));
        }

        private static string Describe(IOperation awaited) => awaited switch
        {
            IInvocationOperation invocation => invocation.TargetMethod.Name,
            _ => awaited.Syntax.ToString(),
        };
    }
}
