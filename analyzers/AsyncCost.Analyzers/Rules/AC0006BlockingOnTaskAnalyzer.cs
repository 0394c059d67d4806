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
    /// <summary>Diagnostic property telling the fix which shape it is rewriting.</summary>
    public const string KindProperty = "AsyncCostBlockingKind";
    public const string ResultKind = "Result";
    public const string WaitKind = "Wait";
    public const string GetResultKind = "GetResult";
    public const string WaitAllKind = "WaitAll";
    /// <summary>WaitAny and the WaitAll overloads with a timeout or token: reported, with no mechanical fix.</summary>
    public const string WaitAnyKind = "WaitAny";
    /// <summary>A call of a blocking helper (<c>task.Sync()</c>): reported, with no mechanical fix.</summary>
    public const string HelperKind = "Helper";

    /// <summary>Set when the awaited task should be configured (library code outside UI types), so the fix's await is clean under AC0004.</summary>
    public const string ConfigureAwaitProperty = "AsyncCostConfigureAwait";

    private static readonly string[] CompletionProperties = { "IsCompleted", "IsCompletedSuccessfully", "IsFaulted", "IsCanceled" };

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
            var types = new Types(start.Compilation, start.Options);
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
            var factsByBody = new ConditionalWeakTable<IOperation, BlockFacts>();
            var peers = new PeerSuppressions(PeerSuppressions.BlockingPeers);
            start.RegisterOperationAction(c => Analyze(c, types, entryPoint, factsByBody, peers), OperationKind.Invocation, OperationKind.PropertyReference);
        });
    }

    // Blocking calls are rare: each operation is filtered by name first, and only a method with a blocking call
    // is walked (once, shared by all its blocking calls) for the facts that can prove a task complete.
    private static void Analyze(OperationAnalysisContext context, Types types, Lazy<IMethodSymbol?> entryPoint, ConditionalWeakTable<IOperation, BlockFacts> factsByBody, PeerSuppressions peers)
    {
        if (Classify(context.Operation, types) is not { } use || IsExempt(use, context.ContainingSymbol, entryPoint))
        {
            return;
        }
        var function = OperationScopes.FunctionSymbol(use.Operation, context.ContainingSymbol);
        if (IsDeliberate(use, function, context, types) || IsAwaiterGetResult(use, function, types))
        {
            return;
        }
        var facts = factsByBody.GetValue(OperationTree.Root(context.Operation), root => new BlockFacts(types, root));
        // Cheapest first: the facts of this body, then (for a parameter of a private method) the arguments of its calls.
        var unknown = use.Subjects.Where(s => !facts.IsKnownComplete(s, use.Operation)).ToList();
        if (unknown.Count == 0 || function is not null && unknown.All(s => IsCompleteAtEveryCall(s, function, facts, types, factsByBody))
            || function is { IsAsync: false } && IsThreadStart(use.Operation, function, types)
            || peers.AreSuppressed(use.Operation.Syntax.GetLocation(), context.ContainingSymbol))
        {
            return; // complete, a thread's edge, or a wait the team already decided to keep (VSTHRD002, MA0045, CA1849 suppressed there)
        }
        var properties = AwaitPlacement.Properties(use.Operation, context.ContainingSymbol).Add(KindProperty, use.Kind);
        if (use.Kind == HelperKind || use.Kind != GetResultKind && CatchesAggregateException(use.Operation))
        {
            // A helper's call has no mechanical rewrite. `.Result`, `Wait()` and `WaitAll` throw AggregateException, an
            // await the inner exception: where a catch here depends on the wrapper, the fix would change which handler runs.
            properties = properties.Remove(AwaitPlacement.PropertyName);
        }
        if (types.ConfiguresAwaits(context.ContainingSymbol.ContainingType))
        {
            properties = properties.Add(ConfigureAwaitProperty, "true");
        }
        properties = DiagnosticFactory.WithCostIn(properties, BlockedOn(use));
        var contract = types.IsTestProject ? null : types.Contracts.Of(use.Operation, function);
        var descriptor = types.IsTestProject ? Descriptors.BlockingInTest
            : contract is null ? Descriptors.BlockingOnTask
            : Descriptors.BlockingInSynchronousContract;
        context.ReportDiagnostic(DiagnosticFactory.Create(
            descriptor, NameLocation(use.Operation.Syntax), use.Operation, context.ContainingSymbol, properties, use.Display, contract ?? Advice(use, context.ContainingSymbol, function, types)));
    }

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
    private static string Advice(BlockingUse use, ISymbol containingSymbol, IMethodSymbol? function, Types types) =>
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
        for (var current = use.Operation.Parent; current is not null; current = current.Parent)
        {
            if (current is INameOfOperation)
            {
                return true;
            }
        }
        // A synchronous Main is the program's edge: blocking there, once, is how a sync entry point waits.
        return OperationScopes.FunctionSymbol(use.Operation, containingSymbol) is { IsAsync: false } function
            && SymbolEqualityComparer.Default.Equals(function, entryPoint.Value);
    }

    // The GetResult of an awaiter wrapping a task or another awaiter (`public T GetResult() => this.inner.GetResult();`):
    // `await` calls it only once IsCompleted is true or the continuation OnCompleted took has run, so its wait on what it
    // wraps (a field or property of its own) finds it complete. A caller that skips the await pattern
    // (`x.GetAwaiter().GetResult()`) blocks at that call, which is reported there.
    private static bool IsAwaiterGetResult(BlockingUse use, IMethodSymbol? function, Types types) =>
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
    private static bool IsThreadStart(IOperation operation, IMethodSymbol function, Types types) =>
        OperationScopes.EnclosingFunction(operation) switch
        {
            IAnonymousFunctionOperation lambda => lambda.Parent is IDelegateCreationOperation { Parent: IArgumentOperation { Parent: var receiver } }
                && CallSites.IsThreadCreation(receiver),
            _ => types.CallSites.Of(function) is { IsComplete: true, Calls.Length: 0, HandedTo.Length: 0, ThreadStarts: > 0 },
        };

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
    private static bool IsDeliberate(BlockingUse use, IMethodSymbol? function, OperationAnalysisContext context, Types types) =>
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
    private static bool IsCompleteAtEveryCall(Subject subject, IMethodSymbol function, BlockFacts facts, Types types, ConditionalWeakTable<IOperation, BlockFacts> factsByBody)
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
                && factsByBody.GetValue(OperationTree.Root(call.Invocation), root => new BlockFacts(types, root))
                    .IsKnownComplete(new Subject(types.Underlying(argument.Value)), call.Invocation));
    }

    // A method declared here (not a framework scheduler: QueueUserWorkItem's state is a type parameter, not a task)
    // whose own parameter list takes a task, and that is handed one.
    private static bool IsHandedTheTaskToo(IInvocationOperation receiver, Types types) =>
        receiver.TargetMethod.DeclaringSyntaxReferences.Length > 0
        && receiver.Arguments.Any(argument => argument.Parameter?.OriginalDefinition.Type is { } declared && types.Async.IsTaskLike(declared.OriginalDefinition));

    /// <summary>The blocking call an operation is, if any: <c>.Result</c>, <c>.Wait(…)</c>, <c>GetResult()</c>, <c>Task.WaitAll/WaitAny</c>.</summary>
    private static BlockingUse? Classify(IOperation operation, Types types)
    {
        if (operation is IPropertyReferenceOperation { Property.Name: "Result", Instance: { } task } reference)
        {
            var type = reference.Property.ContainingType.OriginalDefinition;
            return SymbolEqualityComparer.Default.Equals(type, types.Async.TaskOfT) || SymbolEqualityComparer.Default.Equals(type, types.Async.ValueTaskOfT)
                ? new BlockingUse(reference, ResultKind, ".Result", "await it", ImmutableArray.Create(new Subject(types.Underlying(task))))
                : null;
        }
        if (operation is not IInvocationOperation invocation)
        {
            return null;
        }
        var method = invocation.TargetMethod;
        switch (method.Name)
        {
            case "Wait" when !method.IsStatic && invocation.Instance is { } waited && types.Async.IsTask(method.ContainingType)
                && WaitTimeouts.Of(invocation, types.TimeSpan) is not WaitTimeouts.Kind.Zero and var timeout:
                return new BlockingUse(invocation, WaitKind, ".Wait()", "await it", ImmutableArray.Create(new Subject(types.Underlying(waited))), IsProbe(invocation, timeout));
            case "GetResult" when invocation.Instance is { } awaiter && types.Awaiters.Contains(method.ContainingType.OriginalDefinition):
                return new BlockingUse(invocation, GetResultKind, ".GetAwaiter().GetResult()", "await it", ImmutableArray.Create(new Subject(types.TaskBehindAwaiter(awaiter))));
            case "WaitAll" or "WaitAny" when types.IsTaskStatic(method, method.Name) && WaitTimeouts.Of(invocation, types.TimeSpan) is not WaitTimeouts.Kind.Zero and var timeout:
                var isAll = method.Name == "WaitAll";
                // Only WaitAll(params Task[]) has a WhenAll twin with the same arguments and no result.
                var kind = isAll && method.Parameters.Length == 1 && method.ReturnsVoid ? WaitAllKind : WaitAnyKind;
                return new BlockingUse(invocation, kind, "Task." + method.Name, isAll ? "await Task.WhenAll" : "await Task.WhenAny", TaskArguments(invocation, types), IsProbe(invocation, timeout));
            default:
                // `DisposeAsync().Sync()`: a code base's own helper whose only work is to block on the task it is given.
                return types.IsBlockingHelper(method) && invocation.Arguments.FirstOrDefault(a => a.Parameter?.Ordinal == 0) is { } blocked
                    ? new BlockingUse(invocation, HelperKind, method.Name + "()", "await it", ImmutableArray.Create(new Subject(types.Underlying(blocked.Value))))
                    : null;
        }
    }

    // A wait with a timeout whose answer is used (`t.Wait(20).ShouldBeFalse()`, `Assert.False(t.Wait(20))`): in a test, a probe.
    private static bool IsProbe(IInvocationOperation wait, WaitTimeouts.Kind timeout) =>
        timeout == WaitTimeouts.Kind.NonZero && !wait.TargetMethod.ReturnsVoid && wait.Parent is not IExpressionStatementOperation;

    // Task.WaitAll(a, b) / WhenAll(a, b): the params elements; WaitAll(tasks) / WhenAll(list): the elements of the collection.
    private static ImmutableArray<Subject> TaskArguments(IInvocationOperation invocation, Types types)
    {
        var tasks = ImmutableArray.CreateBuilder<Subject>();
        foreach (var argument in invocation.Arguments)
        {
            if (argument.Parameter is not { Type: var type } || type.SpecialType == SpecialType.System_Int32 || type.Name is "TimeSpan" or "CancellationToken")
            {
                continue;
            }
            if (Elements(argument.Value) is { } elements)
            {
                tasks.AddRange(elements.Select(value => new Subject(types.Underlying(value))));
            }
            else if (type is IArrayTypeSymbol || type.OriginalDefinition.SpecialType == SpecialType.System_Collections_Generic_IEnumerable_T || type.Name == "ReadOnlySpan")
            {
                tasks.Add(new Subject(argument.Value, isCollection: true));
            }
        }
        return tasks.ToImmutable();
    }

    // The tasks written out in the call: `WhenAll(a, b)` as a params array, an array created in place
    // (`new Task[] { a, b }`) or a collection expression. C# 13 binds `WhenAll(a, b)` to the `params ReadOnlySpan<Task>`
    // overload, whose argument is a collection expression (an operation kind this Roslyn 4.5 build has no interface
    // for: its children are the elements; a spread is not one task, so the elements are not listed then).
    private static IEnumerable<IOperation>? Elements(IOperation value)
    {
        var stripped = TaskReference.Strip(value);
        if (stripped is IArrayCreationOperation { Initializer: { } initializer })
        {
            return initializer.ElementValues;
        }
        if (stripped is { Kind: CollectionExpressionKind } collection)
        {
            var children = collection.ChildOperations.ToList();
            return children.All(child => child.Kind != SpreadKind) ? children : null;
        }
        return null;
    }

    private const OperationKind CollectionExpressionKind = (OperationKind)0x7F;
    private const OperationKind SpreadKind = (OperationKind)0x80;

    /// <summary>What the rule resolves once per compilation: types, the project's kind, and the callees of the <c>bool async</c> idiom.</summary>
    private sealed class Types
    {
        private readonly Lazy<UiTypes> _uiTypes;
        private readonly System.Collections.Concurrent.ConcurrentDictionary<IMethodSymbol, IParameterSymbol?> _timedWaitParameters = new(SymbolEqualityComparer.Default);
        private readonly System.Collections.Concurrent.ConcurrentDictionary<IMethodSymbol, bool> _blockingHelpers = new(SymbolEqualityComparer.Default);
        private readonly ImmutableHashSet<string> _namedHelpers;

        public Types(Compilation compilation, AnalyzerOptions options)
        {
            Async = WellKnownAsyncTypes.Create(compilation);
            TaskStatus = compilation.GetTypeByMetadataName("System.Threading.Tasks.TaskStatus");
            TaskFactory = compilation.GetTypeByMetadataName("System.Threading.Tasks.TaskFactory");
            TaskFactoryOfT = compilation.GetTypeByMetadataName("System.Threading.Tasks.TaskFactory`1");
            TimeSpan = compilation.GetTypeByMetadataName("System.TimeSpan");
            Unsafe = compilation.GetTypeByMetadataName("System.Runtime.CompilerServices.Unsafe");
            NotifyCompletion = compilation.GetTypeByMetadataName("System.Runtime.CompilerServices.INotifyCompletion");
            var awaiters = ImmutableHashSet.CreateBuilder<INamedTypeSymbol>(SymbolEqualityComparer.Default);
            foreach (var name in new[]
            {
                "System.Runtime.CompilerServices.TaskAwaiter", "System.Runtime.CompilerServices.TaskAwaiter`1",
                "System.Runtime.CompilerServices.ValueTaskAwaiter", "System.Runtime.CompilerServices.ValueTaskAwaiter`1",
                "System.Runtime.CompilerServices.ConfiguredTaskAwaitable+ConfiguredTaskAwaiter",
                "System.Runtime.CompilerServices.ConfiguredTaskAwaitable`1+ConfiguredTaskAwaiter",
                "System.Runtime.CompilerServices.ConfiguredValueTaskAwaitable+ConfiguredValueTaskAwaiter",
                "System.Runtime.CompilerServices.ConfiguredValueTaskAwaitable`1+ConfiguredValueTaskAwaiter",
            })
            {
                if (compilation.GetTypeByMetadataName(name) is { } awaiter)
                {
                    awaiters.Add(awaiter);
                }
            }
            Awaiters = awaiters.ToImmutable();
            IsTestProject = ProjectKind.IsTestProject(compilation, options);
            IsLibrary = ProjectKind.IsLibrary(compilation, options);
            _uiTypes = new Lazy<UiTypes>(() => UiTypes.Create(compilation), LazyThreadSafetyMode.ExecutionAndPublication);
            _namedHelpers = NamedHelpers(compilation, options);
            Bodies = new MethodBodies(compilation);
            AsyncFlag = new AsyncFlag(Async, Bodies);
            CallSites = new CallSites(compilation);
            AsyncCallers = new AsyncCallers(CallSites);
            Contracts = new SynchronousContract(Async, CallSites, AsyncCallers, IsBlockingHelper, IsLibrary && ProjectKind.PublishesPackage(options));
        }

        public WellKnownAsyncTypes Async { get; }
        public INamedTypeSymbol? TaskStatus { get; }
        public INamedTypeSymbol? TaskFactory { get; }
        public INamedTypeSymbol? TaskFactoryOfT { get; }
        public INamedTypeSymbol? TimeSpan { get; }
        public INamedTypeSymbol? Unsafe { get; }
        public INamedTypeSymbol? NotifyCompletion { get; }
        public ImmutableHashSet<INamedTypeSymbol> Awaiters { get; }
        public bool IsTestProject { get; }
        public bool IsLibrary { get; }
        public AsyncFlag AsyncFlag { get; }
        public MethodBodies Bodies { get; }
        public CallSites CallSites { get; }
        public AsyncCallers AsyncCallers { get; }
        public SynchronousContract Contracts { get; }

        /// <summary>
        /// Whether the method is a blocking helper: its first parameter is a task, it returns none, and either its body
        /// here is one blocking call on that parameter (<c>static T Sync&lt;T&gt;(this Task&lt;T&gt; t) =&gt; t.GetAwaiter().GetResult();</c>)
        /// or, compiled elsewhere, its name says so (<c>Sync</c>, <c>RunSync</c>, Nito.AsyncEx's <c>WaitAndUnwrapException</c>).
        /// </summary>
        public bool IsBlockingHelper(IMethodSymbol method)
        {
            method = (method.ReducedFrom ?? method).OriginalDefinition;
            return method.Parameters.Length > 0
                && Async.IsTaskLike(method.Parameters[0].Type.OriginalDefinition)
                && !Async.IsTaskLike(method.ReturnType.OriginalDefinition)
                && !Async.IsTaskLike(method.ContainingType)
                && _blockingHelpers.GetOrAdd(method, m => IsNamedHelper(m) || (Bodies.Of(m) is { } body ? BlocksOnFirstParameter(m, body) : HasBlockingHelperName(m)));
        }

        /// <summary>
        /// A blocking helper whose calls are reported instead of its body: its name says what it does, the team names
        /// it (<see cref="BlockingHelpersOption"/>), or no other assembly calls it.
        /// </summary>
        public bool IsReportedAtCalls(IMethodSymbol function) =>
            IsBlockingHelper(function) && (HasBlockingHelperName(function) || IsNamedHelper(function) || !CallSites.IsVisibleOutside(function));

        private bool IsNamedHelper(IMethodSymbol method) =>
            _namedHelpers.Count > 0
            && (_namedHelpers.Contains(method.Name)
                || _namedHelpers.Contains(method.ContainingType.Name + "." + method.Name)
                || _namedHelpers.Contains(method.ContainingType.ToDisplayString(SymbolDisplayFormat.CSharpErrorMessageFormat.WithGenericsOptions(SymbolDisplayGenericsOptions.None)) + "." + method.Name));

        // The names every file's .editorconfig section lists: a solution names its helpers once, at its root.
        private static ImmutableHashSet<string> NamedHelpers(Compilation compilation, AnalyzerOptions options)
        {
            var names = ImmutableHashSet.CreateBuilder<string>(StringComparer.Ordinal);
            var key = "asynccost." + RuleIds.BlockingOnTask + "." + BlockingHelpersOption;
            var sources = compilation.SyntaxTrees.Select(tree => options.AnalyzerConfigOptionsProvider.GetOptions(tree)).Prepend(options.AnalyzerConfigOptionsProvider.GlobalOptions);
            foreach (var source in sources)
            {
                if (source.TryGetValue(key, out var listed))
                {
                    foreach (var name in listed.Split([',', ';', ' ', '\t'], StringSplitOptions.RemoveEmptyEntries))
                    {
                        names.Add(name.StartsWith("global::", StringComparison.Ordinal) ? name.Substring("global::".Length) : name);
                    }
                }
            }
            return names.ToImmutable();
        }

        private static bool HasBlockingHelperName(IMethodSymbol method) =>
            method.Name is "Sync" or "WaitAndUnwrapException"
            || method.Name.Length > 4 && method.Name.EndsWith("Sync", StringComparison.Ordinal) && char.IsLower(method.Name[method.Name.Length - 5]);

        private bool BlocksOnFirstParameter(IMethodSymbol method, IOperation body)
        {
            var statement = body is IBlockOperation { Operations.Length: 1 } block ? block.Operations[0] : null;
            var value = statement switch
            {
                IReturnOperation { ReturnedValue: { } returned } => returned,
                IExpressionStatementOperation expression => expression.Operation,
                _ => null,
            };
            return value is not null
                && Classify(TaskReference.Strip(value)!, this) is { Kind: not HelperKind, Subjects.Length: 1 } wait
                && wait.Subjects[0].Operation is IParameterReferenceOperation { Parameter: var parameter }
                && parameter.Ordinal == 0
                && SymbolEqualityComparer.Default.Equals(parameter.ContainingSymbol.OriginalDefinition, method);
        }

        /// <summary>Whether an await written in this type should carry ConfigureAwait(false): library code, not a UI type (AC0004's rule).</summary>
        public bool ConfiguresAwaits(INamedTypeSymbol? type) => IsLibrary && !_uiTypes.Value.IsUiType(type);

        public bool IsTaskStatic(IMethodSymbol method, string name) =>
            method.IsStatic && method.Name == name && SymbolEqualityComparer.Default.Equals(method.ContainingType, Async.Task);

        public bool IsTaskFactory(ITypeSymbol type) =>
            SymbolEqualityComparer.Default.Equals(type.OriginalDefinition, TaskFactory) || SymbolEqualityComparer.Default.Equals(type.OriginalDefinition, TaskFactoryOfT);

        /// <summary>
        /// The task a blocking call really waits on, through what passes it along unchanged: <c>ConfigureAwait</c>,
        /// <c>ValueTask.Preserve()</c> and <c>AsTask()</c>, <c>new ValueTask&lt;T&gt;(task)</c>, <c>Unsafe.As&lt;T&gt;(task)</c>, casts.
        /// </summary>
        public IOperation Underlying(IOperation operation)
        {
            while (true)
            {
                var current = ConfigureAwaitCalls.Unwrap(TaskReference.Strip(operation)!, Async);
                var next = current switch
                {
                    IInvocationOperation { TargetMethod.Name: "Preserve" or "AsTask", Instance: { } valueTask } when Async.IsValueTask(valueTask.Type) => valueTask,
                    IInvocationOperation { TargetMethod: { Name: "As", IsStatic: true } method, Arguments.Length: 1 } call
                        when SymbolEqualityComparer.Default.Equals(method.ContainingType, Unsafe) => call.Arguments[0].Value,
                    IObjectCreationOperation { Arguments.Length: 1 } creation when Async.IsValueTask(creation.Type) && Async.IsTask(creation.Arguments[0].Value.Type) =>
                        creation.Arguments[0].Value,
                    // `TryRead()?.Result`: the task is what the conditional access tested for null.
                    IConditionalAccessInstanceOperation instance => AccessedBy(instance),
                    _ => null,
                };
                if (next is null)
                {
                    return TaskReference.Strip(current)!;
                }
                operation = next;
            }
        }

        private static IOperation? AccessedBy(IConditionalAccessInstanceOperation instance)
        {
            for (var current = instance.Parent; current is not null; current = current.Parent)
            {
                if (current is IConditionalAccessOperation access)
                {
                    return access.Operation;
                }
            }
            return null;
        }

        /// <summary>
        /// The task parameter a <c>bool</c> helper waits on with a timeout, when that is all it does
        /// (<c>bool TryWait(Task t) => t.Wait(timeout);</c>): its returning true means the task completed.
        /// </summary>
        public IParameterSymbol? TimedWaitParameter(IMethodSymbol helper) => _timedWaitParameters.GetOrAdd(helper.OriginalDefinition, method =>
            method.ReturnType.SpecialType == SpecialType.System_Boolean
            && Bodies.Of(method) is IBlockOperation { Operations.Length: 1 } body
            && body.Operations[0] is IReturnOperation { ReturnedValue: { } value }
            && TaskReference.Strip(value) is IInvocationOperation { TargetMethod: { Name: "Wait", IsStatic: false } wait, Instance: { } waited }
            && Async.IsTask(wait.ContainingType)
            && Underlying(waited) is IParameterReferenceOperation { Parameter: var parameter }
            && SymbolEqualityComparer.Default.Equals(parameter.ContainingSymbol, method)
                ? parameter
                : null);

        // `t.GetAwaiter()` and `t.ConfigureAwait(false).GetAwaiter()` block on t; a stored awaiter is its own subject.
        public IOperation TaskBehindAwaiter(IOperation awaiter) =>
            TaskReference.Strip(awaiter) is IInvocationOperation { TargetMethod.Name: "GetAwaiter", Instance: { } awaitable }
                ? Underlying(awaitable)
                : awaiter;

        public bool IsCompleteByConstruction(IOperation? value) => value switch
        {
            _ when Async.IsCompletedByConstruction(value) => true,
            IInvocationOperation invocation => AsyncFlag.CompletesSynchronously(invocation) || AsyncFlag.ReturnsOnlyCompleted(invocation.TargetMethod),
            // `(schemaOnly ? NextSchemaOnly(false) : Next(false)).GetAwaiter().GetResult()`: complete whichever arm runs.
            IConditionalOperation or ISwitchExpressionOperation => OperationTree.Outcomes(value).All(IsCompleteByConstruction),
            // The task WhenAny hands back is the one that completed.
            IAwaitOperation { Operation: var awaited } => ConfigureAwaitCalls.Unwrap(awaited, Async) is IInvocationOperation whenAny && IsTaskStatic(whenAny.TargetMethod, "WhenAny"),
            _ => false,
        };
    }

    /// <summary>A task expression, or a collection whose elements are the tasks (<c>Task.WaitAll(tasks)</c>). A class, like
    /// <see cref="Evidence"/>: the lists and LINQ it passes through run shared code, not a copy JIT-compiled per struct in
    /// every fresh compiler process.</summary>
    private sealed class Subject
    {
        public Subject(IOperation operation, bool isCollection = false)
        {
            Operation = operation;
            IsCollection = isCollection;
        }

        public IOperation Operation { get; }
        public bool IsCollection { get; }

        public TaskReference? Reference => IsCollection ? TaskReference.Of(Operation)?.ElementOf() : TaskReference.Of(Operation);
    }

    /// <summary>A blocking call and the tasks it blocks on.</summary>
    private sealed class BlockingUse
    {
        public BlockingUse(IOperation operation, string kind, string display, string instead, ImmutableArray<Subject> subjects, bool isProbe = false)
        {
            Operation = operation;
            Kind = kind;
            Display = display;
            Instead = instead;
            Subjects = subjects;
            IsProbe = isProbe;
        }

        public IOperation Operation { get; }
        public string Kind { get; }
        public string Display { get; }
        /// <summary>What to write instead, for the message: "await it", "await Task.WhenAll".</summary>
        public string Instead { get; }
        public ImmutableArray<Subject> Subjects { get; }

        /// <summary>WaitAny blocks until one of its tasks completes, not each: it reports none of them for later uses.</summary>
        public bool CoversSubjects => Operation is not IInvocationOperation { TargetMethod.Name: "WaitAny" };

        /// <summary>A wait with a timeout whose answer is used (<c>t.Wait(20).ShouldBeFalse()</c>): a test's probe.</summary>
        public bool IsProbe { get; }
    }

    /// <summary>"From <see cref="Position"/> on, in this function and the ones nested in it, <see cref="Task"/> has completed".</summary>
    private sealed class Evidence
    {
        public Evidence(TaskReference task, IOperation at, bool isReportedWait = false, IOperation? storedCall = null)
        {
            Task = task;
            At = at;
            Position = at.Syntax.Span.End;
            Function = OperationScopes.EnclosingFunction(at);
            IsReportedWait = isReportedWait;
            StoredCall = storedCall;
        }

        public TaskReference Task { get; }
        public IOperation At { get; }
        public int Position { get; }
        public IOperation? Function { get; }

        /// <summary>An earlier blocking call on the task, which speaks for it only where it is itself reported (not guarded).</summary>
        public bool IsReportedWait { get; }

        /// <summary>
        /// A call whose task was stored (<c>var t = Read(false);</c>): evidence only if that call returns a completed
        /// task, which is asked (it may read the callee's body) only when a blocking use of the variable needs it.
        /// </summary>
        public IOperation? StoredCall { get; }
    }

    /// <summary>What one method body says about its tasks: where each is known complete, and where variables are reassigned.</summary>
    private sealed class BlockFacts
    {
        private readonly Types _types;
        private readonly List<Evidence> _evidence = new();
        private readonly List<(ISymbol Variable, int Position)> _assignments = new();
        private readonly Dictionary<ISymbol, ImmutableArray<TaskReference>> _whenAllLocals = new(SymbolEqualityComparer.Default);
        // Events a completion callback sets (`awaiter.OnCompleted(() => done.Set())`), with the tasks whose completion sets them.
        private readonly List<(TaskReference Event, ImmutableArray<TaskReference> Tasks)> _completionSignals = new();
        // Locals holding an awaiter (`var awaiter = t.GetAwaiter();`), with the task behind it.
        private readonly Dictionary<ISymbol, TaskReference> _awaiterLocals = new(SymbolEqualityComparer.Default);
        // Locals holding a task's status (`TaskStatus status = task.Status;`), with the task.
        private readonly Dictionary<ISymbol, TaskReference> _statusLocals = new(SymbolEqualityComparer.Default);
        // Locals holding a task's wait handle (`var handle = ((IAsyncResult)task).AsyncWaitHandle;`), with the task.
        private readonly Dictionary<ISymbol, TaskReference> _waitHandleLocals = new(SymbolEqualityComparer.Default);
        // Each value stored in a local task variable, where; and the locals written some other way (out/ref, deconstruction, ??=).
        private readonly Dictionary<ISymbol, List<(IOperation Value, IOperation At)>> _localStores = new(SymbolEqualityComparer.Default);
        private readonly HashSet<ISymbol> _otherwiseWrittenLocals = new(SymbolEqualityComparer.Default);
        // How deep the store-by-store question nests (`a = b; … b = a;`): past a few levels the answer is "not known".
        [ThreadStatic] private static int t_storeDepth;

        public BlockFacts(Types types, IOperation body)
        {
            _types = types;
            foreach (var operation in body.DescendantsAndSelf())
            {
                switch (operation)
                {
                    case IAwaitOperation awaitOperation:
                        OnAwait(awaitOperation);
                        break;
                    case IInvocationOperation or IPropertyReferenceOperation when Classify(operation, types) is { CoversSubjects: true } wait:
                        foreach (var subject in wait.Subjects)
                        {
                            if (subject.Reference is { } reference)
                            {
                                _evidence.Add(new Evidence(reference, operation, isReportedWait: true));
                            }
                        }
                        break;
                    case IInvocationOperation invocation:
                        OnInvocation(invocation);
                        break;
                    case IVariableDeclaratorOperation { Initializer.Value: { } value } declarator:
                        OnStore(declarator.Symbol, TaskReference.OfVariable(declarator.Symbol), value, declarator);
                        break;
                    case ISimpleAssignmentOperation assignment when TaskReference.Of(assignment.Target) is { } target:
                        OnStore(target.Root, target, assignment.Value, assignment);
                        break;
                    case ILocalReferenceOperation { Local: var written } when operation.Parent is IArgumentOperation { Parameter.RefKind: not RefKind.None }
                        or ICompoundAssignmentOperation or ICoalesceAssignmentOperation or IDeconstructionAssignmentOperation or ITupleOperation
                        || operation.Parent is IAddressOfOperation:
                        _otherwiseWrittenLocals.Add(written);
                        break;
                }
            }
        }

        private void OnAwait(IAwaitOperation awaitOperation)
        {
            var awaited = _types.Underlying(awaitOperation.Operation);
            if (awaited is IInvocationOperation whenAll && _types.IsTaskStatic(whenAll.TargetMethod, "WhenAll"))
            {
                foreach (var task in TaskArguments(whenAll, _types))
                {
                    AddEvidence(task, awaitOperation);
                }
            }
            else
            {
                AddEvidence(new Subject(awaited), awaitOperation);
            }
        }

        // A callback run on completion that sets an event (`awaiter.UnsafeOnCompleted(() => done.Set())`), and a later
        // untimed wait on that event (`done.Wait()`): after the wait, the task has completed.
        private void OnInvocation(IInvocationOperation invocation)
        {
            switch (invocation.TargetMethod.Name)
            {
                case "OnCompleted" or "UnsafeOnCompleted" or "ContinueWith" when invocation.Instance is { } source:
                    var tasks = CompletedIn(source);
                    foreach (var argument in invocation.Arguments)
                    {
                        if (TaskReference.Strip(argument.Value) is IDelegateCreationOperation { Target: IAnonymousFunctionOperation callback })
                        {
                            foreach (var set in callback.Body.Descendants().OfType<IInvocationOperation>())
                            {
                                if (set.TargetMethod.Name == "Set" && TaskReference.Of(set.Instance) is { } signalled && !tasks.IsEmpty)
                                {
                                    _completionSignals.Add((signalled, tasks));
                                }
                            }
                        }
                    }
                    break;
                case "WaitOne" when WaitTimeouts.Of(invocation, _types.TimeSpan) == WaitTimeouts.Kind.None && TaskOfWaitHandle(invocation.Instance) is { } signalledBy:
                    _evidence.Add(new Evidence(signalledBy, invocation));
                    break;
                case "Wait" or "WaitOne" when WaitTimeouts.Of(invocation, _types.TimeSpan) == WaitTimeouts.Kind.None && TaskReference.Of(invocation.Instance) is { } waited:
                    foreach (var (signalled, completed) in _completionSignals)
                    {
                        if (signalled.Equals(waited))
                        {
                            foreach (var task in completed)
                            {
                                _evidence.Add(new Evidence(task, invocation));
                            }
                        }
                    }
                    break;
            }
        }

        // The tasks a completion callback registered on `source` proves complete: an awaiter (stored or `t.GetAwaiter()`) and its task, or the antecedent.
        private ImmutableArray<TaskReference> CompletedIn(IOperation source)
        {
            var sourceReference = TaskReference.Of(source);
            var storedAwaiterTask = sourceReference is not null && _awaiterLocals.TryGetValue(sourceReference.Root, out var behind) ? behind : null;
            return new[] { sourceReference, storedAwaiterTask, TaskReference.Of(_types.TaskBehindAwaiter(source)), TaskReference.Of(_types.Underlying(source)) }
                .OfType<TaskReference>()
                .Distinct()
                .ToImmutableArray();
        }

        private void OnStore(ISymbol variable, TaskReference target, IOperation value, IOperation at)
        {
            _assignments.Add((variable, at.Syntax.SpanStart));
            if (variable is ILocalSymbol && target.Equals(TaskReference.OfVariable(variable)))
            {
                if (!_localStores.TryGetValue(variable, out var stores))
                {
                    _localStores[variable] = stores = new List<(IOperation Value, IOperation At)>();
                }
                stores.Add((value, at));
            }
            var stripped = TaskReference.Strip(value);
            if (_types.Async.IsCompletedByConstruction(stripped))
            {
                _evidence.Add(new Evidence(target, at));
            }
            else if (stripped is IInvocationOperation or IAwaitOperation)
            {
                _evidence.Add(new Evidence(target, at, storedCall: stripped));
            }
            if (variable is ILocalSymbol && stripped is IInvocationOperation invocation && _types.IsTaskStatic(invocation.TargetMethod, "WhenAll"))
            {
                _whenAllLocals[variable] = TaskArguments(invocation, _types).Select(t => t.Reference).OfType<TaskReference>().ToImmutableArray();
            }
            if (variable is ILocalSymbol && stripped is IInvocationOperation { TargetMethod.Name: "GetAwaiter" } && TaskReference.Of(_types.TaskBehindAwaiter(stripped)) is { } awaited)
            {
                _awaiterLocals[variable] = awaited;
            }
            if (variable is ILocalSymbol && TaskOfWaitHandle(stripped) is { } signalledBy)
            {
                _waitHandleLocals[variable] = signalledBy;
            }
            if (variable is ILocalSymbol && StatusOf(stripped) is { } task)
            {
                _statusLocals[variable] = task;
            }
        }

        private void AddEvidence(Subject task, IOperation at)
        {
            if (task.Reference is { } reference)
            {
                _evidence.Add(new Evidence(reference, at));
            }
        }

        // The facts of this body first: "complete by construction" may read the callee's body (and bind it).
        public bool IsKnownComplete(Subject subject, IOperation use) =>
            subject.Reference is { } task && (IsGuarded(task, use) || HasEarlierEvidence(task, use) || HoldsOnlyCompleted(task))
            || !subject.IsCollection && _types.IsCompleteByConstruction(TaskReference.Strip(subject.Operation));

        // A local whose every store is null or a task known complete where it is stored (`if (t.IsCompletedSuccessfully)
        // { winner = t; break; }` … `winner.Result`): whatever path reached the use, it holds no running task.
        private bool HoldsOnlyCompleted(TaskReference task)
        {
            if (task.Root is not ILocalSymbol local || !task.Equals(TaskReference.OfVariable(local))
                || _otherwiseWrittenLocals.Contains(local) || !_localStores.TryGetValue(local, out var stores) || t_storeDepth > 4)
            {
                return false;
            }
            t_storeDepth++;
            try
            {
                return stores.All(store => TaskReference.Strip(store.Value) is { ConstantValue: { HasValue: true, Value: null } } or IDefaultValueOperation
                    || IsKnownComplete(new Subject(_types.Underlying(store.Value)), store.At));
            }
            finally
            {
                t_storeDepth--;
            }
        }

        // Enclosing checks: `if (t.IsCompleted) … t.Result`, `t.IsCompletedSuccessfully ? t.Result : …`,
        // `if (!t.IsCompleted) return …;` or `if (!t.Wait(timeout)) throw …;` before the use, `case TaskStatus.RanToCompletion:`,
        // and the antecedent of a continuation.
        private bool IsGuarded(TaskReference task, IOperation use)
        {
            if (EnclosingConditions.Of(use, crossFunctions: true).Any(known => EnclosingConditions.Implies(known.Condition, known.Value, (leaf, value) => ImpliesComplete(leaf, task, value))))
            {
                return true;
            }
            for (IOperation child = use, parent = use.Parent!; parent is not null; child = parent, parent = parent.Parent!)
            {
                switch (parent)
                {
                    case ISwitchCaseOperation { Parent: ISwitchOperation { Value: var status } } section when section.Clauses.All(IsFinalStatusClause) && IsStatusOf(status, task):
                    case ISwitchExpressionArmOperation { Parent: ISwitchExpressionOperation { Value: var status2 } } arm when child == arm.Value && IsFinalStatusPattern(arm.Pattern) && IsStatusOf(status2, task):
                    case IAnonymousFunctionOperation lambda when IsContinuationOf(lambda, task):
                        return true;
                }
            }
            return false;
        }

        /// <summary>Whether a condition operand having <paramref name="value"/> means the task has completed.</summary>
        private bool ImpliesComplete(IOperation leaf, TaskReference task, bool value)
        {
            switch (leaf)
            {
                case IPropertyReferenceOperation property when value && Array.IndexOf(CompletionProperties, property.Property.Name) >= 0:
                    return task.Equals(TaskReference.Of(property.Instance));
                // `t.Wait(timeout)` returned true: the task completed within the timeout.
                case IInvocationOperation { TargetMethod: { Name: "Wait", IsStatic: false, ReturnType.SpecialType: SpecialType.System_Boolean } method, Instance: { } waited }
                    when value && _types.Async.IsTask(method.ContainingType):
                    return task.Equals(TaskReference.Of(_types.Underlying(waited)));
                // `handle.WaitOne(timeout)` returned true, where the handle is the task's own AsyncWaitHandle.
                case IInvocationOperation { TargetMethod.Name: "WaitOne", Instance: { } handle } when value:
                    return task.Equals(TaskOfWaitHandle(handle));
                // `TryWait(t)` returned true, where the helper is `bool TryWait(Task t) => t.Wait(timeout);`.
                case IInvocationOperation { TargetMethod.ReturnType.SpecialType: SpecialType.System_Boolean } helper when value:
                    return helper.Arguments.FirstOrDefault(a => task.Equals(TaskReference.Of(_types.Underlying(a.Value)))) is { Parameter: { } passedTo }
                        && SymbolEqualityComparer.Default.Equals(_types.TimedWaitParameter(helper.TargetMethod), passedTo.OriginalDefinition);
                // `WaitHandle.WaitAny(new[] { ((IAsyncResult)task).AsyncWaitHandle, other }) == 0`: the handle at that index was set.
                case IBinaryOperation { OperatorKind: BinaryOperatorKind.Equals } indexOf when value && SignalledByWaitAny(indexOf) is { } signalled:
                    return task.Equals(signalled);
                case IBinaryOperation { OperatorKind: BinaryOperatorKind.Equals or BinaryOperatorKind.NotEquals } comparison:
                    var equal = (comparison.OperatorKind == BinaryOperatorKind.Equals) == value;
                    return equal && (IsFinalStatus(comparison.RightOperand) && IsStatusOf(comparison.LeftOperand, task)
                        || IsFinalStatus(comparison.LeftOperand) && IsStatusOf(comparison.RightOperand, task)
                        || IsSameAsComplete(comparison.LeftOperand, comparison.RightOperand, comparison, task)
                        || IsSameAsComplete(comparison.RightOperand, comparison.LeftOperand, comparison, task));
                case IIsPatternOperation isPattern:
                    return PatternImplies(isPattern.Value, isPattern.Pattern, task, value);
                default:
                    return false;
            }
        }

        // `await Task.WhenAny(t, timeout) == t`, or `winner != t` with `winner` holding that await: the same task as one
        // known complete there (the task WhenAny handed back completed).
        private bool IsSameAsComplete(IOperation operand, IOperation other, IOperation at, TaskReference task) =>
            _types.Async.IsTaskLike(TaskReference.Strip(operand)!.Type?.OriginalDefinition)
            && task.Equals(TaskReference.Of(_types.Underlying(operand)))
            && IsKnownComplete(new Subject(_types.Underlying(other)), at);

        // `t is { IsCompletedSuccessfully: true }`, `t is not { IsCompleted: false }`, `t.Status is TaskStatus.RanToCompletion`.
        private bool PatternImplies(IOperation input, IPatternOperation pattern, TaskReference task, bool matched)
        {
            switch (pattern)
            {
                case INegatedPatternOperation negated:
                    return PatternImplies(input, negated.Pattern, task, !matched);
                case IConstantPatternOperation constant when matched && IsFinalStatusPattern(constant):
                    return IsStatusOf(input, task);
                case IRecursivePatternOperation recursive when matched && task.Equals(TaskReference.Of(input)):
                    return recursive.PropertySubpatterns.Any(sub =>
                        sub.Member is IPropertyReferenceOperation member
                        && Array.IndexOf(CompletionProperties, member.Property.Name) >= 0
                        && sub.Pattern is IConstantPatternOperation { Value.ConstantValue: { HasValue: true, Value: true } });
                default:
                    return false;
            }
        }

        // The task whose AsyncWaitHandle this is: `((IAsyncResult)task).AsyncWaitHandle`, or a local that holds it.
        private TaskReference? TaskOfWaitHandle(IOperation? handle) => TaskReference.Strip(handle) switch
        {
            ILocalReferenceOperation { Local: var local } when _waitHandleLocals.TryGetValue(local, out var held)
                && _assignments.Count(a => SymbolEqualityComparer.Default.Equals(a.Variable, local)) == 1 => held,
            IPropertyReferenceOperation { Property: { Name: "AsyncWaitHandle", ContainingType.Name: nameof(IAsyncResult) }, Instance: { } result }
                when _types.Async.IsTask(TaskReference.Strip(result)!.Type) => TaskReference.Of(_types.Underlying(result)),
            _ => null,
        };

        private TaskReference? SignalledByWaitAny(IBinaryOperation comparison)
        {
            var (call, index) = (TaskReference.Strip(comparison.LeftOperand), comparison.RightOperand.ConstantValue) is ({ } left, { HasValue: true, Value: int right })
                ? (left, right)
                : (TaskReference.Strip(comparison.RightOperand)!, comparison.LeftOperand.ConstantValue is { HasValue: true, Value: int leftIndex } ? leftIndex : -1);
            return call is IInvocationOperation { TargetMethod: { Name: "WaitAny", IsStatic: true, ContainingType.Name: "WaitHandle" } waitAny } invocation
                && index >= 0 && invocation.Arguments.Length > 0
                && Elements(invocation.Arguments[0].Value)?.ElementAtOrDefault(index) is { } handle
                    ? TaskOfWaitHandle(handle)
                    : null;
        }

        // `t.Status`, or a local that holds it and is never assigned again.
        private bool IsStatusOf(IOperation operation, TaskReference task)
        {
            var stripped = TaskReference.Strip(operation);
            if (stripped is ILocalReferenceOperation { Local: var local } && _statusLocals.TryGetValue(local, out var held))
            {
                return held.Equals(task) && _assignments.Count(a => SymbolEqualityComparer.Default.Equals(a.Variable, local)) == 1;
            }
            return task.Equals(StatusOf(stripped));
        }

        private static TaskReference? StatusOf(IOperation? operation) =>
            operation is IPropertyReferenceOperation { Property.Name: "Status" } status ? TaskReference.Of(status.Instance) : null;

        /// <summary>Whether the body assigns the variable (a parameter no longer holds what the caller passed).</summary>
        public bool IsAssigned(ISymbol variable) => _assignments.Any(a => SymbolEqualityComparer.Default.Equals(a.Variable, variable));

        // RanToCompletion = 5, Canceled = 6, Faulted = 7: the statuses of a completed task.
        private bool IsFinalStatus(IOperation operation)
        {
            var constant = TaskReference.Strip(operation)!;
            return constant.ConstantValue is { HasValue: true, Value: int and >= 5 } && SymbolEqualityComparer.Default.Equals(constant.Type, _types.TaskStatus);
        }

        private bool IsFinalStatusPattern(IPatternOperation pattern) => pattern is IConstantPatternOperation constant && IsFinalStatus(constant.Value);

        private bool IsFinalStatusClause(ICaseClauseOperation clause) => clause switch
        {
            ISingleValueCaseClauseOperation single => IsFinalStatus(single.Value),
            IPatternCaseClauseOperation { Guard: null } patternClause => IsFinalStatusPattern(patternClause.Pattern),
            _ => false,
        };

        // Inside `antecedent.ContinueWith(a => …)` both `a` and `antecedent` have completed; so has the awaiter (and its
        // task) in `awaiter.OnCompleted(() => …)`, and the tasks handed to TaskFactory.ContinueWhenAll/ContinueWhenAny's continuation.
        private bool IsContinuationOf(IAnonymousFunctionOperation lambda, TaskReference task)
        {
            if (lambda.Parent?.Parent is not IArgumentOperation { Parent: IInvocationOperation invocation })
            {
                return false;
            }
            var method = invocation.TargetMethod;
            if (method.Name is "OnCompleted" or "UnsafeOnCompleted" && invocation.Instance is { } awaiter)
            {
                return CompletedIn(awaiter).Contains(task);
            }
            if (lambda.Symbol.Parameters.Length == 0)
            {
                return false;
            }
            var isParameter = SymbolEqualityComparer.Default.Equals(task.Root, lambda.Symbol.Parameters[0]);
            if (method.Name == "ContinueWith" && _types.Async.IsTask(method.ContainingType))
            {
                return isParameter || task.Equals(TaskReference.Of(invocation.Instance));
            }
            return isParameter && method.Name is "ContinueWhenAll" or "ContinueWhenAny" && _types.IsTaskFactory(method.ContainingType);
        }

        private bool HasEarlierEvidence(TaskReference task, IOperation use)
        {
            var start = use.Syntax.SpanStart;
            foreach (var evidence in _evidence)
            {
                if (evidence.Position <= start
                    && IsVisibleFrom(evidence.Function, use)
                    && (evidence.Task.Equals(task) || HeldByAwaitedWhenAll(evidence.Task, task))
                    && !ReassignedBetween(evidence.Task.Root, evidence.Position, start)
                    && !(evidence.IsReportedWait && IsGuarded(evidence.Task, evidence.At))
                    && (evidence.StoredCall is null || _types.IsCompleteByConstruction(evidence.StoredCall)))
                {
                    return true;
                }
            }
            return false;
        }

        private bool HeldByAwaitedWhenAll(TaskReference awaited, TaskReference task) =>
            _whenAllLocals.TryGetValue(awaited.Root, out var held) && held.Contains(task);

        // Evidence counts in its own function and in the lambdas and local functions declared inside it.
        private static bool IsVisibleFrom(IOperation? evidenceFunction, IOperation use)
        {
            if (evidenceFunction is null)
            {
                return true;
            }
            for (var current = use.Parent; current is not null; current = current.Parent)
            {
                if (current == evidenceFunction)
                {
                    return true;
                }
            }
            return false;
        }

        private bool ReassignedBetween(ISymbol variable, int from, int to)
        {
            foreach (var (assigned, position) in _assignments)
            {
                if (position >= from && position < to && SymbolEqualityComparer.Default.Equals(assigned, variable))
                {
                    return true;
                }
            }
            return false;
        }
    }
}
