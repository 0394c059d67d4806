using System.Runtime.CompilerServices;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Internal;

/// <summary>
/// The async types the rules ask about, resolved once per compilation for all rules (each asks in its
/// <c>RegisterCompilationStartAction</c>) so that per-operation callbacks only compare symbols.
/// A member is null when the compilation's references lack that type.
/// </summary>
internal sealed class WellKnownAsyncTypes
{
    // Each look-up searches every reference of the compilation: nine rules asking for eight types each was 72 searches.
    private static readonly ConditionalWeakTable<Compilation, WellKnownAsyncTypes> PerCompilation = new();

    private WellKnownAsyncTypes(Compilation compilation)
    {
        Task = compilation.GetTypeByMetadataName("System.Threading.Tasks.Task");
        TaskOfT = compilation.GetTypeByMetadataName("System.Threading.Tasks.Task`1");
        ValueTask = compilation.GetTypeByMetadataName("System.Threading.Tasks.ValueTask");
        ValueTaskOfT = compilation.GetTypeByMetadataName("System.Threading.Tasks.ValueTask`1");
        TaskCompletionSourceOfT = compilation.GetTypeByMetadataName("System.Threading.Tasks.TaskCompletionSource`1");
        AsyncEnumerableOfT = compilation.GetTypeByMetadataName("System.Collections.Generic.IAsyncEnumerable`1");
        ConfigureAwaitOptions = compilation.GetTypeByMetadataName("System.Threading.Tasks.ConfigureAwaitOptions");
        CancellationToken = compilation.GetTypeByMetadataName("System.Threading.CancellationToken");
    }

    public INamedTypeSymbol? Task { get; }
    public INamedTypeSymbol? TaskOfT { get; }
    public INamedTypeSymbol? ValueTask { get; }
    public INamedTypeSymbol? ValueTaskOfT { get; }
    public INamedTypeSymbol? TaskCompletionSourceOfT { get; }
    public INamedTypeSymbol? AsyncEnumerableOfT { get; }
    public INamedTypeSymbol? ConfigureAwaitOptions { get; }
    public INamedTypeSymbol? CancellationToken { get; }

    /// <summary>False when the compilation has no Task type at all (nothing async to analyze).</summary>
    public bool HasTasks => Task is not null;

    public static WellKnownAsyncTypes Create(Compilation compilation) => PerCompilation.GetValue(compilation, c => new WellKnownAsyncTypes(c));

    /// <summary>Task or Task&lt;T&gt; (including types derived from Task).</summary>
    [MethodImpl(HotPath.Optimized)]
    public bool IsTask(ITypeSymbol? type)
    {
        for (var current = type; current is not null; current = current.BaseType)
        {
            var definition = current.OriginalDefinition;
            if (SymbolEqualityComparer.Default.Equals(definition, Task) || SymbolEqualityComparer.Default.Equals(definition, TaskOfT))
            {
                return true;
            }
        }
        return false;
    }

    /// <summary>ValueTask or ValueTask&lt;T&gt;.</summary>
    public bool IsValueTask(ITypeSymbol? type) =>
        type is not null
        && (SymbolEqualityComparer.Default.Equals(type.OriginalDefinition, ValueTask)
            || SymbolEqualityComparer.Default.Equals(type.OriginalDefinition, ValueTaskOfT));

    /// <summary>Task, Task&lt;T&gt;, ValueTask or ValueTask&lt;T&gt;.</summary>
    public bool IsTaskLike(ITypeSymbol? type) => IsTask(type) || IsValueTask(type);

    /// <summary>
    /// A task that has completed where it is made: <c>Task.CompletedTask</c>, <c>ValueTask.CompletedTask</c>,
    /// <c>Task/ValueTask.FromResult/FromException/FromCanceled</c>, <c>default(ValueTask)</c>, <c>new ValueTask()</c> and
    /// <c>new ValueTask&lt;T&gt;(value)</c> (also target-typed <c>new()</c>, <c>new(value)</c>; not one wrapping a task or an IValueTaskSource).
    /// </summary>
    public bool IsCompletedByConstruction(IOperation? value) => value switch
    {
        IInvocationOperation { TargetMethod: { IsStatic: true, Name: "FromResult" or "FromException" or "FromCanceled" } method } =>
            IsTaskOrValueTask(method.ContainingType),
        IPropertyReferenceOperation { Property: { Name: "CompletedTask", IsStatic: true } property } => IsTaskOrValueTask(property.ContainingType),
        IObjectCreationOperation { Arguments.Length: 0 } creation => IsValueTask(creation.Type),
        // `new ValueTask<T>(result)`, not `new ValueTask<T>(task)`: the constructor's own parameter is T, whatever T is
        // (an interface too: `new ValueTask<IMessage>(message)`).
        IObjectCreationOperation { Arguments.Length: 1, Constructor: { } constructor } creation => IsValueTask(creation.Type)
            && !IsTask(creation.Arguments[0].Value.Type)
            && constructor.OriginalDefinition.Parameters[0].Type is ITypeParameterSymbol,
        IDefaultValueOperation @default => IsValueTask(@default.Type),
        _ => false,
    };

    // The non-generic Task and ValueTask, which hold the static factories.
    private bool IsTaskOrValueTask(INamedTypeSymbol? type) =>
        SymbolEqualityComparer.Default.Equals(type, Task) || SymbolEqualityComparer.Default.Equals(type, ValueTask);

    /// <summary>Task&lt;T&gt; exactly (the generic definition), for rules about result-carrying tasks.</summary>
    public bool IsGenericTask(ITypeSymbol? type) =>
        type is INamedTypeSymbol { IsGenericType: true } named && SymbolEqualityComparer.Default.Equals(named.OriginalDefinition, TaskOfT);
}
