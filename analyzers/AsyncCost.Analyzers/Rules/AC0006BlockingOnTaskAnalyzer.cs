using System;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using System.Runtime.CompilerServices;
using System.Threading;
using AsyncCost.Analyzers.Internal;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Rules;

/// <summary>
/// AC0006: <c>.Result</c>, <c>.Wait()</c>, <c>.GetAwaiter().GetResult()</c>, <c>Task.WaitAll/WaitAny</c> on a task
/// not known to be complete. Known complete: an earlier await of it (or of a <c>WhenAll</c> holding it, or an
/// earlier blocking wait, which is the one reported), an enclosing or early-exit <c>IsCompleted</c>-family check
/// (vs-threading#301), the antecedent inside its <c>ContinueWith</c>, and tasks complete by construction
/// (<c>Task.FromResult</c>, the result of <c>await Task.WhenAny</c>). A synchronous console <c>Main</c> is exempt.
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

    private static readonly string[] CompletionProperties = { "IsCompleted", "IsCompletedSuccessfully", "IsFaulted", "IsCanceled" };

    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics => ImmutableArray.Create(Descriptors.BlockingOnTask);

    public override void Initialize(AnalysisContext context)
    {
        context.EnableConcurrentExecution();
        context.ConfigureGeneratedCodeAnalysis(GeneratedCodeAnalysisFlags.None);
        context.RegisterCompilationStartAction(start =>
        {
            var types = new Types(start.Compilation);
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
            start.RegisterOperationAction(c => Analyze(c, types, entryPoint, factsByBody), OperationKind.Invocation, OperationKind.PropertyReference);
        });
    }

    // Blocking calls are rare: each operation is filtered by name first, and only a method with a blocking call
    // is walked (once, shared by all its blocking calls) for the facts that can prove a task complete.
    private static void Analyze(OperationAnalysisContext context, Types types, Lazy<IMethodSymbol?> entryPoint, ConditionalWeakTable<IOperation, BlockFacts> factsByBody)
    {
        if (Classify(context.Operation, types) is not { } use || IsExempt(use, context.ContainingSymbol, entryPoint))
        {
            return;
        }
        var body = context.Operation;
        while (body.Parent is { } parent)
        {
            body = parent;
        }
        var facts = factsByBody.GetValue(body, root => new BlockFacts(types, root));
        if (use.Subjects.All(s => facts.IsKnownComplete(s, use.Operation)))
        {
            return;
        }
        var properties = AwaitPlacement.Properties(use.Operation, context.ContainingSymbol).Add(KindProperty, use.Kind);
        context.ReportDiagnostic(DiagnosticFactory.Create(
            Descriptors.BlockingOnTask, use.Operation.Syntax.GetLocation(), use.Operation, context.ContainingSymbol, properties, use.Display));
    }

    private static bool IsExempt(BlockingUse use, ISymbol containingSymbol, Lazy<IMethodSymbol?> entryPoint)
    {
        for (var current = use.Operation.Parent; current is not null; current = current.Parent)
        {
            if (current is INameOfOperation)
            {
                return true;
            }
        }
        // A synchronous Main has nothing to return to: blocking there is how a sync entry point waits.
        return OperationScopes.FunctionSymbol(use.Operation, containingSymbol) is { IsAsync: false } function
            && SymbolEqualityComparer.Default.Equals(function, entryPoint.Value);
    }

    /// <summary>The blocking call an operation is, if any: <c>.Result</c>, <c>.Wait(…)</c>, <c>GetResult()</c>, <c>Task.WaitAll/WaitAny</c>.</summary>
    private static BlockingUse? Classify(IOperation operation, Types types)
    {
        if (operation is IPropertyReferenceOperation { Property.Name: "Result", Instance: { } task } reference)
        {
            var type = reference.Property.ContainingType.OriginalDefinition;
            return SymbolEqualityComparer.Default.Equals(type, types.Async.TaskOfT) || SymbolEqualityComparer.Default.Equals(type, types.Async.ValueTaskOfT)
                ? new BlockingUse(reference, ResultKind, ".Result", ImmutableArray.Create(new Subject(task)), completesSubjects: false)
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
                && WaitTimeouts.Of(invocation, types.TimeSpan) != WaitTimeouts.Kind.Zero:
                return new BlockingUse(invocation, WaitKind, ".Wait()", ImmutableArray.Create(new Subject(waited)), completesSubjects: method.ReturnsVoid);
            case "GetResult" when invocation.Instance is { } awaiter && types.Awaiters.Contains(method.ContainingType.OriginalDefinition):
                return new BlockingUse(invocation, GetResultKind, ".GetAwaiter().GetResult()", ImmutableArray.Create(new Subject(TaskBehindAwaiter(awaiter, types))), completesSubjects: true);
            case "WaitAll" or "WaitAny" when types.IsTaskStatic(method, method.Name) && WaitTimeouts.Of(invocation, types.TimeSpan) != WaitTimeouts.Kind.Zero:
                var isAll = method.Name == "WaitAll";
                // Only WaitAll(params Task[]) has a WhenAll twin with the same arguments and no result.
                var kind = isAll && method.Parameters.Length == 1 && method.ReturnsVoid ? WaitAllKind : WaitAnyKind;
                return new BlockingUse(invocation, kind, "Task." + method.Name, TaskArguments(invocation), completesSubjects: isAll && method.ReturnsVoid);
            default:
                return null;
        }
    }

    // `t.GetAwaiter()` and `t.ConfigureAwait(false).GetAwaiter()` block on t; a stored awaiter is its own subject.
    private static IOperation TaskBehindAwaiter(IOperation awaiter, Types types) =>
        TaskReference.Strip(awaiter) is IInvocationOperation { TargetMethod.Name: "GetAwaiter", Instance: { } awaitable }
            ? ConfigureAwaitCalls.Unwrap(awaitable, types.Async)
            : awaiter;

    // Task.WaitAll(a, b) / WhenAll(a, b): the params elements; WaitAll(tasks) / WhenAll(list): the elements of the collection.
    private static ImmutableArray<Subject> TaskArguments(IInvocationOperation invocation)
    {
        var tasks = ImmutableArray.CreateBuilder<Subject>();
        foreach (var argument in invocation.Arguments)
        {
            if (argument.Parameter is not { Type: var type } || type.SpecialType == SpecialType.System_Int32 || type.Name is "TimeSpan" or "CancellationToken")
            {
                continue;
            }
            if (argument.ArgumentKind == ArgumentKind.ParamArray && argument.Value is IArrayCreationOperation { Initializer: { } initializer })
            {
                tasks.AddRange(initializer.ElementValues.Select(value => new Subject(value)));
            }
            else if (type is IArrayTypeSymbol || type.OriginalDefinition.SpecialType == SpecialType.System_Collections_Generic_IEnumerable_T || type.Name == "ReadOnlySpan")
            {
                tasks.Add(new Subject(argument.Value, isCollection: true));
            }
        }
        return tasks.ToImmutable();
    }

    private sealed class Types
    {
        public Types(Compilation compilation)
        {
            Async = WellKnownAsyncTypes.Create(compilation);
            TaskStatus = compilation.GetTypeByMetadataName("System.Threading.Tasks.TaskStatus");
            TaskFactory = compilation.GetTypeByMetadataName("System.Threading.Tasks.TaskFactory");
            TaskFactoryOfT = compilation.GetTypeByMetadataName("System.Threading.Tasks.TaskFactory`1");
            Debug = compilation.GetTypeByMetadataName("System.Diagnostics.Debug");
            TimeSpan = compilation.GetTypeByMetadataName("System.TimeSpan");
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
        }

        public WellKnownAsyncTypes Async { get; }
        public INamedTypeSymbol? TaskStatus { get; }
        public INamedTypeSymbol? TaskFactory { get; }
        public INamedTypeSymbol? TaskFactoryOfT { get; }
        public INamedTypeSymbol? Debug { get; }
        public INamedTypeSymbol? TimeSpan { get; }
        public ImmutableHashSet<INamedTypeSymbol> Awaiters { get; }

        public bool IsTaskStatic(IMethodSymbol method, string name) =>
            method.IsStatic && method.Name == name && SymbolEqualityComparer.Default.Equals(method.ContainingType, Async.Task);

        public bool IsTaskFactory(ITypeSymbol type) =>
            SymbolEqualityComparer.Default.Equals(type.OriginalDefinition, TaskFactory) || SymbolEqualityComparer.Default.Equals(type.OriginalDefinition, TaskFactoryOfT);
    }

    /// <summary>A task expression, or a collection whose elements are the tasks (<c>Task.WaitAll(tasks)</c>).</summary>
    private readonly struct Subject
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
        public BlockingUse(IOperation operation, string kind, string display, ImmutableArray<Subject> subjects, bool completesSubjects)
        {
            Operation = operation;
            Kind = kind;
            Display = display;
            Subjects = subjects;
            CompletesSubjects = completesSubjects;
        }

        /// <summary>True when the call returns only once its tasks completed (no timeout): later uses of them are not reported again.</summary>
        public bool CompletesSubjects { get; }

        public IOperation Operation { get; }
        public string Kind { get; }
        public string Display { get; }
        public ImmutableArray<Subject> Subjects { get; }
    }

    /// <summary>"From <see cref="Position"/> on, in this function and the ones nested in it, <see cref="Task"/> has completed".</summary>
    private readonly struct Evidence
    {
        public Evidence(TaskReference task, IOperation at)
        {
            Task = task;
            Position = at.Syntax.Span.End;
            Function = OperationScopes.EnclosingFunction(at);
        }

        public TaskReference Task { get; }
        public int Position { get; }
        public IOperation? Function { get; }
    }

    /// <summary>What one method body says about its tasks: where each is known complete, and where variables are reassigned.</summary>
    private sealed class BlockFacts
    {
        private readonly Types _types;
        private readonly List<Evidence> _evidence = new();
        private readonly List<(ISymbol Variable, int Position)> _assignments = new();
        private readonly Dictionary<ISymbol, ImmutableArray<TaskReference>> _whenAllLocals = new(SymbolEqualityComparer.Default);

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
                    case IInvocationOperation when Classify(operation, types) is { CompletesSubjects: true } wait:
                        foreach (var subject in wait.Subjects)
                        {
                            AddEvidence(subject, operation);
                        }
                        break;
                    case IVariableDeclaratorOperation { Initializer.Value: { } value } declarator:
                        OnStore(declarator.Symbol, TaskReference.OfVariable(declarator.Symbol), value, declarator);
                        break;
                    case ISimpleAssignmentOperation assignment when TaskReference.Of(assignment.Target) is { } target:
                        OnStore(target.Root, target, assignment.Value, assignment);
                        break;
                }
            }
        }

        private void OnAwait(IAwaitOperation awaitOperation)
        {
            var awaited = ConfigureAwaitCalls.Unwrap(awaitOperation.Operation, _types.Async);
            if (awaited is IInvocationOperation whenAll && _types.IsTaskStatic(whenAll.TargetMethod, "WhenAll"))
            {
                foreach (var task in TaskArguments(whenAll))
                {
                    AddEvidence(task, awaitOperation);
                }
            }
            else
            {
                AddEvidence(new Subject(awaited), awaitOperation);
            }
        }

        private void OnStore(ISymbol variable, TaskReference target, IOperation value, IOperation at)
        {
            _assignments.Add((variable, at.Syntax.SpanStart));
            var stripped = TaskReference.Strip(value);
            if (IsCompleteByConstruction(stripped))
            {
                _evidence.Add(new Evidence(target, at));
            }
            if (variable is ILocalSymbol && stripped is IInvocationOperation invocation && _types.IsTaskStatic(invocation.TargetMethod, "WhenAll"))
            {
                _whenAllLocals[variable] = TaskArguments(invocation).Select(t => t.Reference).OfType<TaskReference>().ToImmutableArray();
            }
        }

        private void AddEvidence(Subject task, IOperation at)
        {
            if (task.Reference is { } reference)
            {
                _evidence.Add(new Evidence(reference, at));
            }
        }

        public bool IsKnownComplete(Subject subject, IOperation use)
        {
            if (!subject.IsCollection && IsCompleteByConstruction(TaskReference.Strip(subject.Operation)))
            {
                return true;
            }
            if (subject.Reference is not { } task)
            {
                return false;
            }
            return IsGuarded(task, use) || HasEarlierEvidence(task, use);
        }

        // Enclosing checks: `if (t.IsCompleted) … t.Result`, `t.IsCompletedSuccessfully ? t.Result : …`,
        // `if (!t.IsCompleted) return …;` before the use, and the antecedent of a continuation.
        private bool IsGuarded(TaskReference task, IOperation use)
        {
            for (IOperation child = use, parent = use.Parent!; parent is not null; child = parent, parent = parent.Parent!)
            {
                switch (parent)
                {
                    case IConditionalOperation conditional when child == conditional.WhenTrue && Implies(conditional.Condition, task, true):
                    case IConditionalOperation conditional2 when child == conditional2.WhenFalse && Implies(conditional2.Condition, task, false):
                    case IBinaryOperation { OperatorKind: BinaryOperatorKind.ConditionalAnd } conjunction when child == conjunction.RightOperand && Implies(conjunction.LeftOperand, task, true):
                    case IBinaryOperation { OperatorKind: BinaryOperatorKind.ConditionalOr } disjunction when child == disjunction.RightOperand && Implies(disjunction.LeftOperand, task, false):
                        return true;
                    case IBlockOperation block when block.Operations.TakeWhile(s => s != child).Any(s => EstablishesCompletion(s, task)):
                        return true;
                    case IAnonymousFunctionOperation lambda when IsContinuationOf(lambda, task):
                        return true;
                }
            }
            return false;
        }

        // A statement after which the task has completed: an early exit on "not completed", a wait-until-completed loop, Debug.Assert.
        private bool EstablishesCompletion(IOperation statement, TaskReference task) => statement switch
        {
            IConditionalOperation { WhenFalse: null } exit => AlwaysExits(exit.WhenTrue) && Implies(exit.Condition, task, false),
            IConditionalOperation exit => AlwaysExits(exit.WhenTrue) && Implies(exit.Condition, task, false)
                || AlwaysExits(exit.WhenFalse!) && Implies(exit.Condition, task, true),
            IWhileLoopOperation { ConditionIsTop: true, Condition: { } condition } => Implies(condition, task, false),
            IExpressionStatementOperation { Operation: IInvocationOperation { TargetMethod.Name: "Assert" } assert }
                when SymbolEqualityComparer.Default.Equals(assert.TargetMethod.ContainingType, _types.Debug) && assert.Arguments.Length > 0 =>
                Implies(assert.Arguments[0].Value, task, true),
            _ => false,
        };

        private static bool AlwaysExits(IOperation operation) => operation switch
        {
            IReturnOperation or IThrowOperation or IBranchOperation => true,
            IExpressionStatementOperation { Operation: IThrowOperation } => true,
            IBlockOperation { Operations.Length: > 0 } block => AlwaysExits(block.Operations[block.Operations.Length - 1]),
            _ => false,
        };

        /// <summary>Whether <paramref name="condition"/> evaluating to <paramref name="value"/> means the task has completed.</summary>
        private bool Implies(IOperation condition, TaskReference task, bool value)
        {
            switch (TaskReference.Strip(condition))
            {
                case IUnaryOperation { OperatorKind: UnaryOperatorKind.Not } negation:
                    return Implies(negation.Operand, task, !value);
                case IBinaryOperation { OperatorKind: BinaryOperatorKind.ConditionalAnd } conjunction when value:
                    return Implies(conjunction.LeftOperand, task, true) || Implies(conjunction.RightOperand, task, true);
                case IBinaryOperation { OperatorKind: BinaryOperatorKind.ConditionalOr } disjunction when !value:
                    return Implies(disjunction.LeftOperand, task, false) || Implies(disjunction.RightOperand, task, false);
                case IBinaryOperation { OperatorKind: BinaryOperatorKind.Equals or BinaryOperatorKind.NotEquals } comparison:
                    var equalsWhen = comparison.OperatorKind == BinaryOperatorKind.Equals ? value : !value;
                    return ImpliesComparison(comparison.LeftOperand, comparison.RightOperand, task, equalsWhen)
                        || ImpliesComparison(comparison.RightOperand, comparison.LeftOperand, task, equalsWhen);
                case IPropertyReferenceOperation property when value && Array.IndexOf(CompletionProperties, property.Property.Name) >= 0:
                    return task.Equals(TaskReference.Of(property.Instance));
                case IIsPatternOperation isPattern:
                    return PatternImplies(isPattern.Value, isPattern.Pattern, task, value);
                default:
                    return false;
            }
        }

        // `t.IsCompleted is true`, `t.IsCompleted is not false`, `t is { IsCompletedSuccessfully: true }`.
        private bool PatternImplies(IOperation input, IPatternOperation pattern, TaskReference task, bool matched)
        {
            switch (pattern)
            {
                case INegatedPatternOperation negated:
                    return PatternImplies(input, negated.Pattern, task, !matched);
                case IConstantPatternOperation { Value.ConstantValue: { HasValue: true, Value: bool constant } }:
                    return Implies(input, task, matched ? constant : !constant);
                case IRecursivePatternOperation recursive when matched && task.Equals(TaskReference.Of(input)):
                    return recursive.PropertySubpatterns.Any(sub =>
                        sub.Member is IPropertyReferenceOperation member
                        && Array.IndexOf(CompletionProperties, member.Property.Name) >= 0
                        && sub.Pattern is IConstantPatternOperation { Value.ConstantValue: { HasValue: true, Value: true } });
                default:
                    return false;
            }
        }

        // `t.IsCompleted == true`, `t.IsCompleted != false`, `t.Status == TaskStatus.RanToCompletion` (any final status).
        private bool ImpliesComparison(IOperation side, IOperation constant, TaskReference task, bool equal)
        {
            var stripped = TaskReference.Strip(constant)!;
            var value = stripped.ConstantValue;
            if (!value.HasValue)
            {
                return false;
            }
            if (value.Value is bool flag)
            {
                return Implies(side, task, equal ? flag : !flag);
            }
            return equal
                && TaskReference.Strip(side) is IPropertyReferenceOperation { Property.Name: "Status" } status
                && SymbolEqualityComparer.Default.Equals(stripped.Type, _types.TaskStatus)
                && value.Value is int and >= 5 // RanToCompletion = 5, Canceled = 6, Faulted = 7
                && task.Equals(TaskReference.Of(status.Instance));
        }

        // Inside `antecedent.ContinueWith(a => …)` both `a` and `antecedent` have completed; so have the tasks
        // handed to TaskFactory.ContinueWhenAll/ContinueWhenAny's continuation.
        private bool IsContinuationOf(IAnonymousFunctionOperation lambda, TaskReference task)
        {
            if (lambda.Parent?.Parent is not IArgumentOperation { Parent: IInvocationOperation invocation }
                || lambda.Symbol.Parameters.Length == 0)
            {
                return false;
            }
            var method = invocation.TargetMethod;
            var parameter = lambda.Symbol.Parameters[0];
            var isParameter = SymbolEqualityComparer.Default.Equals(task.Root, parameter);
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
                    && !ReassignedBetween(evidence.Task.Root, evidence.Position, start))
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

        private bool IsCompleteByConstruction(IOperation? value) => value switch
        {
            IInvocationOperation invocation => _types.IsTaskStatic(invocation.TargetMethod, "FromResult")
                || _types.IsTaskStatic(invocation.TargetMethod, "FromException")
                || _types.IsTaskStatic(invocation.TargetMethod, "FromCanceled"),
            IPropertyReferenceOperation { Property: { Name: "CompletedTask", IsStatic: true } property } =>
                SymbolEqualityComparer.Default.Equals(property.ContainingType, _types.Async.Task),
            // The task WhenAny hands back is the one that completed.
            IAwaitOperation { Operation: var awaited } => ConfigureAwaitCalls.Unwrap(awaited, _types.Async) is IInvocationOperation whenAny && _types.IsTaskStatic(whenAny.TargetMethod, "WhenAny"),
            IObjectCreationOperation { Arguments.Length: 1 } creation => _types.Async.IsValueTask(creation.Type)
                && !_types.Async.IsTask(creation.Arguments[0].Value.Type)
                && creation.Arguments[0].Parameter?.Type.TypeKind != TypeKind.Interface,
            IDefaultValueOperation @default => _types.Async.IsValueTask(@default.Type),
            _ => false,
        };
    }
}
