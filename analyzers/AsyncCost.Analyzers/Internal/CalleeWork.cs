using System.Collections.Concurrent;
using System.Collections.Immutable;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Internal;

/// <summary>
/// What a method of this compilation does with the work an element's call starts, seen from its body: the shared
/// static objects it hands the work to (<c>item.SaveAsync() => Library.SaveAsync(this)</c>: the iterations meet there),
/// and whether it only waits for work started before it was called (nothing new to overlap). Both are questions about
/// the callee, not the loop: one walk per method per compilation, shared by every loop that calls it.
/// </summary>
internal sealed class CalleeWork(MethodBodies bodies, WellKnownAsyncTypes types)
{
    private readonly ConcurrentDictionary<IMethodSymbol, ImmutableArray<ITypeSymbol?>> _services = new(SymbolEqualityComparer.Default);
    private readonly ConcurrentDictionary<IMethodSymbol, bool> _waitsOnly = new(SymbolEqualityComparer.Default);

    /// <summary>The types of the static fields and properties through which the method's body calls task-returning methods.</summary>
    public ImmutableArray<ITypeSymbol?> StaticServicesOf(IMethodSymbol method) => _services.GetOrAdd(method, FindStaticServices);

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
        IInvocationOperation { TargetMethod.IsStatic: true } call when IndependentCalls.IsBatch(call.TargetMethod, types) =>
            call.Arguments.All(a => ConfigureAwaitCalls.SkipConversions(a.Value) is IArrayCreationOperation { Initializer: { } tasks }
                ? tasks.ElementValues.All(t => IsStartedTask(ConfigureAwaitCalls.SkipConversions(t)))
                : IsStartedTask(ConfigureAwaitCalls.SkipConversions(a.Value))),
        _ => false,
    };

    private ImmutableArray<ITypeSymbol?> FindStaticServices(IMethodSymbol method) => bodies.Of(method) is { } body
        ? body.DescendantsAndSelf().OfType<IInvocationOperation>()
            .Where(call => types.IsTaskLike(call.Type))
            .Select(call => OperationTree.ReceiverOf(call) is { } receiver ? ConfigureAwaitCalls.SkipConversions(receiver) : null)
            .OfType<IMemberReferenceOperation>()
            .Where(shared => shared.Member.IsStatic && shared is IFieldReferenceOperation or IPropertyReferenceOperation)
            .Select(shared => shared.Type)
            .ToImmutableArray()
        : ImmutableArray<ITypeSymbol?>.Empty;
}
