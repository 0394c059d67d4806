using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using AsyncCost.Analyzers.Internal;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;
using Microsoft.CodeAnalysis.Text;

namespace AsyncCost.Analyzers.Rules;

/// <summary>
/// AC0004: an await in library code that resumes on the caller's context. Covers the three places C# awaits:
/// <c>await</c> of a Task/ValueTask, <c>await foreach</c> over an IAsyncEnumerable, and the DisposeAsync of
/// <c>await using</c> (which CA2007 misses, roslyn-analyzers#4888). Anything already configured
/// (ConfigureAwait(true), ConfigureAwaitOptions) and awaitables without ConfigureAwait (Task.Yield) are left alone, and
/// so are the awaits that capture no context: of a task complete where it is made (it never suspends) and in the body of a
/// lambda handed to Task.Run, a System.Threading.Timer or ThreadPool.QueueUserWorkItem (a thread-pool thread has none),
/// and ASP.NET Core request code (it has no context, whatever the project's packaging: <see cref="AspNetCoreRequestCode"/>).
/// "Library" means one that publishes a package (<see cref="ProjectKind.PublishesPackage"/>): an application's own
/// libraries run only under its hosts.
/// </summary>
[DiagnosticAnalyzer(Microsoft.CodeAnalysis.LanguageNames.CSharp)]
public sealed class AC0004MissingConfigureAwaitAnalyzer : DiagnosticAnalyzer
{
    /// <summary>The .editorconfig option: <c>asynccost.AC0004.mode = library | always | never</c>.</summary>
    public const string ModeOption = "mode";

    public override ImmutableArray<DiagnosticDescriptor> SupportedDiagnostics { get; } = ImmutableArray.Create(Descriptors.MissingConfigureAwait);

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
            var analysis = new Analysis(start.Compilation, start.Options, types);
            start.RegisterOperationAction(analysis.AnalyzeAwait, OperationKind.Await);
            start.RegisterOperationAction(analysis.AnalyzeForEach, OperationKind.Loop);
            start.RegisterOperationAction(analysis.AnalyzeUsing, OperationKind.Using);
            start.RegisterOperationAction(analysis.AnalyzeUsingDeclaration, OperationKind.UsingDeclaration);
        });
    }

    private enum Mode
    {
        Library,
        Always,
        Never,
    }

    private sealed class Analysis(Compilation compilation, AnalyzerOptions options, WellKnownAsyncTypes types)
    {
        private readonly ConcurrentDictionary<SyntaxTree, Mode> _modes = new();
        private readonly bool _isLibrary = ProjectKind.IsLibrary(compilation, options) && ProjectKind.PublishesPackage(options);
        private readonly MethodBodies _bodies = new(compilation);
        private readonly UiTypes _uiTypes = UiTypes.Create(compilation);
        private readonly AspNetCoreRequestCode _requestCode = AspNetCoreRequestCode.Create(compilation);
        private readonly PeerSuppressions _peers = new(PeerSuppressions.ConfigureAwaitPeers);
        private readonly INamedTypeSymbol? _asyncDisposable = compilation.GetTypeByMetadataName("System.IAsyncDisposable");
        private readonly INamedTypeSymbol? _configuredAsyncDisposable = compilation.GetTypeByMetadataName("System.Runtime.CompilerServices.ConfiguredAsyncDisposable");
        private readonly INamedTypeSymbol? _configuredAsyncEnumerable = compilation.GetTypeByMetadataName("System.Runtime.CompilerServices.ConfiguredCancelableAsyncEnumerable`1");
        private readonly INamedTypeSymbol? _timer = compilation.GetTypeByMetadataName("System.Threading.Timer");
        private readonly INamedTypeSymbol? _threadPool = compilation.GetTypeByMetadataName("System.Threading.ThreadPool");

        public void AnalyzeAwait(OperationAnalysisContext context)
        {
            var awaited = ((IAwaitOperation)context.Operation).Operation;
            if (types.IsTaskLike(awaited.Type) && !CompletedTasks.IsAlreadyComplete(awaited, types, _bodies) && Applies(context))
            {
                Report(context, awaited.Syntax.GetLocation());
            }
        }

        public void AnalyzeForEach(OperationAnalysisContext context)
        {
            if (context.Operation is IForEachLoopOperation { IsAsynchronous: true } loop
                && loop.Syntax is ForEachStatementSyntax syntax
                && !IsConfiguredEnumerable(ConfigureAwaitCalls.SkipConversions(loop.Collection))
                && Applies(context))
            {
                Report(context, syntax.Expression.GetLocation());
            }
        }

        public void AnalyzeUsing(OperationAnalysisContext context)
        {
            var usingOperation = (IUsingOperation)context.Operation;
            if (usingOperation.IsAsynchronous
                && usingOperation.Syntax is UsingStatementSyntax syntax
                && NeedsConfiguredDisposal(usingOperation.Resources)
                && Applies(context))
            {
                Report(context, Location.Create(syntax.SyntaxTree, TextSpan.FromBounds(syntax.AwaitKeyword.SpanStart, syntax.UsingKeyword.Span.End)));
            }
        }

        public void AnalyzeUsingDeclaration(OperationAnalysisContext context)
        {
            var declaration = (IUsingDeclarationOperation)context.Operation;
            if (declaration.IsAsynchronous
                && declaration.Syntax.FirstAncestorOrSelf<LocalDeclarationStatementSyntax>() is { } syntax
                && NeedsConfiguredDisposal(declaration.DeclarationGroup)
                && Applies(context))
            {
                Report(context, Location.Create(syntax.SyntaxTree, TextSpan.FromBounds(syntax.AwaitKeyword.SpanStart, syntax.UsingKeyword.Span.End)));
            }
        }

        private bool Applies(OperationAnalysisContext context)
        {
            var tree = context.Operation.Syntax.SyntaxTree;
            if (!_modes.TryGetValue(tree, out var mode))
            {
                mode = _modes.GetOrAdd(tree, ReadMode(tree, context.Options));
            }
            return mode switch
            {
                Mode.Never => false,
                Mode.Always => true,
                _ => _isLibrary
                    && !_uiTypes.IsUiType(context.ContainingSymbol.ContainingType)
                    && !_requestCode.Contains(context.Operation, context.ContainingSymbol),
            } && !InThreadPoolCallbackBody(context.Operation);
        }

        // `Task.Run(async () => { await X(); })`, `new Timer(async _ => await X(), …)`,
        // `ThreadPool.QueueUserWorkItem(async _ => await X())`: the lambda starts on a thread-pool thread, which has no
        // context to capture, and every await in it resumes there. Only its own body: a lambda nested in it may run
        // anywhere. A method group handed over instead is not skipped: the method may be called elsewhere too.
        private bool InThreadPoolCallbackBody(IOperation operation)
        {
            for (var current = operation.Parent; current is not null; current = current.Parent)
            {
                switch (current)
                {
                    case ILocalFunctionOperation:
                        return false;
                    case IAnonymousFunctionOperation lambda:
                        return lambda.Parent is IDelegateCreationOperation { Parent: IArgumentOperation { Parent: var callee } }
                            && StartsOnThreadPool(callee);
                }
            }
            return false;
        }

        private bool StartsOnThreadPool(IOperation? callee) => callee switch
        {
            IInvocationOperation { TargetMethod: { Name: "Run", IsStatic: true } run } => SymbolEqualityComparer.Default.Equals(run.ContainingType, types.Task),
            IInvocationOperation { TargetMethod: { Name: "QueueUserWorkItem" or "UnsafeQueueUserWorkItem", IsStatic: true } queue } =>
                SymbolEqualityComparer.Default.Equals(queue.ContainingType, _threadPool),
            IObjectCreationOperation { Constructor: { } constructor } => SymbolEqualityComparer.Default.Equals(constructor.ContainingType, _timer),
            _ => false,
        };

        // The mode is per file (.editorconfig sections), read once per tree rather than once per await.
        private static Mode ReadMode(SyntaxTree tree, AnalyzerOptions options) =>
            RuleOptions.Get(options, tree, RuleIds.MissingConfigureAwait, ModeOption) switch
            {
                { } mode when mode.Equals("never", StringComparison.OrdinalIgnoreCase) => Mode.Never,
                { } mode when mode.Equals("always", StringComparison.OrdinalIgnoreCase) => Mode.Always,
                _ => Mode.Library,
            };

        // An await foreach is configured when a ConfigureAwait call appears anywhere in the chain that builds its
        // collection: x.ConfigureAwait(false).WithCancellation(ct) and x.WithCancellation(ct).ConfigureAwait(false) alike,
        // also when that chain was stored in a local first (var e = x.WithCancellation(ct).ConfigureAwait(false)).
        private bool IsConfiguredEnumerable(IOperation collection)
        {
            if (!IsAsyncEnumerable(collection.Type) && !IsConfiguredEnumerableType(collection.Type))
            {
                return true; // a custom async enumerable without ConfigureAwait: nothing to add
            }
            if (IsConfiguredEnumerableType(collection.Type) && collection is not IInvocationOperation)
            {
                // Configured where it was built: every value the local is given must be. A parameter, field or property,
                // or a local also written by ref or out, was built elsewhere, out of sight: leave it to the code that built it.
                return collection is not ILocalReferenceOperation local || OperationTree.ValuesGivenTo(local) is not { } values
                    || values.Select(ConfigureAwaitCalls.SkipConversions).All(IsConfiguredChain);
            }
            return IsConfiguredChain(collection);
        }

        private static bool IsConfiguredChain(IOperation collection)
        {
            for (var current = collection; current is IInvocationOperation invocation;)
            {
                if (invocation.TargetMethod.Name == ConfigureAwaitCalls.MethodName)
                {
                    return true;
                }
                var receiver = OperationTree.ReceiverOf(invocation);
                if (receiver is null)
                {
                    break;
                }
                current = ConfigureAwaitCalls.SkipConversions(receiver);
            }
            return false;
        }

        private bool IsConfiguredEnumerableType(ITypeSymbol? type) =>
            type is not null && SymbolEqualityComparer.Default.Equals(type.OriginalDefinition, _configuredAsyncEnumerable);

        private bool IsAsyncEnumerable(ITypeSymbol? type)
        {
            if (type is null || types.AsyncEnumerableOfT is null)
            {
                return false;
            }
            if (SymbolEqualityComparer.Default.Equals(type.OriginalDefinition, types.AsyncEnumerableOfT))
            {
                return true;
            }
            foreach (var implemented in type.AllInterfaces)
            {
                if (SymbolEqualityComparer.Default.Equals(implemented.OriginalDefinition, types.AsyncEnumerableOfT))
                {
                    return true;
                }
            }
            return false;
        }

        private bool NeedsConfiguredDisposal(IOperation resources)
        {
            if (resources is IVariableDeclarationGroupOperation group)
            {
                foreach (var declaration in group.Declarations)
                {
                    foreach (var declarator in declaration.Declarators)
                    {
                        if (IsUnconfiguredAsyncDisposable(declarator.Symbol.Type))
                        {
                            return true;
                        }
                    }
                }
                return false;
            }
            return IsUnconfiguredAsyncDisposable(ConfigureAwaitCalls.SkipConversions(resources).Type);
        }

        private bool IsUnconfiguredAsyncDisposable(ITypeSymbol? type)
        {
            if (type is null || _asyncDisposable is null || SymbolEqualityComparer.Default.Equals(type, _configuredAsyncDisposable))
            {
                return false;
            }
            if (SymbolEqualityComparer.Default.Equals(type, _asyncDisposable))
            {
                return true;
            }
            foreach (var implemented in type.AllInterfaces)
            {
                if (SymbolEqualityComparer.Default.Equals(implemented, _asyncDisposable))
                {
                    return true;
                }
            }
            return false;
        }

        // A line or member where the team suppressed CA2007, MA0004 or VSTHRD111 is one it decided to leave unconfigured.
        private void Report(OperationAnalysisContext context, Location location)
        {
            if (_peers.AreSuppressed(location, context.ContainingSymbol))
            {
                return;
            }
            context.ReportDiagnostic(DiagnosticFactory.Create(Descriptors.MissingConfigureAwait, location, context.Operation, context.ContainingSymbol));
        }
    }
}
