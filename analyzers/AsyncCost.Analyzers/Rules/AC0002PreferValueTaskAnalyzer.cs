using System;
using System.Collections.Concurrent;
using System.Collections.Immutable;
using System.Linq;
using AsyncCost.Analyzers.Internal;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Rules;

/// <summary>
/// AC0002: a non-public async Task&lt;T&gt; method that can complete without suspending, with a result the runtime
/// does not cache on a path that allocates nothing else, whose every use in the compilation is a single direct await. Then ValueTask&lt;T&gt; is a safe swap
/// that saves the Task allocation on the synchronous path. Facts about the callers are gathered in one pass over the
/// compilation (each invocation and method reference seen once) and joined at compilation end.
/// </summary>
[DiagnosticAnalyzer(LanguageNames.CSharp)]
public sealed class AC0002PreferValueTaskAnalyzer : DiagnosticAnalyzer
{
    /// <summary>The .editorconfig option <c>asynccost.AC0002.include_public = true</c> extends the rule to public API.</summary>
    public const string IncludePublicOption = "include_public";

    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics { get; } = ImmutableArray.Create(Descriptors.PreferValueTask);

    public override void Initialize(AnalysisContext context)
    {
        context.EnableConcurrentExecution();
        context.ConfigureGeneratedCodeAnalysis(GeneratedCodeAnalysisFlags.None);
        context.RegisterCompilationStartAction(start =>
        {
            if (ProjectKind.IsTestProject(start.Compilation, start.Options))
            {
                return; // silent in tests: a test double's Task<T> allocation is not a cost anyone pays
            }
            var types = WellKnownAsyncTypes.Create(start.Compilation);
            if (types.TaskOfT is null || types.ValueTaskOfT is null)
            {
                return;
            }
            // With InternalsVisibleTo, internal methods have callers this compilation cannot see (friends other than tests).
            var hasFriendAssemblies = FriendAssemblies.HasNonTestFriends(start.Compilation.Assembly);
            var analysis = new Analysis(types, hasFriendAssemblies, start.Compilation.Assembly);
            start.RegisterOperationBlockAction(analysis.AnalyzeMethod);
            start.RegisterOperationAction(analysis.AnalyzeInvocation, OperationKind.Invocation);
            start.RegisterOperationAction(analysis.AnalyzeMethodReference, OperationKind.MethodReference);
            start.RegisterCompilationEndAction(analysis.ReportCandidates);
        });
    }

    private sealed class Analysis(WellKnownAsyncTypes types, bool hasFriendAssemblies, IAssemblySymbol assembly)
    {
        private readonly ConcurrentDictionary<IMethodSymbol, Diagnostic> _candidates = new(SymbolEqualityComparer.Default);
        private readonly ConcurrentDictionary<IMethodSymbol, bool> _disqualified = new(SymbolEqualityComparer.Default);

        public void AnalyzeMethod(OperationBlockAnalysisContext context)
        {
            if (context.OwningSymbol is not IMethodSymbol method
                || !IsShapeCandidate(method, context)
                || method.DeclaringSyntaxReferences.FirstOrDefault()?.GetSyntax(context.CancellationToken) is not MethodDeclarationSyntax declaration
                || context.OperationBlocks.FirstOrDefault(b => b is IMethodBodyOperation or IBlockOperation) is not { } body)
            {
                return;
            }
            var resultType = ((INamedTypeSymbol)method.ReturnType).TypeArguments[0];
            var completion = SynchronousCompletion.Analyze(body, tracksAllocations: true);
            var afterAllocating = completion.ReturnedAfterAllocating;
            if (!completion.Exists || completion.ReturnedValues.All(v => TaskResultCache.IsCached(v, resultType) || afterAllocating.Contains(v)))
            {
                // Always suspends, or no synchronous return has a Task to save: its result is a cached task, or its
                // path allocates anyway (return new Response(…), a message built before the return), so the Task is
                // not that path's cost.
                return;
            }
            _candidates[method] = DiagnosticFactory.Create(
                Descriptors.PreferValueTask,
                declaration.ReturnType.GetLocation(),
                method,
                method.Name,
                resultType.ToDisplayString(SymbolDisplayFormat.MinimallyQualifiedFormat));
        }

        // Every use must be `await M(...)` or `await M(...).ConfigureAwait(...)`; anything else (storing the task,
        // WhenAll, .Result, returning it, a second await of a stored task) keeps Task<T>.
        public void AnalyzeInvocation(OperationAnalysisContext context)
        {
            var invocation = (IInvocationOperation)context.Operation;
            var target = invocation.TargetMethod.OriginalDefinition;
            if (types.IsGenericTask(target.ReturnType) && !IsAwaitedOnce(invocation))
            {
                Disqualify(target);
            }
        }

        public void AnalyzeMethodReference(OperationAnalysisContext context) =>
            Disqualify(((IMethodReferenceOperation)context.Operation).Method.OriginalDefinition);

        // Only this compilation's methods can be candidates; a library's Task<T> methods are used this way at every
        // turn (Task.FromResult, a stored ReadAsync), and each write to the shared table takes its lock.
        private void Disqualify(IMethodSymbol method)
        {
            if (SymbolEqualityComparer.Default.Equals(method.ContainingAssembly, assembly))
            {
                _disqualified.TryAdd(method, true);
            }
        }

        public void ReportCandidates(CompilationAnalysisContext context)
        {
            foreach (var candidate in _candidates)
            {
                if (!_disqualified.ContainsKey(candidate.Key))
                {
                    context.ReportDiagnostic(candidate.Value);
                }
            }
        }

        private bool IsShapeCandidate(IMethodSymbol method, OperationBlockAnalysisContext context) =>
            method is { MethodKind: MethodKind.Ordinary, IsAsync: true, IsOverride: false, IsVirtual: false, IsAbstract: false, PartialDefinitionPart: null, PartialImplementationPart: null }
            && method.ExplicitInterfaceImplementations.IsEmpty
            && types.IsGenericTask(method.ReturnType)
            && !TaskResultCache.IsAlwaysCached(((INamedTypeSymbol)method.ReturnType).TypeArguments[0])
            && (!IsExternallyVisible(method) || IncludesPublic(context))
            && !ImplementsInterfaceMember(method);

        private static bool IncludesPublic(OperationBlockAnalysisContext context) =>
            string.Equals(
                RuleOptions.Get(context.Options, context.OperationBlocks[0].Syntax.SyntaxTree, RuleIds.PreferValueTask, IncludePublicOption),
                "true",
                StringComparison.OrdinalIgnoreCase);

        // Callable from outside this compilation: public API, or internal API of an assembly with friends.
        private bool IsExternallyVisible(ISymbol symbol)
        {
            for (var current = symbol; current is not null and not INamespaceSymbol; current = current.ContainingSymbol)
            {
                var visible = current.DeclaredAccessibility switch
                {
                    Accessibility.Public or Accessibility.Protected or Accessibility.ProtectedOrInternal => true,
                    Accessibility.Internal or Accessibility.ProtectedAndInternal => hasFriendAssemblies,
                    _ => false,
                };
                if (!visible)
                {
                    return false;
                }
            }
            return true;
        }

        private static bool ImplementsInterfaceMember(IMethodSymbol method)
        {
            foreach (var implemented in method.ContainingType.AllInterfaces)
            {
                foreach (var member in implemented.GetMembers(method.Name))
                {
                    if (SymbolEqualityComparer.Default.Equals(method.ContainingType.FindImplementationForInterfaceMember(member), method))
                    {
                        return true;
                    }
                }
            }
            return false;
        }

        private static bool IsAwaitedOnce(IInvocationOperation invocation)
        {
            var parent = invocation.Parent;
            if (parent is IInvocationOperation { TargetMethod.Name: ConfigureAwaitCalls.MethodName } configure && configure.Instance == invocation)
            {
                parent = configure.Parent;
            }
            return parent is IAwaitOperation;
        }
    }
}
