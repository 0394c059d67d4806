namespace AsyncCost.Attribution;

/// <summary>Async methods known from one source (a trace's method events, or assemblies on disk): state machines by
/// short name, and the async methods returning each Task&lt;T&gt; type.</summary>
internal sealed class AsyncMethodTable
{
    private readonly Dictionary<string, List<string>> _stateMachinesByShortName = new(StringComparer.Ordinal);
    private readonly Dictionary<string, List<AsyncMethodName>> _methodsByTaskType = new(StringComparer.Ordinal);
    private readonly Dictionary<string, List<AsyncMethodName>> _closureOwnersByName = new(StringComparer.Ordinal);
    private readonly HashSet<string> _declaredMethods = new(StringComparer.Ordinal);
    private const string ClosurePrefix = "<>c__DisplayClass";

    /// <summary>The join keys of every method the assemblies declare (not only async ones; read from assemblies alone): what a
    /// budget may name, so that a name matching none of them is a misspelling, not a method that cost nothing.</summary>
    public IReadOnlySet<string> DeclaredMethods => _declaredMethods;

    /// <summary>Notes a method an assembly declares, by its join key ("Ns.Outer.Inner.Member").</summary>
    public void AddDeclaredMethod(string methodKey) => _declaredMethods.Add(methodKey);

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

    /// <summary>
    /// Notes the member a closure belongs to, from a name generated inside it: a method of the closure
    /// ("&lt;GetAsync&gt;g__Local|0", "&lt;GetAsync&gt;b__0") or a state machine nested in it. <paramref name="closureTypeName"/>
    /// is the closure's full runtime name ("Ns.T+&lt;&gt;c__DisplayClass5_0"); it is kept under that name and under its own
    /// segment, since allocation events may print a nested type by its own name alone.
    /// </summary>
    public void AddClosureMember(string closureTypeName, string memberName)
    {
        var segment = closureTypeName[(closureTypeName.LastIndexOfAny(['+', '/']) + 1)..];
        if (segment.StartsWith(ClosurePrefix, StringComparison.Ordinal) && segment.Length < closureTypeName.Length
            && AsyncMethodName.Parse(closureTypeName) is { Kind: GeneratedTypeKind.Closure } closure)
        {
            var member = closure with { MemberName = memberName, Kind = GeneratedTypeKind.StateMachine };
            Add(_closureOwnersByName, closureTypeName, member);
            Add(_closureOwnersByName, segment, member);
        }
    }

    /// <summary>The member that allocates the closure so named (full or short name), when exactly one is known.</summary>
    public AsyncMethodName? ClosureOwner(string closureTypeName) =>
        _closureOwnersByName.TryGetValue(closureTypeName, out var owners) && owners.Count == 1 ? owners[0] : null;

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
