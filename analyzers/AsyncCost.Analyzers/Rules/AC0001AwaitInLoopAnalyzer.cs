using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using AsyncCost.Analyzers.Internal;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Rules;

/// <summary>
/// AC0001: a loop that awaits a call per iteration with nothing in the loop showing that an iteration needs the one
/// before it, so the loop may wait once per element where Task.WhenAll or Parallel.ForEachAsync would wait once.
/// One finding per loop, on its first such await. Silent whenever the loop shows an order: the awaited value (or
/// anything derived from it) drives the loop condition, feeds a later iteration's await, or decides an early exit;
/// a value carried from one iteration into the next one's await; an exit on shared state an await was handed;
/// pacing with Task.Delay; streams consumed in order (await foreach); ordered calls on one shared stream, writer,
/// reader, buffer, connection or channel (a known one, one named so, one whose class holds mutable state, or one the
/// loop also uses synchronously); awaits of tasks that are already running; calls dispatched to each element in
/// turn (callbacks, handlers: order is their contract); DisposeAsync and CloseAsync, and any loop inside a method
/// of that name (teardown runs once and releases in order); batching with Task.WhenAll;
/// awaits that do not use the iteration's data at all (polling); and test projects, where sequential awaits are
/// usually the point of the test.
/// </summary>
[DiagnosticAnalyzer(LanguageNames.CSharp)]
public sealed class AC0001AwaitInLoopAnalyzer : DiagnosticAnalyzer
{
    // Objects whose operations must run one after another when shared across iterations, by metadata name: matching
    // names costs nothing up front, where resolving each type would search every reference of every compilation.
    private static readonly ImmutableHashSet<string> OrderedResourceTypeNames = ImmutableHashSet.Create(
        "System.IO.Stream", "System.IO.TextWriter", "System.IO.TextReader", "System.Xml.XmlWriter", "System.Xml.XmlReader",
        "System.Data.Common.DbConnection", "System.Data.Common.DbCommand", "System.Data.Common.DbDataReader",
        "System.Data.Common.DbTransaction", "System.Data.Common.DbBatch", "System.Data.IDbConnection",
        "System.Net.Sockets.Socket", "System.Net.WebSockets.WebSocket",
        "System.IO.Pipelines.PipeReader", "System.IO.Pipelines.PipeWriter",
        "System.Threading.Channels.ChannelReader`1", "System.Threading.Channels.ChannelWriter`1",
        "System.Threading.SemaphoreSlim",
        "Microsoft.EntityFrameworkCore.DbContext", "Microsoft.EntityFrameworkCore.DbSet`1",
        "Microsoft.AspNetCore.Http.HttpResponse");

    // Type names that say "a position advances with each call" (a custom writer, reader or buffer), in any library.
    private static readonly string[] OrderedResourceNameSuffixes =
        ["Writer", "Reader", "Buffer", "Stream", "Connection", "Transaction", "Session", "Context", "Cursor", "Enumerator", "Channel"];

    // Calls whose order is the point: releasing resources (children before parents, or the reverse).
    private static readonly string[] OrderedTeardownNames = ["DisposeAsync", "CloseAsync"];

    // Awaiting these in a loop is already the batched form the rule recommends.
    private static readonly string[] BatchingNames = ["WhenAll", "WhenAny", "WhenEach"];

    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics { get; } = ImmutableArray.Create(Descriptors.AwaitInLoop);

    public override void Initialize(AnalysisContext context)
    {
        context.EnableConcurrentExecution();
        context.ConfigureGeneratedCodeAnalysis(GeneratedCodeAnalysisFlags.None);
        context.RegisterCompilationStartAction(start =>
        {
            if (ProjectKind.IsTestProject(start.Compilation, start.Options))
            {
                return; // silent in tests: awaiting one step after another is usually what a test means to do
            }
            var types = WellKnownAsyncTypes.Create(start.Compilation);
            if (!types.HasTasks)
            {
                return;
            }
            start.RegisterOperationAction(
                c =>
                {
                    // Most loops have no await: skip them before building any per-loop facts, first the loops of
                    // functions that are not async (no await can be there; top-level statements are implicitly declared).
                    var loop = (ILoopOperation)c.Operation;
                    if (loop.Body is not null
                        && OperationScopes.FunctionSymbol(loop, c.ContainingSymbol) is not { IsAsync: false, IsImplicitlyDeclared: false }
                        && !IsTeardownMethod(c.ContainingSymbol)
                        && OperationTree.ContainsAwait(loop.Body))
                    {
                        new LoopAnalysis(loop, types).Report(c);
                    }
                },
                OperationKind.Loop);
        });
    }

    // A method that releases the object's resources: DisposeAsync (an IAsyncDisposable implementation included, and
    // the DisposeAsyncCore of the dispose pattern) or CloseAsync. It runs once per object lifetime, and each await in
    // its loops (wait for a child's work, reset it, release it) is ordered release of what the object owns: running
    // them together would change which failure stops the rest, for a cost paid once.
    private static bool IsTeardownMethod(ISymbol? member) =>
        member is IMethodSymbol method
        && (System.Array.IndexOf(OrderedTeardownNames, method.Name) >= 0
            || method.Name == "DisposeAsyncCore"
            || method.ExplicitInterfaceImplementations.Any(i => i.Name == "DisposeAsync"));

    private sealed class LoopAnalysis(ILoopOperation loop, WellKnownAsyncTypes types)
    {
        // Every operation the loop runs in this method: control parts and body, without lambdas and local functions.
        private readonly List<IOperation> _operations = OperationTree.SameMethod(loop).ToList();

        // Locals declared in the body are fresh per iteration; anything else the loop writes is carried between iterations.
        private HashSet<ISymbol>? _bodyLocals;

        private HashSet<ISymbol> BodyLocals => _bodyLocals ??= new(
            _operations.OfType<IVariableDeclaratorOperation>().Where(d => IsInBody(d, loop)).Select(d => (ISymbol)d.Symbol),
            SymbolEqualityComparer.Default);

        private static bool IsInBody(IOperation operation, ILoopOperation loop)
        {
            for (var current = operation; current != loop && current is not null; current = current.Parent)
            {
                if (current == loop.Body)
                {
                    return true;
                }
            }
            return false;
        }

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
            // One finding per loop, on the first await that starts independent work for the iteration's data: the loop is
            // what a fix rewrites. Looked for first, as it is the cheapest test: in Npgsql half the loops with awaits have none.
            var varying = IterationVaryingSymbols();
            var first = awaits
                .Where(a => Awaited(a) is IInvocationOperation call && types.IsTaskLike(call.Type) && StartsIndependentWork(call, varying) && UsesIterationData(call, varying))
                .OrderBy(a => a.Syntax.SpanStart)
                .FirstOrDefault();
            if (first is null || IterationsDependOnAwaitedValues(awaits, AwaitTaintedSymbols(), varying) || CarriesValuesIntoAwaits(awaits))
            {
                return;
            }
            // One ordered resource (a stream written in order, a semaphore held around the rest) serializes the whole body.
            var awaitedCalls = new HashSet<IOperation>(_operations.OfType<IAwaitOperation>().Select(Awaited));
            if (!awaits.Any(a => UsesSharedOrderedResource(Awaited(a), varying, awaitedCalls)))
            {
                context.ReportDiagnostic(DiagnosticFactory.Create(
                    Descriptors.AwaitInLoop, first.Syntax.GetLocation(), first, context.ContainingSymbol, Describe((IInvocationOperation)Awaited(first))));
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
            var flows = new List<Flow>();
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
                    flows.Add(new Flow(awaits, reads, targets));
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
                foreach (var flow in flows)
                {
                    if (flow.Awaits || flow.Reads.Exists(tainted.Contains))
                    {
                        foreach (var target in flow.Targets)
                        {
                            changed |= tainted.Add(target);
                        }
                    }
                }
            }
            return tainted;
        }

        // A value flowing into variables: whether it awaits, and what it reads. A class, not a tuple: a list of structs
        // is JIT-compiled again for each struct in every fresh compiler process.
        private sealed class Flow(bool awaits, List<ISymbol> reads, ISymbol[] targets)
        {
            public bool Awaits { get; } = awaits;
            public List<ISymbol> Reads { get; } = reads;
            public ISymbol[] Targets { get; } = targets;
        }

        private bool IterationsDependOnAwaitedValues(List<IAwaitOperation> awaits, HashSet<ISymbol> tainted, HashSet<ISymbol> varying)
        {
            bool ReadsTainted(IOperation operation) =>
                OperationTree.SameMethod(operation).Any(op => op is IAwaitOperation || (OperationTree.ReferencedSymbol(op) is { } s && tainted.Contains(s)));

            // Shared objects handed to an awaited call, which may change them: state.Handled after await h.Handle(e, state).
            var handed = new HashSet<ISymbol>(SymbolEqualityComparer.Default);
            foreach (var input in awaits.Select(Awaited).OfType<IInvocationOperation>().SelectMany(Inputs))
            {
                var value = ConfigureAwaitCalls.SkipConversions(input);
                if (OperationTree.ReferencedSymbol(value) is { } symbol && !varying.Contains(symbol)
                    && value.Type is { IsReferenceType: true, SpecialType: not SpecialType.System_String, TypeKind: not TypeKind.Delegate })
                {
                    handed.Add(symbol);
                }
            }
            bool ReadsAwaitedState(IOperation operation) =>
                ReadsTainted(operation) || OperationTree.ReferencedSymbols(operation).Any(handed.Contains);

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
            if (awaits.Any(a => OperationTree.ReferencedSymbols(a.Operation).Any(s => tainted.Contains(s) && !BodyLocals.Contains(s))))
            {
                return true;
            }

            // The loop stops on an awaited value (sequential search, retry until success) or hands each result to a
            // consumer that may stop early (yield return).
            foreach (var operation in OperationTree.SameMethod(loop.Body))
            {
                if (IsExitFromLoop(operation) && ExitDependsOnAwaitedValues(operation, ReadsAwaitedState))
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
            varying.UnionWith(BodyLocals);
            varying.UnionWith(loop.Locals);
            return varying;
        }

        // A value one iteration leaves for the next one's await (len = buf.ReadInt32(); ... await buf.Skip(len)):
        // written in the loop, declared outside it, and not a counter that only steps.
        private bool CarriesValuesIntoAwaits(List<IAwaitOperation> awaits)
        {
            var carried = new HashSet<ISymbol>(SymbolEqualityComparer.Default);
            foreach (var operation in _operations)
            {
                if (operation is not (IIncrementOrDecrementOperation or ICompoundAssignmentOperation { Value.ConstantValue.HasValue: true })
                    && WriteTarget(operation) is { } target
                    && OperationTree.ReferencedSymbol(target) is { } symbol
                    && !BodyLocals.Contains(symbol)
                    && !loop.Locals.Contains(symbol, SymbolEqualityComparer.Default))
                {
                    carried.Add(symbol);
                }
            }
            return carried.Count > 0 && awaits.Any(a => OperationTree.ReferencedSymbols(a.Operation).Any(carried.Contains));
        }

        private static bool UsesIterationData(IOperation awaited, HashSet<ISymbol> varying) =>
            OperationTree.ReferencedSymbols(awaited).Any(varying.Contains);

        private bool IsTaskDelay(IOperation awaited) =>
            awaited is IInvocationOperation { TargetMethod: { Name: "Delay" } method } && SymbolEqualityComparer.Default.Equals(method.ContainingType, types.Task);

        // A call that starts new work for this element. Not: awaiting a task already running (t.WaitAsync(ct)), ordered
        // teardown, a batch (await Task.WhenAll per chunk), or each element called in turn through a delegate or a
        // virtual member (callbacks, handlers, pipeline steps), whose order is part of the contract.
        private bool StartsIndependentWork(IInvocationOperation call, HashSet<ISymbol> varying)
        {
            var method = call.TargetMethod;
            if ((call.Instance is { } running && types.IsTaskLike(running.Type))
                || System.Array.IndexOf(OrderedTeardownNames, method.Name) >= 0
                || (System.Array.IndexOf(BatchingNames, method.Name) >= 0 && SymbolEqualityComparer.Default.Equals(method.ContainingType, types.Task)))
            {
                return false;
            }
            var dispatched = method.MethodKind == MethodKind.DelegateInvoke
                || method.ContainingType?.TypeKind == TypeKind.Interface
                || method.IsAbstract || method.IsVirtual || method.IsOverride;
            return !(dispatched && call.Instance is { } callee && IsElement(callee, varying));
        }

        // The loop's element itself (or a member of it), as opposed to an object the iteration creates.
        private bool IsElement(IOperation operation, HashSet<ISymbol> varying)
        {
            foreach (var part in OperationTree.SameMethod(operation))
            {
                var isElement = part switch
                {
                    ILocalReferenceOperation local => loop.Locals.Contains(local.Local, SymbolEqualityComparer.Default),
                    IArrayElementReferenceOperation element => element.Indices.Any(i => UsesIterationData(i, varying)),
                    IPropertyReferenceOperation { Property.IsIndexer: true } indexer => indexer.Arguments.Any(a => UsesIterationData(a.Value, varying)),
                    _ => false,
                };
                if (isElement)
                {
                    return true;
                }
            }
            return false;
        }

        private static IEnumerable<IOperation> Inputs(IInvocationOperation invocation)
        {
            if (invocation.Instance is { } instance)
            {
                yield return instance;
            }
            foreach (var argument in invocation.Arguments)
            {
                yield return argument.Value;
            }
        }

        // The call's receiver or an argument is one stream, writer, buffer, connection... shared by all iterations.
        private bool UsesSharedOrderedResource(IOperation awaited, HashSet<ISymbol> varying, HashSet<IOperation> awaitedCalls) =>
            awaited is IInvocationOperation invocation
            && (WritesItsObjectsState(invocation) || Inputs(invocation).Any(input => IsSharedOrderedResource(input, varying, awaitedCalls)));

        // The loop calls the object's own method (this.M() or M()), and that method sets one of the object's mutable fields
        // (_column++): each call moves the object on, so the calls are ordered (an importer writing a row value by value).
        // Read from the method's syntax alone: a field name assigned or incremented anywhere in its declaration.
        private static bool WritesItsObjectsState(IInvocationOperation invocation)
        {
            if (invocation.Instance is not IInstanceReferenceOperation { Type: INamedTypeSymbol type }
                || !SymbolEqualityComparer.Default.Equals(invocation.TargetMethod.ContainingType.OriginalDefinition, type.OriginalDefinition))
            {
                return false;
            }
            var mutableFields = new HashSet<string>(type.GetMembers().OfType<IFieldSymbol>()
                .Where(f => !f.IsStatic && !f.IsConst && !f.IsReadOnly && !f.IsImplicitlyDeclared).Select(f => f.Name));
            if (mutableFields.Count == 0)
            {
                return false;
            }
            foreach (var reference in invocation.TargetMethod.OriginalDefinition.DeclaringSyntaxReferences)
            {
                foreach (var node in reference.GetSyntax().DescendantNodes())
                {
                    var target = node switch
                    {
                        AssignmentExpressionSyntax assignment => assignment.Left,
                        PostfixUnaryExpressionSyntax postfix => postfix.Operand,
                        PrefixUnaryExpressionSyntax { RawKind: (int)SyntaxKind.PreIncrementExpression or (int)SyntaxKind.PreDecrementExpression } prefix => prefix.Operand,
                        _ => null,
                    };
                    var name = target switch
                    {
                        IdentifierNameSyntax identifier => identifier.Identifier.ValueText,
                        MemberAccessExpressionSyntax { Expression: ThisExpressionSyntax } member => member.Name.Identifier.ValueText,
                        _ => null,
                    };
                    if (name is not null && mutableFields.Contains(name))
                    {
                        return true;
                    }
                }
            }
            return false;
        }

        private bool IsSharedOrderedResource(IOperation input, HashSet<ISymbol> varying, HashSet<IOperation> awaitedCalls)
        {
            for (IOperation? current = ConfigureAwaitCalls.SkipConversions(input); current is not null;)
            {
                if (current is IInstanceReferenceOperation)
                {
                    // The method's own object: ordered when it is a writer, reader or buffer itself.
                    return IsOrderedResourceType(current.Type);
                }
                if (OperationTree.ReferencedSymbol(current) is { } symbol && !varying.Contains(symbol)
                    && (IsOrderedResourceType(current.Type) || CanBeChanged(current.Type) || IsUsedSynchronously(symbol, awaitedCalls)))
                {
                    return true;
                }
                current = current is IMemberReferenceOperation { Instance: { } owner } ? ConfigureAwaitCalls.SkipConversions(owner) : null;
            }
            return false;
        }

        // The loop also calls it, or sets its members, without awaiting: the awaited calls and those steps share its state.
        private bool IsUsedSynchronously(ISymbol symbol, HashSet<IOperation> awaitedCalls)
        {
            bool Is(IOperation? operation) =>
                operation is not null && SymbolEqualityComparer.Default.Equals(OperationTree.ReferencedSymbol(ConfigureAwaitCalls.SkipConversions(operation)), symbol);
            foreach (var operation in _operations)
            {
                switch (operation)
                {
                    case IInvocationOperation invocation when !awaitedCalls.Contains(invocation) && Inputs(invocation).Any(Is):
                    case IAssignmentOperation { Target: IMemberReferenceOperation { Instance: var owner } } when Is(owner):
                        return true;
                }
            }
            return false;
        }

        private static bool IsOrderedResourceType(ITypeSymbol? type)
        {
            if (type is null)
            {
                return false;
            }
            for (var current = type as INamedTypeSymbol; current is not null; current = current.BaseType)
            {
                if (IsOrderedResourceName(current))
                {
                    return true;
                }
            }
            return type.AllInterfaces.Any(IsOrderedResourceName);
        }

        private static bool IsOrderedResourceName(INamedTypeSymbol type)
        {
            foreach (var suffix in OrderedResourceNameSuffixes)
            {
                if (type.Name.EndsWith(suffix, System.StringComparison.Ordinal))
                {
                    return true;
                }
            }
            return type.ContainingNamespace is { IsGlobalNamespace: false } ns && OrderedResourceTypeNames.Contains(ns.ToDisplayString() + "." + type.MetadataName);
        }

        // An object a call can change, so that calls sharing it are ordered: an array, a collection, or a class of this
        // compilation with a writable field (a position, a length, a flag). Strings, delegates and value types cannot be.
        private static bool CanBeChanged(ITypeSymbol? type)
        {
            if (type is IArrayTypeSymbol)
            {
                return true;
            }
            if (type is not INamedTypeSymbol { IsReferenceType: true, TypeKind: TypeKind.Class or TypeKind.Interface } named || named.SpecialType == SpecialType.System_String)
            {
                return false;
            }
            if (named.OriginalDefinition.AllInterfaces.Any(i => i.MetadataName == "ICollection`1" && i.ContainingNamespace.ToDisplayString() == "System.Collections.Generic"))
            {
                return true;
            }
            for (var current = named; current is not null && current.Locations.Any(l => l.IsInSource); current = current.BaseType)
            {
                foreach (var member in current.GetMembers())
                {
                    if (member is IFieldSymbol { IsStatic: false, IsConst: false } field
                        && (field.IsImplicitlyDeclared ? field.AssociatedSymbol is IPropertySymbol { SetMethod.IsInitOnly: false } : !field.IsReadOnly))
                    {
                        return true;
                    }
                }
            }
            return false;
        }

        // Names the call as written: the method, or for a delegate the delegate ('callback', not 'Invoke').
        private static string Describe(IInvocationOperation call) =>
            call.TargetMethod.MethodKind == MethodKind.DelegateInvoke && call.Instance is { } target ? target.Syntax.ToString() : call.TargetMethod.Name;
    }
}
