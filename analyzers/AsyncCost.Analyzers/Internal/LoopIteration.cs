using System.Collections.Generic;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Internal;

/// <summary>
/// One iteration of a loop, as AC0001 sees it: what varies from one iteration to the next (the element, the locals of
/// the body, whatever the loop writes), which objects are the iteration's own (the element, an object it creates), and
/// the awaits it runs. Concurrent iterations can only be independent where each works on its own data: these facts are
/// what the evidence of <see cref="IndependentCalls"/> and the signs of <see cref="AwaitedValueOrder"/> are made of.
/// Built per loop, and only for a loop that awaits.
/// </summary>
internal sealed class LoopIteration(ILoopOperation loop, WellKnownAsyncTypes types)
{
    private HashSet<ISymbol>? _bodyLocals;
    private HashSet<ISymbol>? _varying;

    public ILoopOperation Loop => loop;

    /// <summary>Every operation the loop runs in this method: control parts and body, without lambdas and local functions.</summary>
    public List<IOperation> Operations { get; } = OperationTree.SameMethod(loop).ToList();

    /// <summary>Locals declared in the body are fresh per iteration; anything else the loop writes is carried between iterations.</summary>
    public HashSet<ISymbol> BodyLocals => _bodyLocals ??= new(
        Operations.OfType<IVariableDeclaratorOperation>().Where(d => IsInBody(d)).Select(d => (ISymbol)d.Symbol),
        SymbolEqualityComparer.Default);

    /// <summary>The iteration variable, anything declared per iteration, and anything the loop writes (counters, cursors).</summary>
    public HashSet<ISymbol> Varying
    {
        get
        {
            if (_varying is null)
            {
                _varying = WrittenSymbols();
                _varying.UnionWith(BodyLocals);
                _varying.UnionWith(loop.Locals);
            }
            return _varying;
        }
    }

    private bool IsInBody(IOperation operation)
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

    /// <summary>
    /// Awaits the body runs once per iteration: not in lambdas, and not in a nested loop's body (that loop owns them);
    /// a nested loop's collection or condition does run once per iteration of this one.
    /// </summary>
    public IEnumerable<IAwaitOperation> BodyAwaits() =>
        OperationTree.SameMethod(loop.Body, skip: op => op.Parent is ILoopOperation nested && nested != loop && op == nested.Body)
            .OfType<IAwaitOperation>();

    /// <summary>The work an await waits for, looked through <c>ConfigureAwait</c>.</summary>
    public IOperation Awaited(IAwaitOperation awaitOperation) => ConfigureAwaitCalls.Unwrap(awaitOperation.Operation, types);

    /// <summary>
    /// foreach and counted for loops have a known number of iterations; a while/do loop needs a condition that the
    /// loop itself advances (a counter, a TryDequeue(out var item)), otherwise it is a work loop (while (true),
    /// while (!token.IsCancellationRequested)) that Task.WhenAll cannot replace.
    /// </summary>
    public bool HasBoundedIterations()
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
        foreach (var operation in Operations)
        {
            if (WriteTarget(operation) is { } target && OperationTree.ReferencedSymbol(target) is { } symbol)
            {
                written.Add(symbol);
            }
        }
        return written;
    }

    /// <summary>What an assignment, increment, or ref or out argument writes; null for any other operation.</summary>
    public static IOperation? WriteTarget(IOperation operation) => operation switch
    {
        IAssignmentOperation assignment => assignment.Target,
        IIncrementOrDecrementOperation increment => increment.Target,
        IArgumentOperation { Parameter.RefKind: RefKind.Out or RefKind.Ref } argument => argument.Value,
        _ => null,
    };

    /// <summary>The operation reads data that varies per iteration (outside lambdas).</summary>
    public bool UsesIterationData(IOperation operation) => OperationTree.ReferencedSymbols(operation).Any(Varying.Contains);

    /// <summary>The iteration's data reaches the call: an argument, the receiver, or a lambda the call runs (Task.Run(() => Work(i))).</summary>
    public bool ReachesCall(IInvocationOperation call)
    {
        foreach (var operation in call.DescendantsAndSelf())
        {
            if (OperationTree.ReferencedSymbol(operation) is { } symbol && Varying.Contains(symbol))
            {
                return true;
            }
        }
        return false;
    }

    /// <summary>
    /// The object belongs to this iteration: the element (or a member of it), an element picked by the iteration's
    /// index, or an object the iteration creates or derives from its data.
    /// </summary>
    public bool Owns(IOperation receiver)
    {
        for (var current = ConfigureAwaitCalls.SkipConversions(receiver); ;)
        {
            switch (current)
            {
                case ILocalReferenceOperation local when loop.Locals.Contains(local.Local, SymbolEqualityComparer.Default):
                    return loop is IForEachLoopOperation forEach && !EnumeratesOrderedResource(forEach);
                case ILocalReferenceOperation local when BodyLocals.Contains(local.Local):
                    return IsCreatedPerIteration(local.Local);
                case IArrayElementReferenceOperation element:
                    return element.Indices.Any(UsesIterationData);
                case IPropertyReferenceOperation { Property.IsIndexer: true } indexer:
                    return indexer.Arguments.Any(a => UsesIterationData(a.Value));
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

    // A local declared in the body whose value is new (new StreamWriter(path)), what a request of this iteration
    // returned (var response = await http.GetAsync(url)), or comes from the iteration's data (var item = items[i]),
    // not a copy of a shared object (var w = _writer).
    private bool IsCreatedPerIteration(ILocalSymbol local)
    {
        foreach (var operation in Operations)
        {
            if (operation is IVariableDeclaratorOperation { Initializer.Value: { } value } declarator
                && SymbolEqualityComparer.Default.Equals(declarator.Symbol, local))
            {
                value = ConfigureAwaitCalls.SkipConversions(value);
                return value is IObjectCreationOperation
                    || (value is IAwaitOperation request && IsResponseOfOwnRequest(request))
                    || (value is not IAwaitOperation && UsesIterationData(value) && IsOwnValue(value));
            }
        }
        return false;
    }

    // What the framework's HTTP client hands back for a request (a response and its content, a stream, a string) is
    // made for that request, as an object the iteration creates is. Only the framework's client: a type a team lists
    // as safe for concurrent calls may still hand every caller one shared object (a cache's entry).
    private bool IsResponseOfOwnRequest(IAwaitOperation request) =>
        Awaited(request) is IInvocationOperation call
        && OperationTree.ReceiverOf(call) is { } client
        && ConcurrencySafeTypes.IsFrameworkHttpClient(ConfigureAwaitCalls.SkipConversions(client).Type);

    // A value that is (a member of) the iteration's element rather than something a shared object hands out.
    private bool IsOwnValue(IOperation value) =>
        value is IInvocationOperation call ? (call.Instance is null || Owns(call.Instance)) : Owns(value);

    /// <summary>The loop's element itself (or a member of it), as opposed to an object the iteration creates.</summary>
    public bool IsElement(IOperation operation)
    {
        foreach (var part in OperationTree.SameMethod(operation))
        {
            var isElement = part switch
            {
                ILocalReferenceOperation local => loop.Locals.Contains(local.Local, SymbolEqualityComparer.Default),
                IArrayElementReferenceOperation element => element.Indices.Any(UsesIterationData),
                IPropertyReferenceOperation { Property.IsIndexer: true } indexer => indexer.Arguments.Any(a => UsesIterationData(a.Value)),
                _ => false,
            };
            if (isElement)
            {
                return true;
            }
        }
        return false;
    }

    // The elements are views of one ordered resource of a known type (a ZipArchive's entries, a DbDataReader's
    // records): each element's streams read or write that one resource, so the iterations share it.
    private static bool EnumeratesOrderedResource(IForEachLoopOperation forEach)
    {
        var collection = ConfigureAwaitCalls.SkipConversions(forEach.Collection);
        return OrderedResources.IsKnown(collection.Type)
            || collection is IMemberReferenceOperation { Instance: { } owner } && OrderedResources.IsKnown(owner.Type);
    }
}
