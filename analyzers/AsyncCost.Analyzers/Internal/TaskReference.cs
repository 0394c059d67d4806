using System;
using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;
using System.Runtime.CompilerServices;

namespace AsyncCost.Analyzers.Internal;

/// <summary>
/// A name for "the same task" across expressions of one method: a local, a parameter, a field or property
/// chain (<c>this._pending</c>, <c>request.Task</c>), or "an element of" one of those (<c>tasks[i]</c>, the
/// variable of <c>foreach (var t in tasks)</c>, the lambda parameter of <c>tasks.Select(t => …)</c>), so that
/// <c>await Task.WhenAll(tasks)</c> can be matched with a later <c>tasks[0].Result</c>.
/// </summary>
internal sealed class TaskReference : IEquatable<TaskReference>
{
    // A null entry means "an element of the collection named so far".
    private readonly ImmutableArray<ISymbol?> _path;

    private TaskReference(ImmutableArray<ISymbol?> path) => _path = path;

    /// <summary>The variable an assignment must change to make this reference name another task.</summary>
    public ISymbol Root => _path[0]!;

    public TaskReference ElementOf() => new(_path.Add(null));

    /// <summary>The task held by a variable itself (a local as it is declared).</summary>
    public static TaskReference OfVariable(ISymbol variable) => Single(variable);

    public static TaskReference? Of(IOperation? operation)
    {
        switch (Strip(operation))
        {
            case ILocalReferenceOperation local:
                return OfLocal(local);
            case IParameterReferenceOperation parameter:
                return OfParameter(parameter);
            case IFieldReferenceOperation field:
                return Member(field.Instance, field.Field);
            case IPropertyReferenceOperation { Arguments.Length: 0 } property:
                return Member(property.Instance, property.Property);
            case IPropertyReferenceOperation indexer:
                return Of(indexer.Instance)?.ElementOf();
            case IArrayElementReferenceOperation element:
                return Of(element.ArrayReference)?.ElementOf();
            default:
                return null;
        }
    }

    /// <summary>The operation without the implicit and explicit conversions around it.</summary>
    [MethodImpl(HotPath.Optimized)]
    public static IOperation? Strip(IOperation? operation)
    {
        while (operation is IConversionOperation conversion)
        {
            operation = conversion.Operand;
        }
        return operation;
    }

    public bool Equals(TaskReference? other)
    {
        if (other is null || other._path.Length != _path.Length)
        {
            return false;
        }
        for (var i = 0; i < _path.Length; i++)
        {
            if (!SymbolEqualityComparer.Default.Equals(_path[i], other._path[i]))
            {
                return false;
            }
        }
        return true;
    }

    public override bool Equals(object? obj) => Equals(obj as TaskReference);

    public override int GetHashCode() => SymbolEqualityComparer.Default.GetHashCode(_path[0]) ^ _path.Length;

    private static TaskReference? Member(IOperation? instance, ISymbol member) =>
        instance is null or IInstanceReferenceOperation
            ? new TaskReference(ImmutableArray.Create<ISymbol?>(member))
            : Of(instance) is { } owner ? new TaskReference(owner._path.Add(member)) : null;

    // The iteration variable of a foreach names an element of the collection.
    private static TaskReference OfLocal(ILocalReferenceOperation reference)
    {
        for (var current = reference.Parent; current is not null; current = current.Parent)
        {
            if (current is IForEachLoopOperation loop && loop.Locals.Contains(reference.Local))
            {
                return Of(loop.Collection)?.ElementOf() ?? Single(reference.Local);
            }
        }
        return Single(reference.Local);
    }

    // The parameter of a lambda handed to a collection's extension method (Select, Sum, ToDictionary…) names an element of it.
    private static TaskReference OfParameter(IParameterReferenceOperation reference)
    {
        if (reference.Parameter.ContainingSymbol is IMethodSymbol { MethodKind: MethodKind.AnonymousFunction } lambda)
        {
            for (var current = reference.Parent; current is not null; current = current.Parent)
            {
                if (current is IAnonymousFunctionOperation function && SymbolEqualityComparer.Default.Equals(function.Symbol, lambda))
                {
                    if (function.Parent?.Parent is IArgumentOperation { Parent: IInvocationOperation { TargetMethod.IsExtensionMethod: true, Instance: null } invocation } argument
                        && invocation.Arguments.Length > 0
                        && invocation.Arguments[0] != argument
                        && Of(invocation.Arguments[0].Value) is { } source)
                    {
                        return source.ElementOf();
                    }
                    break;
                }
            }
        }
        return Single(reference.Parameter);
    }

    private static TaskReference Single(ISymbol symbol) => new(ImmutableArray.Create<ISymbol?>(symbol));
}
