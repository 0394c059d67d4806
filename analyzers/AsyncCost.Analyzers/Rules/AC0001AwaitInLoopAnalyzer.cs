using System.Collections.Concurrent;
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
/// AC0001: a loop that awaits, one after another, calls for which it has positive evidence that the iterations are
/// independent, so that they could run concurrently (Task.WhenAll, Parallel.ForEachAsync) and the loop wait once.
/// Evidence, per awaited call that uses the iteration's data: a static call (framework I/O such as Dns or File, or a
/// method of this compilation that writes no static state), a call on the iteration's own object (its element, or an
/// object the iteration creates), or a call on a shared object of a type known to be safe for concurrent use
/// (HttpClient, or a type the team lists in .editorconfig). Every other await of the body must not contradict it:
/// one call through this (explicit or implicit), through a shared receiver not known to be safe, through a delegate,
/// to each element in turn through a virtual or interface member (handlers), on a shared ordered resource handed as
/// an argument (a writer, a stream, a connection), or teardown silences the loop. So do the signs of an order: the
/// awaited value (or anything derived from it) drives the loop condition, feeds a later iteration's await, decides an
/// early exit, or is kept in shared state where the last one wins; a value carried from one iteration into the next
/// one's await; Task.Delay pacing; await foreach; loops in DisposeAsync or CloseAsync; and test projects. One finding
/// per loop, on its first await with evidence.
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
        "System.Threading.SemaphoreSlim", "System.IO.Compression.ZipArchive",
        "Microsoft.EntityFrameworkCore.DbContext", "Microsoft.EntityFrameworkCore.DbSet`1",
        "Microsoft.AspNetCore.Http.HttpResponse");

    // Type names that say "a position advances with each call" (a custom writer, reader or buffer), in any library.
    private static readonly string[] OrderedResourceNameSuffixes =
        ["Writer", "Reader", "Buffer", "Stream", "Connection", "Transaction", "Session", "Context", "Cursor", "Enumerator", "Channel", "Archive"];

    // Calling these on each element in turn dispatches to handlers (event invocators, subscribers): order is their contract.
    private static readonly string[] DispatchNames = ["Invoke", "InvokeAsync", "Handle", "HandleAsync"];

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
            var staticServices = new StaticServices(new MethodBodies(start.Compilation), types);
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
                        new LoopAnalysis(loop, types, staticServices).Report(c);
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

    /// <summary>
    /// Per method of this compilation, the types of the static fields and properties through which its body calls
    /// task-returning methods (<c>item.SaveAsync() => Library.SaveAsync(this)</c>): one walk per method per compilation.
    /// </summary>
    private sealed class StaticServices(MethodBodies bodies, WellKnownAsyncTypes types)
    {
        private readonly ConcurrentDictionary<IMethodSymbol, ImmutableArray<ITypeSymbol?>> _byMethod = new(SymbolEqualityComparer.Default);
        private readonly ConcurrentDictionary<IMethodSymbol, bool> _waitsOnly = new(SymbolEqualityComparer.Default);

        public ImmutableArray<ITypeSymbol?> Of(IMethodSymbol method) => _byMethod.GetOrAdd(method, Find);

        /// <summary>
        /// The method of this compilation only waits for work started before it was called: every task it awaits or
        /// returns is one it holds (an instance field or property, a parameter: <c>_run</c>, <c>_done.Task</c>; not a
        /// shared static such as Task.CompletedTask, a stand-in for work), one of those
        /// with a timeout (<c>_run.WaitAsync(ct)</c>), or Task.WhenAll/WhenAny of them. Awaiting it per element
        /// overlaps nothing new: the elements' work already runs together.
        /// </summary>
        public bool OnlyWaitsForStartedWork(IMethodSymbol method) => _waitsOnly.GetOrAdd(method, WaitsOnly);

        private bool WaitsOnly(IMethodSymbol method)
        {
            if (bodies.Of(method) is not { } body)
            {
                return false;
            }
            var waited = OperationTree.SameMethod(body)
                .Select(op => op switch
                {
                    IAwaitOperation awaitOperation => awaitOperation.Operation,
                    IReturnOperation { ReturnedValue: { } value } when !method.IsAsync && types.IsTaskLike(value.Type) => value,
                    _ => null,
                })
                .Where(op => op is not null)
                .Select(op => ConfigureAwaitCalls.Unwrap(op!, types))
                .ToList();
            return waited.Count > 0 && waited.All(IsStartedTask);
        }

        private bool IsStartedTask(IOperation task) => task switch
        {
            IMemberReferenceOperation { Member.IsStatic: false } and (IFieldReferenceOperation or IPropertyReferenceOperation) or IParameterReferenceOperation => true,
            IInvocationOperation { Instance: { } running } when types.IsTaskLike(running.Type) => IsStartedTask(ConfigureAwaitCalls.SkipConversions(running)),
            IInvocationOperation { TargetMethod: { IsStatic: true } combinator } call
                when System.Array.IndexOf(BatchingNames, combinator.Name) >= 0 && SymbolEqualityComparer.Default.Equals(combinator.ContainingType, types.Task) =>
                call.Arguments.All(a => ConfigureAwaitCalls.SkipConversions(a.Value) is IArrayCreationOperation { Initializer: { } tasks }
                    ? tasks.ElementValues.All(t => IsStartedTask(ConfigureAwaitCalls.SkipConversions(t)))
                    : IsStartedTask(ConfigureAwaitCalls.SkipConversions(a.Value))),
            _ => false,
        };

        private ImmutableArray<ITypeSymbol?> Find(IMethodSymbol method) => bodies.Of(method) is { } body
            ? body.DescendantsAndSelf().OfType<IInvocationOperation>()
                .Where(call => types.IsTaskLike(call.Type))
                .Select(call => OperationTree.ReceiverOf(call) is { } receiver ? ConfigureAwaitCalls.SkipConversions(receiver) : null)
                .OfType<IMemberReferenceOperation>()
                .Where(shared => shared.Member.IsStatic && shared is IFieldReferenceOperation or IPropertyReferenceOperation)
                .Select(shared => shared.Type)
                .ToImmutableArray()
            : ImmutableArray<ITypeSymbol?>.Empty;
    }

    private sealed class LoopAnalysis(ILoopOperation loop, WellKnownAsyncTypes types, StaticServices staticServices)
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
            // One finding per loop, on the first await with evidence of independent work: the loop is what a fix rewrites.
            // Any await that shares an object the analyzer cannot show safe silences the loop: concurrent iterations
            // would share it too. Classified first, as it is the cheapest test.
            var varying = IterationVaryingSymbols();
            IAwaitOperation? first = null;
            Evidence firstEvidence = default;
            foreach (var awaitOperation in awaits.OrderBy(a => a.Syntax.SpanStart))
            {
                var evidence = Classify(Awaited(awaitOperation), varying, context);
                if (evidence == Evidence.Ordered)
                {
                    return;
                }
                if (evidence != Evidence.None && first is null)
                {
                    first = awaitOperation;
                    firstEvidence = evidence;
                }
            }
            if (first is null)
            {
                return;
            }
            var tainted = AwaitTaintedSymbols();
            if (IterationsDependOnAwaitedValues(awaits, tainted, varying) || CarriesValuesIntoAwaits(awaits) || KeepsOnlyTheLastResult(tainted, varying))
            {
                return;
            }
            // The loop's cost is the time its awaited calls take, one after another: the join credits their rows.
            var costIn = DiagnosticFactory.WithCostIn(
                ImmutableDictionary<string, string?>.Empty, awaits.OrderBy(a => a.Syntax.SpanStart).Select(Awaited).OfType<IInvocationOperation>().Select(call => call.TargetMethod));
            context.ReportDiagnostic(DiagnosticFactory.Create(
                Descriptors.AwaitInLoop, first.Syntax.GetLocation(), first, context.ContainingSymbol, costIn,
                ((IInvocationOperation)Awaited(first)).TargetMethod.Name, Describe(firstEvidence)));
        }

        private static string Describe(Evidence evidence) => evidence switch
        {
            Evidence.StaticCall => "a static call with this iteration's arguments",
            Evidence.OwnObject => "a call on this iteration's own object",
            _ => "a call on a shared client that is safe for concurrent use",
        };

        // What one awaited call says about the iterations: nothing, evidence that they are independent (and which), or
        // an order (a shared object that is not known to be safe, the method's own object, a handler dispatched in turn).
        private enum Evidence
        {
            None,
            StaticCall,
            OwnObject,
            SafeSharedClient,
            Ordered,
        }

        private Evidence Classify(IOperation awaited, HashSet<ISymbol> varying, OperationAnalysisContext context)
        {
            if (awaited is not IInvocationOperation call || !types.IsTaskLike(call.Type))
            {
                return Evidence.None; // a task already running (await t, await pending[i]) or a custom awaitable
            }
            var method = call.TargetMethod;
            if ((call.Instance is { } running && types.IsTaskLike(running.Type))
                || (System.Array.IndexOf(BatchingNames, method.Name) >= 0 && SymbolEqualityComparer.Default.Equals(method.ContainingType, types.Task)))
            {
                return Evidence.None; // t.WaitAsync(ct): already started; await Task.WhenAll(batch): already the batched form
            }
            if (System.Array.IndexOf(OrderedTeardownNames, method.Name) >= 0 || method.MethodKind == MethodKind.DelegateInvoke)
            {
                return Evidence.Ordered; // ordered release; a delegate whose work the analyzer cannot see
            }
            var receiver = OperationTree.ReceiverOf(call);
            var awaitedCalls = (HashSet<IOperation>?)null;
            foreach (var argument in call.Arguments)
            {
                if (argument.Value != receiver
                    && !IsReadOnlyInput(argument, method)
                    && (IsSharedOrderedResource(argument.Value, varying, ref awaitedCalls)
                        || (IsOrderedResourceType(argument.Value.Type) && !IsIterationsOwn(argument.Value, varying))))
                {
                    return Evidence.Ordered; // one writer, stream, buffer... handed to every iteration's call
                }
            }
            if (!DelegatedWorkIsIndependent(call, varying, context))
            {
                return Evidence.Ordered;
            }
            var usesIterationData = ReadsIterationData(call, varying);
            if (receiver is null)
            {
                if (WritesStaticState(method) || CapturesOuterState(method, call.SemanticModel))
                {
                    return Evidence.Ordered;
                }
                return usesIterationData ? Evidence.StaticCall : Evidence.None;
            }
            receiver = ConfigureAwaitCalls.SkipConversions(receiver);
            if (receiver is IInstanceReferenceOperation)
            {
                return Evidence.Ordered; // this.M() or M(): the object's own state, often serialized by its own lock
            }
            if (IsIterationsOwn(receiver, varying))
            {
                // Each element called in turn through a virtual or interface member is a handler or callback: running
                // them in order is their contract. An object the iteration creates is not such a dispatch.
                // A stream, socket or connection of the element's own is I/O, not a handler (fan-out writes to each).
                var dispatched = (method.ContainingType?.TypeKind == TypeKind.Interface || method.IsAbstract || method.IsVirtual || method.IsOverride)
                        && !IsOrderedResourceType(receiver.Type)
                    || System.Array.IndexOf(DispatchNames, method.Name) >= 0;
                if ((dispatched && IsElement(receiver, varying)) || ForwardsToSharedService(method, context))
                {
                    return Evidence.Ordered;
                }
                return staticServices.OnlyWaitsForStartedWork(method) ? Evidence.None : Evidence.OwnObject;
            }
            if (SafeTypes(context).Contains(receiver.Type))
            {
                return usesIterationData ? Evidence.SafeSharedClient : Evidence.None;
            }
            return Evidence.Ordered; // one object shared by every iteration, not known to be safe for concurrent use
        }

        // An argument the call only reads, so sharing it orders nothing: a value copied into the call (a port number, a
        // CancellationToken, both often read off this or a field's CancellationTokenSource), a read-only view of memory,
        // or the buffer a Write…/Send… call writes out (one payload fanned out to each element's own stream).
        private static bool IsReadOnlyInput(IArgumentOperation argument, IMethodSymbol method)
        {
            var value = ConfigureAwaitCalls.SkipConversions(argument.Value);
            if (argument.Parameter is { RefKind: RefKind.In } || IsReadOnlyMemory(argument.Parameter?.Type))
            {
                return true;
            }
            if (value.Type is { IsValueType: true } valueType && !IsWritableMemory(valueType))
            {
                return true;
            }
            var writesItOut = method.Name.StartsWith("Write", System.StringComparison.Ordinal) || method.Name.StartsWith("Send", System.StringComparison.Ordinal);
            return writesItOut && (value.Type is IArrayTypeSymbol || IsWritableMemory(value.Type));
        }

        private static bool IsReadOnlyMemory(ITypeSymbol? type) =>
            type is INamedTypeSymbol { Name: "ReadOnlyMemory" or "ReadOnlySpan" or "ReadOnlySequence", ContainingNamespace: { } ns }
            && ns.ToDisplayString() is "System" or "System.Buffers";

        private static bool IsWritableMemory(ITypeSymbol? type) =>
            type is INamedTypeSymbol { Name: "Memory" or "Span" or "ArraySegment", ContainingNamespace: { Name: "System", ContainingNamespace.IsGlobalNamespace: true } };

        // An element's own method of this compilation whose body hands the work to one object every element shares, a
        // static member not known to be safe for concurrent use (item.SaveAsync() => Repository.SaveAsync(this)): the
        // iterations meet in that object (one database, one queue), so they are not independent work.
        // The callee's walk is shared by every loop that calls it; which types are safe is this file's setting.
        private bool ForwardsToSharedService(IMethodSymbol method, OperationAnalysisContext context) =>
            staticServices.Of(method).Any(service => !SafeTypes(context).Contains(service));

        private ConcurrencySafeTypes? _safeTypes;

        private ConcurrencySafeTypes SafeTypes(OperationAnalysisContext context) =>
            _safeTypes ??= ConcurrencySafeTypes.For(context.Options, loop.Syntax.SyntaxTree, RuleIds.AwaitInLoop);

        // The iteration's data reaches the call: an argument, the receiver, or a lambda the call runs (Task.Run(() => Work(i))).
        private static bool ReadsIterationData(IInvocationOperation call, HashSet<ISymbol> varying)
        {
            foreach (var operation in call.DescendantsAndSelf())
            {
                if (OperationTree.ReferencedSymbol(operation) is { } symbol && varying.Contains(symbol))
                {
                    return true;
                }
            }
            return false;
        }

        // Work handed to the call as a lambda or method group (Task.Run(() => Process(i))) runs concurrently once the
        // calls do: it must not go through this, a delegate, or a shared object not known to be safe either.
        private bool DelegatedWorkIsIndependent(IInvocationOperation call, HashSet<ISymbol> varying, OperationAnalysisContext context)
        {
            foreach (var argument in call.Arguments)
            {
                if (ConfigureAwaitCalls.SkipConversions(argument.Value) is not IDelegateCreationOperation { Target: var target })
                {
                    continue;
                }
                if (target is IMethodReferenceOperation { Instance: { } instance })
                {
                    return instance is not IInstanceReferenceOperation && IsIterationsOwn(instance, varying);
                }
                if (target is not IAnonymousFunctionOperation lambda)
                {
                    continue;
                }
                var ownLocals = new HashSet<ISymbol>(lambda.Body.DescendantsAndSelf().OfType<IVariableDeclaratorOperation>().Select(d => (ISymbol)d.Symbol), SymbolEqualityComparer.Default);
                ownLocals.UnionWith(lambda.Symbol.Parameters);
                foreach (var inner in lambda.Body.DescendantsAndSelf().OfType<IInvocationOperation>())
                {
                    var innerMethod = inner.TargetMethod;
                    var innerReceiver = OperationTree.ReceiverOf(inner);
                    if (innerReceiver is null)
                    {
                        continue;
                    }
                    innerReceiver = ConfigureAwaitCalls.SkipConversions(innerReceiver);
                    if (innerReceiver is IInstanceReferenceOperation)
                    {
                        return false;
                    }
                    if (OperationTree.ReferencedSymbol(innerReceiver) is { } symbol && !ownLocals.Contains(symbol) && !varying.Contains(symbol)
                        && (innerMethod.MethodKind == MethodKind.DelegateInvoke || !SafeTypes(context).Contains(innerReceiver.Type)))
                    {
                        return false;
                    }
                }
            }
            return true;
        }

        // The call's receiver belongs to this iteration: the element (or a member of it), an element picked by the
        // iteration's index, or an object the iteration creates or derives from its data.
        private bool IsIterationsOwn(IOperation receiver, HashSet<ISymbol> varying)
        {
            for (var current = ConfigureAwaitCalls.SkipConversions(receiver); ;)
            {
                switch (current)
                {
                    case ILocalReferenceOperation local when loop.Locals.Contains(local.Local, SymbolEqualityComparer.Default):
                        return loop is IForEachLoopOperation forEach && !EnumeratesOrderedResource(forEach);
                    case ILocalReferenceOperation local when BodyLocals.Contains(local.Local):
                        return IsCreatedPerIteration(local.Local, varying);
                    case IArrayElementReferenceOperation element:
                        return element.Indices.Any(i => UsesIterationData(i, varying));
                    case IPropertyReferenceOperation { Property.IsIndexer: true } indexer:
                        return indexer.Arguments.Any(a => UsesIterationData(a.Value, varying));
                    case IObjectCreationOperation:
                        return true;
                    case IMemberReferenceOperation { Instance: { } owner }:
                        current = ConfigureAwaitCalls.SkipConversions(owner);
                        continue;
                    default:
                        return false;
                }
            }
        }

        // A local declared in the body whose value is new (new StreamWriter(path)) or comes from the iteration's data
        // (var item = items[i]), not a copy of a shared object (var w = _writer).
        private bool IsCreatedPerIteration(ILocalSymbol local, HashSet<ISymbol> varying)
        {
            foreach (var operation in _operations)
            {
                if (operation is IVariableDeclaratorOperation { Initializer.Value: { } value } declarator
                    && SymbolEqualityComparer.Default.Equals(declarator.Symbol, local))
                {
                    value = ConfigureAwaitCalls.SkipConversions(value);
                    return value is IObjectCreationOperation || (value is not IAwaitOperation && UsesIterationData(value, varying) && IsIterationsOwnValue(value, varying));
                }
            }
            return false;
        }

        // A value that is (a member of) the iteration's element rather than something a shared object hands out.
        private bool IsIterationsOwnValue(IOperation value, HashSet<ISymbol> varying) =>
            value is IInvocationOperation call ? (call.Instance is null || IsIterationsOwn(call.Instance, varying)) : IsIterationsOwn(value, varying);

        // A static method of this compilation that assigns one of its type's mutable static fields: every call moves
        // shared state on (a counter, a cache being filled), so the calls are ordered.
        // A local function that reads the enclosing method's locals, parameters or this shares them with every iteration
        // (a writer it writes to, a connection it sends on): like a call through this, not a static call.
        private static bool CapturesOuterState(IMethodSymbol method, SemanticModel? model)
        {
            if (method.MethodKind != MethodKind.LocalFunction || method.IsStatic || model is null)
            {
                return false;
            }
            foreach (var reference in method.DeclaringSyntaxReferences)
            {
                if (reference.GetSyntax() is not LocalFunctionStatementSyntax { } declaration || declaration.SyntaxTree != model.SyntaxTree)
                {
                    continue;
                }
                SyntaxNode? body = (SyntaxNode?)declaration.Body ?? declaration.ExpressionBody?.Expression;
                if (body is null)
                {
                    continue;
                }
                var flow = model.AnalyzeDataFlow(body);
                if (flow is not { Succeeded: true })
                {
                    return true;
                }
                foreach (var symbol in flow.ReadInside.Concat(flow.WrittenInside))
                {
                    if (!flow.VariablesDeclared.Contains(symbol, SymbolEqualityComparer.Default)
                        && !SymbolEqualityComparer.Default.Equals(symbol.ContainingSymbol, method))
                    {
                        return true;
                    }
                }
            }
            return false;
        }

        private static bool WritesStaticState(IMethodSymbol method)
        {
            var type = method.ContainingType;
            if (type is null || !method.DeclaringSyntaxReferences.Any())
            {
                return false;
            }
            var mutableFields = new HashSet<string>(type.GetMembers().OfType<IFieldSymbol>()
                .Where(f => f.IsStatic && !f.IsConst && !f.IsReadOnly && !f.IsImplicitlyDeclared).Select(f => f.Name));
            if (mutableFields.Count == 0)
            {
                return false;
            }
            foreach (var reference in method.OriginalDefinition.DeclaringSyntaxReferences)
            {
                foreach (var node in reference.GetSyntax().DescendantNodes())
                {
                    var target = node switch
                    {
                        AssignmentExpressionSyntax assignment => assignment.Left,
                        PostfixUnaryExpressionSyntax postfix => postfix.Operand,
                        PrefixUnaryExpressionSyntax { RawKind: (int)SyntaxKind.PreIncrementExpression or (int)SyntaxKind.PreDecrementExpression } prefix => prefix.Operand,
                        ArgumentSyntax { RefKindKeyword.RawKind: (int)SyntaxKind.RefKeyword } argument => argument.Expression,
                        _ => null,
                    };
                    var name = target switch
                    {
                        IdentifierNameSyntax identifier => identifier.Identifier.ValueText,
                        MemberAccessExpressionSyntax member => member.Name.Identifier.ValueText,
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

        // An awaited result (or a value derived from it) assigned where the next iteration overwrites it: a shared
        // variable, field or property (last = await F(x)): the last call to finish would win, so the order matters.
        // Fine: a local of the iteration, a per-iteration slot (results[i] = …, map[key] = …, item.Size = …), a
        // numeric reduction (total += …), a collection the results are added to.
        private bool KeepsOnlyTheLastResult(HashSet<ISymbol> tainted, HashSet<ISymbol> varying)
        {
            foreach (var operation in _operations)
            {
                if (operation is not IAssignmentOperation assignment
                    || !OperationTree.SameMethod(assignment.Value).Any(op => op is IAwaitOperation || (OperationTree.ReferencedSymbol(op) is { } s && tainted.Contains(s))))
                {
                    continue;
                }
                var target = ConfigureAwaitCalls.SkipConversions(assignment.Target);
                var perIteration = assignment switch
                {
                    ICompoundAssignmentOperation compound => IsNumericOrBoolean(compound.Target.Type),
                    ICoalesceAssignmentOperation => false,
                    _ => target is ILocalReferenceOperation local
                        ? BodyLocals.Contains(local.Local) || loop.Locals.Contains(local.Local, SymbolEqualityComparer.Default)
                        : IsIterationsOwn(target, varying),
                };
                if (!perIteration)
                {
                    return true;
                }
            }
            return false;
        }

        private static bool IsNumericOrBoolean(ITypeSymbol? type) =>
            type?.SpecialType is SpecialType.System_Boolean or SpecialType.System_Byte or SpecialType.System_SByte or SpecialType.System_Int16
                or SpecialType.System_UInt16 or SpecialType.System_Int32 or SpecialType.System_UInt32 or SpecialType.System_Int64
                or SpecialType.System_UInt64 or SpecialType.System_Single or SpecialType.System_Double or SpecialType.System_Decimal;

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
                        AddFlow(assignment.Value, AssignedSymbols(assignment.Target).ToArray());
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

        // What an assignment writes: the variable, field or property, and for a slot (results[i], map[key], item.Size)
        // the collection or object that holds it, not the index that picks it.
        private static IEnumerable<ISymbol> AssignedSymbols(IOperation target)
        {
            for (IOperation? current = ConfigureAwaitCalls.SkipConversions(target); current is not null;)
            {
                if (OperationTree.ReferencedSymbol(current) is { } symbol)
                {
                    yield return symbol;
                }
                current = current switch
                {
                    IArrayElementReferenceOperation element => ConfigureAwaitCalls.SkipConversions(element.ArrayReference),
                    IMemberReferenceOperation { Instance: { } owner } => ConfigureAwaitCalls.SkipConversions(owner),
                    _ => null,
                };
            }
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

            // An await takes its input from an earlier iteration's awaited result (a continuation token). A foreach
            // element is fresh in each iteration: a result stored on it (item.Size = await …) stays in its iteration.
            var freshPerIteration = loop is IForEachLoopOperation ? loop.Locals : ImmutableArray<ILocalSymbol>.Empty;
            if (awaits.Any(a => OperationTree.ReferencedSymbols(a.Operation).Any(s => tainted.Contains(s) && !BodyLocals.Contains(s) && !freshPerIteration.Contains(s, SymbolEqualityComparer.Default))))
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

        // An argument is one stream, writer, buffer, connection... shared by all iterations (or the method's own object).
        private bool IsSharedOrderedResource(IOperation input, HashSet<ISymbol> varying, ref HashSet<IOperation>? awaitedCalls)
        {
            for (IOperation? current = ConfigureAwaitCalls.SkipConversions(input); current is not null;)
            {
                if (current is IInstanceReferenceOperation)
                {
                    return true; // this handed to every call: the object's own state, as for a call through this
                }
                if (OperationTree.ReferencedSymbol(current) is { } symbol && !varying.Contains(symbol)
                    && (IsOrderedResourceType(current.Type) || CanBeChanged(current.Type)
                        || IsUsedSynchronously(symbol, awaitedCalls ??= new HashSet<IOperation>(_operations.OfType<IAwaitOperation>().Select(Awaited)))))
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

        // The elements are views of one ordered resource of a known type (a ZipArchive's entries, a DbDataReader's
        // records): each element's streams read or write that one resource, so the iterations share it. Known types
        // only: a name that merely ends in Session or Context may well hand out independent objects.
        private static bool EnumeratesOrderedResource(IForEachLoopOperation forEach)
        {
            var collection = ConfigureAwaitCalls.SkipConversions(forEach.Collection);
            return IsOrderedResourceType(collection.Type, IsKnownOrderedResourceName)
                || collection is IMemberReferenceOperation { Instance: { } owner } && IsOrderedResourceType(owner.Type, IsKnownOrderedResourceName);
        }

        private static bool IsOrderedResourceType(ITypeSymbol? type) => IsOrderedResourceType(type, IsOrderedResourceName);

        private static bool IsOrderedResourceType(ITypeSymbol? type, System.Func<INamedTypeSymbol, bool> isOrderedResourceName)
        {
            if (type is null)
            {
                return false;
            }
            for (var current = type as INamedTypeSymbol; current is not null; current = current.BaseType)
            {
                if (isOrderedResourceName(current))
                {
                    return true;
                }
            }
            return type.AllInterfaces.Any(isOrderedResourceName);
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
            return IsKnownOrderedResourceName(type);
        }

        private static bool IsKnownOrderedResourceName(INamedTypeSymbol type) =>
            type.ContainingNamespace is { IsGlobalNamespace: false } ns && OrderedResourceTypeNames.Contains(ns.ToDisplayString() + "." + type.MetadataName);

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
    }
}
