using System;
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
/// AC0009: a non-async method (or local function) returns an async local function's task on its slow path and
/// something else on its fast path, and the local function captures the method's parameters or locals. The
/// compiler allocates the captured variables' display class on entry to the scope that declares them, so when
/// that scope contains the fast return, the fast path pays for the slow path's closure. Not flagged: captures of
/// <c>this</c> only (the local function becomes an instance method, nothing is allocated), captures of locals
/// whose scope only the slow path enters, static or non-capturing local functions.
/// </summary>
[DiagnosticAnalyzer(LanguageNames.CSharp)]
public sealed class AC0009FastPathClosureAnalyzer : DiagnosticAnalyzer
{
    /// <summary>The state to pass, one <c>name\ttype</c> line per captured variable, in order of first use.</summary>
    public const string CapturedProperty = "AsyncCostCaptured";

    /// <summary>Set when the local function also uses <c>this</c>: it cannot become static, but passing the rest removes the closure.</summary>
    public const string CapturesThisProperty = "AsyncCostCapturesThis";

    private static readonly SymbolDisplayFormat TypeFormat = SymbolDisplayFormat.FullyQualifiedFormat
        .AddMiscellaneousOptions(SymbolDisplayMiscellaneousOptions.IncludeNullableReferenceTypeModifier);

    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics => ImmutableArray.Create(Descriptors.FastPathClosure);

    public override void Initialize(AnalysisContext context)
    {
        context.EnableConcurrentExecution();
        context.ConfigureGeneratedCodeAnalysis(GeneratedCodeAnalysisFlags.None);
        context.RegisterCompilationStartAction(start =>
        {
            var types = WellKnownAsyncTypes.Create(start.Compilation);
            if (types.HasTasks)
            {
                start.RegisterOperationAction(c => Analyze(c, types), OperationKind.LocalFunction);
            }
        });
    }

    private static void Analyze(OperationAnalysisContext context, WellKnownAsyncTypes types)
    {
        var local = (ILocalFunctionOperation)context.Operation;
        var function = local.Symbol;
        if (!function.IsAsync || function.IsStatic || local.Body is null)
        {
            return;
        }

        var enclosing = OperationScopes.EnclosingFunction(local);
        var (enclosingSymbol, enclosingBody) = enclosing switch
        {
            ILocalFunctionOperation outer => (outer.Symbol, (IOperation?)outer.Body),
            null => (context.ContainingSymbol as IMethodSymbol, OperationTree.Root(local)),
            _ => (null, null), // inside a lambda: the lambda is a delegate allocation already
        };
        if (enclosingSymbol is not { IsAsync: false } || enclosingBody is null || !types.IsTaskLike(enclosingSymbol.ReturnType))
        {
            return;
        }

        var fastReturns = FastReturns(enclosingBody, function, out var returnsLocalTask);
        if (!returnsLocalTask)
        {
            return;
        }
        if (fastReturns.Count == 0)
        {
            // A validating wrapper (check the arguments, then return Core()): its fast path is the core completing
            // without suspending, where the closure would be the call's only allocation. So when the core can complete
            // synchronously and its result type then allocates nothing (ValueTask, ValueTask<T>, or Task's cached
            // completed task), the returns that hand back the core's task are the fast returns.
            if (!CompletesWithoutAllocating(function, types) || !SynchronousCompletion.Analyze(local.Body).Exists)
            {
                return;
            }
            fastReturns = OperationTree.SameMethod(enclosingBody).OfType<IReturnOperation>().Select(r => r.Syntax).ToList();
        }
        // A fast path that already allocates visibly (a new object or array on its way to the return) gains little
        // from losing the closure; only fast paths whose one visible allocation would be the closure count.
        var allocations = VisibleAllocations(enclosingBody);
        fastReturns.RemoveAll(r => allocations.Any(a => AllocatesBefore(a, r)));
        if (fastReturns.Count == 0)
        {
            return;
        }

        var captures = Captures(local, out var capturesThis, out var fixable);
        // Only captures whose display class is created on a fast path cost the fast path anything.
        var paidOnFastPath = captures.Where(c => c is IParameterSymbol || fastReturns.Any(r => ScopeOf(c)?.Span.Contains(r.Span) ?? true)).ToList();
        if (paidOnFastPath.Count == 0)
        {
            return;
        }

        var properties = ImmutableDictionary<string, string?>.Empty;
        if (fixable
            && !HasNonInvocationReference(enclosingBody, function)
            && !WrittenAfterFirstCall(enclosingBody, function, captures)
            && captures.All(c => TypeOf(c) is { IsAnonymousType: false }))
        {
            properties = properties.Add(CapturedProperty, string.Join("\n", captures.Select(c => c.Name + "\t" + TypeOf(c)!.ToDisplayString(TypeFormat))));
            if (capturesThis)
            {
                properties = properties.Add(CapturesThisProperty, "true");
            }
        }
        var names = string.Join(", ", paidOnFastPath.Select(c => "'" + c.Name + "'"));
        var location = local.Syntax is LocalFunctionStatementSyntax syntax ? syntax.Identifier.GetLocation() : local.Syntax.GetLocation();
        var bytes = ClosureBytes(paidOnFastPath, capturesThis);
        context.ReportDiagnostic(DiagnosticFactory.Create(Descriptors.FastPathClosure, location, context.ContainingSymbol, properties, function.Name, names, bytes));
    }

    private static bool CompletesWithoutAllocating(IMethodSymbol function, WellKnownAsyncTypes types) =>
        types.IsValueTask(function.ReturnType) || SymbolEqualityComparer.Default.Equals(function.ReturnType, types.Task);

    /// <summary>The returned values of the enclosing function that do not come from the local function (conditional branches split).</summary>
    private static List<SyntaxNode> FastReturns(IOperation body, IMethodSymbol function, out bool returnsLocalTask)
    {
        var fast = new List<SyntaxNode>();
        var returnsLocal = false;
        // `var task = Slow(); …; return task;` returns the local function's task too.
        var holdsLocalTask = new HashSet<ILocalSymbol>(SymbolEqualityComparer.Default);
        foreach (var operation in OperationTree.SameMethod(body))
        {
            var (holder, value) = operation switch
            {
                IVariableDeclaratorOperation { Initializer.Value: { } initial } declarator => (declarator.Symbol, initial),
                ISimpleAssignmentOperation { Target: ILocalReferenceOperation target } assignment => (target.Local, assignment.Value),
                _ => (null, null),
            };
            if (holder is not null && value is not null && CallsFunction(value, function))
            {
                holdsLocalTask.Add(holder);
            }
        }
        foreach (var returned in OperationTree.SameMethod(body).OfType<IReturnOperation>())
        {
            if (returned.ReturnedValue is { } value)
            {
                Classify(value);
            }
        }
        returnsLocalTask = returnsLocal;
        return fast;

        void Classify(IOperation value)
        {
            switch (TaskReference.Strip(value))
            {
                case IConditionalOperation { WhenFalse: { } whenFalse } conditional:
                    Classify(conditional.WhenTrue);
                    Classify(whenFalse);
                    break;
                case ICoalesceOperation coalesce:
                    Classify(coalesce.Value);
                    Classify(coalesce.WhenNull);
                    break;
                case ILocalReferenceOperation holder when holdsLocalTask.Contains(holder.Local):
                    returnsLocal = true;
                    break;
                case { } other when CallsFunction(other, function):
                    returnsLocal = true;
                    break;
                case { } other:
                    fast.Add(other.Syntax);
                    break;
            }
        }
    }

    /// <summary>Expressions that allocate on the heap where they stand (see <see cref="HeapAllocations.IsAllocation"/>), not calls (their allocations are not visible here).</summary>
    private static List<SyntaxNode> VisibleAllocations(IOperation body)
    {
        var allocations = new List<SyntaxNode>();
        foreach (var operation in OperationTree.SameMethod(body))
        {
            if (HeapAllocations.IsAllocation(operation))
            {
                allocations.Add(operation.Syntax);
            }
        }
        return allocations;
    }

    /// <summary>
    /// The allocation runs on every path to the fast return: it precedes the return (or is part of the returned value)
    /// and no branch, loop, short-circuit or nested function lies between it and the statement that also holds the return.
    /// </summary>
    private static bool AllocatesBefore(SyntaxNode allocation, SyntaxNode fastReturn)
    {
        if (allocation.SpanStart > fastReturn.SpanStart && !fastReturn.Span.Contains(allocation.Span))
        {
            return false;
        }
        for (var node = allocation; node is not null && !node.Span.Contains(fastReturn.Span); node = node.Parent)
        {
            if (node is IfStatementSyntax or ElseClauseSyntax or SwitchStatementSyntax or SwitchExpressionSyntax or SwitchSectionSyntax
                or ConditionalExpressionSyntax or ConditionalAccessExpressionSyntax or CatchClauseSyntax or FinallyClauseSyntax
                or ForStatementSyntax or CommonForEachStatementSyntax or WhileStatementSyntax or DoStatementSyntax
                or AnonymousFunctionExpressionSyntax or LocalFunctionStatementSyntax
                || node is BinaryExpressionSyntax binary && binary.Kind() is SyntaxKind.LogicalAndExpression or SyntaxKind.LogicalOrExpression or SyntaxKind.CoalesceExpression
                || node is AssignmentExpressionSyntax assignment && assignment.IsKind(SyntaxKind.CoalesceAssignmentExpression))
            {
                return false;
            }
        }
        return true;
    }

    private static bool CallsFunction(IOperation value, IMethodSymbol function) =>
        OperationTree.SameMethod(value).OfType<IInvocationOperation>().Any(i => SymbolEqualityComparer.Default.Equals(i.TargetMethod, function));

    // The parameters and locals of enclosing functions the local function (or a lambda inside it) uses, in order of first use.
    private static List<ISymbol> Captures(ILocalFunctionOperation local, out bool capturesThis, out bool fixable)
    {
        var span = local.Syntax.Span;
        var captured = new List<ISymbol>();
        capturesThis = false;
        fixable = true;
        foreach (var operation in local.Body!.Descendants())
        {
            ISymbol? symbol = operation switch
            {
                // A const local is a compile-time value: the local function gets the constant, nothing is captured.
                ILocalReferenceOperation { Local.IsConst: true } => null,
                ILocalReferenceOperation reference => reference.Local,
                IParameterReferenceOperation reference => reference.Parameter,
                _ => null,
            };
            if (operation is IInstanceReferenceOperation { ReferenceKind: InstanceReferenceKind.ContainingTypeInstance })
            {
                capturesThis = true;
            }
            if (symbol is null || symbol.DeclaringSyntaxReferences.All(r => span.Contains(r.Span)))
            {
                continue;
            }
            if (!captured.Contains(symbol, SymbolEqualityComparer.Default))
            {
                captured.Add(symbol);
            }
            // A variable the local function writes cannot become a by-value parameter without changing behaviour.
            if (IsWrite(operation))
            {
                fixable = false;
            }
        }
        return captured;
    }

    // A captured variable the enclosing function changes after calling the local function would be read
    // changed by the closure but not by a by-value parameter: the fix would change behaviour.
    private static bool WrittenAfterFirstCall(IOperation body, IMethodSymbol function, List<ISymbol> captures)
    {
        var firstCall = int.MaxValue;
        foreach (var operation in OperationTree.SameMethod(body))
        {
            if (operation is IInvocationOperation invocation && SymbolEqualityComparer.Default.Equals(invocation.TargetMethod, function))
            {
                firstCall = Math.Min(firstCall, operation.Syntax.SpanStart);
            }
        }
        foreach (var operation in OperationTree.SameMethod(body))
        {
            if (operation.Syntax.SpanStart > firstCall
                && OperationTree.ReferencedSymbol(operation) is { } symbol
                && captures.Contains(symbol, SymbolEqualityComparer.Default)
                && IsWrite(operation))
            {
                return true;
            }
        }
        return false;
    }

    private static bool IsWrite(IOperation reference) =>
        reference.Parent is IAssignmentOperation assignment && assignment.Target == reference
        || reference.Parent is IIncrementOrDecrementOperation
        || reference.Parent is IArgumentOperation { Parameter.RefKind: RefKind.Ref or RefKind.Out };

    // The fix rewrites call sites; a method-group use (a delegate) cannot take the extra arguments.
    private static bool HasNonInvocationReference(IOperation body, IMethodSymbol function) =>
        body.Descendants().OfType<IMethodReferenceOperation>().Any(r => SymbolEqualityComparer.Default.Equals(r.Method, function));

    /// <summary>The syntax whose entry allocates a captured local's display class: its block, switch section, for/foreach/using/catch.</summary>
    private static SyntaxNode? ScopeOf(ISymbol variable)
    {
        var declaration = variable.DeclaringSyntaxReferences.FirstOrDefault()?.GetSyntax();
        for (var node = declaration?.Parent; node is not null; node = node.Parent)
        {
            if (node is BlockSyntax or SwitchSectionSyntax or ForStatementSyntax or CommonForEachStatementSyntax or UsingStatementSyntax or FixedStatementSyntax or CatchClauseSyntax
                or ArrowExpressionClauseSyntax or LocalFunctionStatementSyntax or BaseMethodDeclarationSyntax)
            {
                return node;
            }
        }
        return null;
    }

    // What the display classes of these captures take on the 64-bit runtime, as measured for each shape
    // (benchmarks/results/ClosureBytes.md): one object per scope that holds captures, 16 B of header and method
    // table plus the fields packed and rounded up to 8 B, at least 8 B of them (24 B for one captured reference or
    // int, 32 B for two references or a reference and an int, 40 B for three); `this` is one more reference field,
    // and each inner scope's object points to its outer one.
    private static int ClosureBytes(List<ISymbol> captures, bool capturesThis)
    {
        // Parameters and the locals of the function's own top-level block share the outermost object.
        var scopes = captures.GroupBy(c => ScopeOf(c) is { } scope && !IsFunctionTopLevel(scope) ? scope : null).OrderBy(g => g.Key?.SpanStart ?? -1).ToList();
        var total = 0;
        for (var i = 0; i < scopes.Count; i++)
        {
            var fields = scopes[i].Sum(c => FieldBytes(TypeOf(c)));
            fields += i == 0 ? (capturesThis ? 8 : 0) : 8;
            total += 16 + Math.Max(8, (fields + 7) / 8 * 8);
        }
        return total;
    }

    private static bool IsFunctionTopLevel(SyntaxNode scope) =>
        scope is ArrowExpressionClauseSyntax or BaseMethodDeclarationSyntax or LocalFunctionStatementSyntax
        || scope is BlockSyntax { Parent: BaseMethodDeclarationSyntax or LocalFunctionStatementSyntax or AccessorDeclarationSyntax };

    private static int FieldBytes(ITypeSymbol? type, int depth = 0)
    {
        if (type is null || !type.IsValueType || depth > 4)
        {
            return 8; // a reference, or a type the analyzer cannot size
        }
        if (type is INamedTypeSymbol { TypeKind: TypeKind.Enum, EnumUnderlyingType: { } underlying })
        {
            type = underlying;
        }
        switch (type.SpecialType)
        {
            case SpecialType.System_Boolean or SpecialType.System_Byte or SpecialType.System_SByte:
                return 1;
            case SpecialType.System_Char or SpecialType.System_Int16 or SpecialType.System_UInt16:
                return 2;
            case SpecialType.System_Int32 or SpecialType.System_UInt32 or SpecialType.System_Single:
                return 4;
            case SpecialType.System_Int64 or SpecialType.System_UInt64 or SpecialType.System_Double or SpecialType.System_IntPtr or SpecialType.System_UIntPtr or SpecialType.System_DateTime:
                return 8;
            case SpecialType.System_Decimal:
                return 16;
        }
        var size = type.GetMembers().OfType<IFieldSymbol>().Where(f => !f.IsStatic && !f.IsConst).Sum(f => FieldBytes(f.Type, depth + 1));
        return Math.Max(1, size);
    }

    private static ITypeSymbol? TypeOf(ISymbol variable) => variable switch
    {
        ILocalSymbol l => l.Type,
        IParameterSymbol p => p.Type,
        _ => null,
    };
}
