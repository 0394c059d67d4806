using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.Diagnostics.CodeAnalysis;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Internal;

/// <summary>
/// The calls to a method that is not visible outside this compilation (private, internal, a local function), found
/// where they can be: the trees of its containing type for a private method, its own tree for a local function,
/// every tree for an internal one (where no assembly but tests sees this one's internals). The search is textual
/// first (the method's name in the source text), and only the matching identifiers are bound. Asked rarely (for a finding a rule is about to report), cached per method.
/// </summary>
internal sealed class CallSites
{
    // Binding an identifier in another file binds the member around it: past this many identifiers spelled like the
    // method (a common name such as Wait or Write), the search does not start and the answer is "not all calls are known".
    private const int MaxBoundNames = 32;

    private readonly Compilation _compilation;
    private readonly System.Lazy<bool> _internalsAreOwn;
    private readonly ConcurrentDictionary<IMethodSymbol, Found> _found = new(SymbolEqualityComparer.Default);
    private readonly ConcurrentDictionary<SyntaxTree, string> _texts = new();

    public CallSites(Compilation compilation)
    {
        _compilation = compilation;
        _internalsAreOwn = new System.Lazy<bool>(() => !FriendAssemblies.HasNonTestFriends(compilation.Assembly));
    }

    /// <summary>
    /// The calls found, the calls that take the method as a delegate argument (<c>task.ContinueWith(Deliver, …)</c>),
    /// and whether those are all the uses of the method (no other method group, delegate or function pointer).
    /// </summary>
    public sealed class Found
    {
        public static readonly Found Unknown = new(
            ImmutableArray<(IInvocationOperation Invocation, ISymbol Container)>.Empty, ImmutableArray<IInvocationOperation>.Empty, threadStarts: 0, isComplete: false);

        public Found(ImmutableArray<(IInvocationOperation Invocation, ISymbol Container)> calls, ImmutableArray<IInvocationOperation> handedTo, int threadStarts, bool isComplete)
        {
            Calls = calls;
            HandedTo = handedTo;
            ThreadStarts = threadStarts;
            IsComplete = isComplete;
        }

        /// <summary>Each call, with the member whose body holds it.</summary>
        public ImmutableArray<(IInvocationOperation Invocation, ISymbol Container)> Calls { get; }

        /// <summary>Each call that is handed the method itself as a delegate argument, or wrapped in an object it is handed.</summary>
        public ImmutableArray<IInvocationOperation> HandedTo { get; }

        /// <summary>How many threads are created with the method as their start (<c>new Thread(Run)</c>).</summary>
        public int ThreadStarts { get; }

        /// <summary>Every use of the method is one of <see cref="Calls"/>, <see cref="HandedTo"/> or <see cref="ThreadStarts"/>.</summary>
        public bool IsComplete { get; }
    }

    /// <summary>Whether code outside this compilation may use the member or type (public or protected, and so are its containing types).</summary>
    public static bool IsVisibleOutside(ISymbol symbol)
    {
        if (symbol is IMethodSymbol { MethodKind: MethodKind.LocalFunction })
        {
            return false;
        }
        for (ISymbol? current = symbol; current is not null and not INamespaceSymbol; current = current.ContainingSymbol)
        {
            if (current.DeclaredAccessibility is Accessibility.Private or Accessibility.Internal or Accessibility.ProtectedAndInternal)
            {
                return false;
            }
        }
        return true;
    }

    /// <summary>
    /// The calls to a private method or a local function, all in the trees of its type, or to an internal method where
    /// only this compilation and its tests see internals; any other method's calls are <see cref="Found.Unknown"/>.
    /// </summary>
    public Found Of(IMethodSymbol method)
    {
        method = Normalize(method);
        return method.MethodKind == MethodKind.LocalFunction
            || method.MethodKind == MethodKind.Ordinary && (method.DeclaredAccessibility == Accessibility.Private || IsOwnInternal(method))
            ? _found.GetOrAdd(method, m => Search(m))
            : Found.Unknown;
    }

    /// <summary>
    /// The calls to a method of any accessibility that this compilation makes (for a public member: its own calls, not
    /// those of the assemblies that reference it). <see cref="Found.IsComplete"/> then says every use here is read.
    /// </summary>
    public Found InThisCompilation(IMethodSymbol method) => _found.GetOrAdd(Normalize(method), m => Search(m));

    // An internal method (or a public one of an internal type) reached only by its own name: no other assembly but
    // tests calls it, and no virtual or interface call reaches it through another member's name.
    // The interface search last: it is the dearest, and asked for every internal method a rule looks up.
    private bool IsOwnInternal(IMethodSymbol method) =>
        _internalsAreOwn.Value && !IsVisibleOutside(method) && !method.IsVirtual && !method.IsOverride && !method.IsAbstract
        && method.ContainingType is { } type
        && !type.AllInterfaces.Any(i => i.GetMembers(method.Name).Any(m => SymbolEqualityComparer.Default.Equals(type.FindImplementationForInterfaceMember(m), method)));

    private static IMethodSymbol Normalize(IMethodSymbol method)
    {
        var definition = (method.ReducedFrom ?? method).OriginalDefinition;
        return definition.PartialDefinitionPart ?? definition;
    }

    private Found Search(IMethodSymbol method)
    {
        if (Names(method) is not { } names)
        {
            return Found.Unknown;
        }
        var calls = ImmutableArray.CreateBuilder<(IInvocationOperation Invocation, ISymbol Container)>();
        var handedTo = ImmutableArray.CreateBuilder<IInvocationOperation>();
        var threadStarts = 0;
        foreach (var name in names)
        {
            switch (Classify(name, method, out var call))
            {
                case Use.Call:
                    calls.Add(call);
                    break;
                case Use.HandedOn:
                    handedTo.Add(call.Invocation);
                    break;
                case Use.StartsThread:
                    threadStarts++;
                    break;
                case Use.Other:
                    return Found.Unknown; // one use we cannot read is enough: not every use is a known call
            }
        }
        return new Found(calls.ToImmutable(), handedTo.ToImmutable(), threadStarts, isComplete: true);
    }

    // The identifiers spelled like the method where it can be used (not yet bound: some name other symbols), or null
    // past MaxBoundNames: the search stops there and the callers give up.
    private List<SimpleNameSyntax>? Names(IMethodSymbol method)
    {
        var names = new List<SimpleNameSyntax>();
        foreach (var tree in TreesToSearch(method))
        {
            SyntaxNode? root = null;
            foreach (var position in Occurrences(tree, method.Name))
            {
                root ??= tree.GetRoot();
                var token = root.FindToken(position);
                if (token.SpanStart == position && token.IsKind(SyntaxKind.IdentifierToken) && token.ValueText == method.Name && token.Parent is SimpleNameSyntax name)
                {
                    names.Add(name);
                    if (names.Count > MaxBoundNames)
                    {
                        return null;
                    }
                }
            }
        }
        return names;
    }

    private enum Use
    {
        None,
        Call,
        /// <summary>A method group passed straight to a call as a delegate argument.</summary>
        HandedOn,
        /// <summary>A method group that is the start of a new dedicated thread (<c>new Thread(Run)</c>).</summary>
        StartsThread,
        Other,
    }

    [SuppressMessage("MicrosoftCodeAnalysisPerformance", "RS1030:Do not invoke Compilation.GetSemanticModel() method within a diagnostic analyzer", Justification = "Only identifiers spelled like the method are bound; the result is cached per method.")]
    private Use Classify(SimpleNameSyntax name, IMethodSymbol method, out (IInvocationOperation Invocation, ISymbol Container) call)
    {
        call = default;
        if (IsInNameOf(name))
        {
            // `nameof(Run)` binds to the method group as candidates only: it is no use of the method.
            return Use.None;
        }
        var model = _compilation.GetSemanticModel(name.SyntaxTree);
        var info = model.GetSymbolInfo(name);
        if (info.Symbol is not IMethodSymbol referenced)
        {
            // An overload resolution that failed may still mean this method: count it as a use we cannot read.
            foreach (var candidate in info.CandidateSymbols)
            {
                if (candidate is IMethodSymbol candidateMethod && SymbolEqualityComparer.Default.Equals(Normalize(candidateMethod), method))
                {
                    return Use.Other;
                }
            }
            return Use.None;
        }
        if (!SymbolEqualityComparer.Default.Equals(Normalize(referenced), method))
        {
            return Use.None;
        }
        SyntaxNode callee = name.Parent switch
        {
            MemberAccessExpressionSyntax access when access.Name == name => access,
            MemberBindingExpressionSyntax binding when binding.Name == name => binding,
            _ => name,
        };
        if (callee.Parent is InvocationExpressionSyntax invocation && invocation.Expression == callee
            && model.GetOperation(invocation) is IInvocationOperation operation
            && model.GetEnclosingSymbol(invocation.SpanStart) is { } container)
        {
            call = (operation, container);
            return Use.Call;
        }
        if (model.GetOperation(callee) is IMethodReferenceOperation reference)
        {
            if (reference is { Parent: IDelegateCreationOperation { Parent: IArgumentOperation { Parent: var receiver } } })
            {
                if (IsThreadCreation(receiver))
                {
                    return Use.StartsThread;
                }
                if (receiver is IInvocationOperation invoked)
                {
                    call = (invoked, model.GetEnclosingSymbol(callee.SpanStart) ?? method);
                    return Use.HandedOn;
                }
            }
            if (WrappedCallbackReceiver(reference) is { } wrappedReceiver)
            {
                call = (wrappedReceiver, model.GetEnclosingSymbol(callee.SpanStart) ?? method);
                return Use.HandedOn;
            }
        }
        return Use.Other;
    }

    // `Continue(task, new Continuation(this, &OnDone))`: a delegate or function pointer wrapped in the one argument
    // object a call is handed; that call is where the method goes, as with a delegate handed directly.
    private static IInvocationOperation? WrappedCallbackReceiver(IMethodReferenceOperation reference)
    {
        IOperation current = reference;
        while (current.Parent is IDelegateCreationOperation or IConversionOperation or IAddressOfOperation)
        {
            current = current.Parent;
        }
        if (current.Parent is not IArgumentOperation { Parent: IObjectCreationOperation wrapper })
        {
            return null;
        }
        current = wrapper;
        while (current.Parent is IConversionOperation)
        {
            current = current.Parent;
        }
        return current.Parent is IArgumentOperation { Parent: IInvocationOperation receiver } ? receiver : null;
    }

    /// <summary>
    /// Whether the operation is <c>new System.Threading.Thread(start, …)</c>, or <c>TaskFactory.StartNew(start, …,
    /// TaskCreationOptions.LongRunning, …)</c>, which gives the delegate a thread of its own: it runs at the bottom of a
    /// dedicated thread's stack, the thread's own edge.
    /// </summary>
    public static bool IsThreadCreation(IOperation? operation) => operation switch
    {
        IObjectCreationOperation
        {
            Type: { Name: "Thread", ContainingNamespace: { Name: "Threading", ContainingNamespace: { Name: "System", ContainingNamespace.IsGlobalNamespace: true } } },
        } => true,
        IInvocationOperation { TargetMethod: { Name: "StartNew", ContainingType.Name: "TaskFactory" } } startNew => startNew.Arguments.Any(argument =>
            argument.Parameter?.Type is { Name: "TaskCreationOptions" } && IsLongRunningConstant(argument.Value)),
        _ => false,
    };

    /// <summary>True for a constant TaskCreationOptions value with the LongRunning bit: a value computed at run time is not
    /// evidence.</summary>
    public static bool IsLongRunningConstant(IOperation value) => value.ConstantValue is { HasValue: true, Value: int options } && (options & LongRunning) != 0;

    // TaskCreationOptions.LongRunning.
    private const int LongRunning = 2;

    private static bool IsInNameOf(SyntaxNode node)
    {
        for (var current = node.Parent; current is not null and not StatementSyntax and not MemberDeclarationSyntax; current = current.Parent)
        {
            if (current is InvocationExpressionSyntax { Expression: IdentifierNameSyntax { Identifier.ValueText: "nameof" } })
            {
                return true;
            }
        }
        return false;
    }

    private IEnumerable<SyntaxTree> TreesToSearch(IMethodSymbol method)
    {
        ISymbol? scope = method.MethodKind == MethodKind.LocalFunction ? method.ContainingSymbol
            : method.DeclaredAccessibility == Accessibility.Private ? method.ContainingType
            : null;
        if (scope is null)
        {
            return _compilation.SyntaxTrees;
        }
        var trees = new HashSet<SyntaxTree>();
        foreach (var reference in scope.DeclaringSyntaxReferences)
        {
            if (_compilation.ContainsSyntaxTree(reference.SyntaxTree))
            {
                trees.Add(reference.SyntaxTree);
            }
        }
        return trees;
    }

    // Where the name starts in the tree's text. The text is read as one string, once per tree and compilation (for most
    // files that is the string the text already holds; a large file's chunks are joined once), so that each search is
    // one vectorized scan of it, not a copy of the file per method asked about.
    private List<int> Occurrences(SyntaxTree tree, string name)
    {
        var text = _texts.GetOrAdd(tree, t => t.GetText().ToString());
        var found = new List<int>();
        for (var at = text.IndexOf(name, System.StringComparison.Ordinal); at >= 0; at = text.IndexOf(name, at + 1, System.StringComparison.Ordinal))
        {
            // A whole word only: `Read` inside `ReadAsync` or `Reader` is not worth finding the token (it builds the
            // syntax nodes down to it); a word in a comment or a string still is, and is dropped there.
            if ((at == 0 || !SyntaxFacts.IsIdentifierPartCharacter(text[at - 1]))
                && (at + name.Length == text.Length || !SyntaxFacts.IsIdentifierPartCharacter(text[at + name.Length])))
            {
                found.Add(at);
            }
        }
        return found;
    }
}
