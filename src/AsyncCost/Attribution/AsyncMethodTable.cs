namespace AsyncCost.Attribution;

/// <summary>Async methods known from one source (a trace's method events, or assemblies on disk): state machines by
/// short name, and the async methods returning each Task&lt;T&gt; type.</summary>
internal sealed class AsyncMethodTable
{
    private readonly Dictionary<string, List<string>> _stateMachinesByShortName = new(StringComparer.Ordinal);
    private readonly Dictionary<string, List<AsyncMethodName>> _methodsByTaskType = new(StringComparer.Ordinal);

    public bool IsEmpty => _stateMachinesByShortName.Count == 0;

    /// <summary>Adds a state machine's full runtime name ("Ns.T+&lt;X&gt;d__0"); closures and other names are ignored.</summary>
    public void AddStateMachine(string fullName)
    {
        var segment = fullName[(fullName.LastIndexOfAny(['+', '/']) + 1)..];
        if (segment.StartsWith('<') && AsyncMethodName.Parse(fullName) is { Kind: not GeneratedTypeKind.Closure })
        {
            Add(_stateMachinesByShortName, segment, fullName);
        }
    }

    public void AddTaskReturningMethod(AsyncMethodName method, string taskTypeName) => Add(_methodsByTaskType, taskTypeName, method);

    public IReadOnlyList<string> StateMachinesNamed(string shortName)
        => _stateMachinesByShortName.TryGetValue(shortName, out var names) ? names : [];

    public IEnumerable<string> AllStateMachines() => _stateMachinesByShortName.Values.SelectMany(names => names);

    public IReadOnlyList<AsyncMethodName> MethodsReturning(string taskTypeName)
        => _methodsByTaskType.TryGetValue(taskTypeName, out var methods) ? methods : [];

    private static void Add<T>(Dictionary<string, List<T>> table, string key, T value)
    {
        if (!table.TryGetValue(key, out var list))
        {
            list = [];
            table.Add(key, list);
        }
        if (!list.Contains(value))
        {
            list.Add(value);
        }
    }
}
