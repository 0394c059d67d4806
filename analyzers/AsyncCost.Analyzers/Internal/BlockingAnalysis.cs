using System;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using System.Runtime.CompilerServices;
using System.Threading;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Internal;

/// <summary>What the rule resolves once per compilation: types, the project's kind, and the callees of the <c>bool async</c> idiom.</summary>
internal sealed class BlockingAnalysis
{
    private readonly Lazy<UiTypes> _uiTypes;
    private readonly System.Collections.Concurrent.ConcurrentDictionary<IMethodSymbol, IParameterSymbol?> _timedWaitParameters = new(SymbolEqualityComparer.Default);
    private readonly System.Collections.Concurrent.ConcurrentDictionary<IMethodSymbol, bool> _blockingHelpers = new(SymbolEqualityComparer.Default);
    private readonly ImmutableHashSet<string> _namedHelpers;

    public BlockingAnalysis(Compilation compilation, AnalyzerOptions options)
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
        Pending = new PendingEvidence(compilation, Async, Bodies);
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
    public PendingEvidence Pending { get; }
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
    /// it (<see cref="BlockingExemptions.BlockingHelpersOption"/>), or no other assembly calls it.
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
        var key = "asynccost." + RuleIds.BlockingOnTask + "." + BlockingExemptions.BlockingHelpersOption;
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
            && BlockingCalls.Classify(TaskReference.Strip(value)!, this) is { Kind: not BlockingCalls.HelperKind, Subjects.Length: 1 } wait
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
