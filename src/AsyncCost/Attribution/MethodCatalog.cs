namespace AsyncCost.Attribution;

/// <summary>
/// Names the async methods a session saw. The trace itself is the source: method events (MethodLoadVerbose during the
/// session, MethodDCStopVerbose at its rundown) give every jitted method's type, name and signature, so a report reads the
/// same on any machine. The assemblies the process loaded are an optional extra, read only when the trace has no method
/// events (a trace recorded without method rundown) and only if they are still where they were.
/// </summary>
internal sealed class MethodCatalog
{
    private const string TaskOfT = "System.Threading.Tasks.Task`1[";

    /// <summary>Where Task, Task&lt;T&gt;, ValueTask and ValueTask&lt;T&gt; live.</summary>
    private const string TasksNamespace = "System.Threading.Tasks.";

    /// <summary>How an async iterator's state machine names its explicit IAsyncEnumerator&lt;T&gt;.MoveNextAsync.</summary>
    private const string AsyncIteratorMoveNext = ">.MoveNextAsync";

    private readonly AsyncMethodTable _fromTrace = new();
    private readonly List<(string TypeName, string MethodName, string TaskType)> _taskReturningMethods = [];
    private readonly HashSet<(string, string, string)> _seenMethods = [];
    private readonly HashSet<string> _modulePaths = new(StringComparer.Ordinal);
    private readonly HashSet<string> _iteratorMethodKeys = new(StringComparer.Ordinal);
    private readonly HashSet<string> _synchronousIterators = new(StringComparer.Ordinal);
    private readonly Dictionary<long, string> _modulePathById = [];
    private readonly Dictionary<string, long> _moduleIdByTypeKey = new(StringComparer.Ordinal);
    private readonly Dictionary<string, long> _compiledMethodKeys = new(StringComparer.Ordinal);
    private readonly HashSet<string> _taskReturningMethodKeys = new(StringComparer.Ordinal);
    private readonly List<AsyncMethodName> _membersByOrdinal = [];
    private readonly HashSet<string> _frameworkModulePaths = new(StringComparer.Ordinal);
    private AsyncMethodTable? _fromAssemblies;
    private AsyncMethodTable? _fromFramework;
    private bool _tableComplete;

    /// <summary>How many methods the trace named (0: the trace had no method rundown).</summary>
    public int MethodEvents { get; private set; }

    /// <summary>The user modules the process loaded, by path (from loader events or /proc/PID/maps).</summary>
    public IReadOnlyCollection<string> ModulePaths => _modulePaths;

    /// <summary>True when names came from assemblies on disk, because the trace had no method events.</summary>
    public bool UsedAssemblies => MethodEvents == 0 && !Table().IsEmpty;

    /// <summary>Adds a method from a MethodLoadVerbose or MethodDCStopVerbose event.</summary>
    /// <param name="typeName">MethodNamespace: the runtime type name ("Ns.T+&lt;X&gt;d__0", "AsyncStateMachineBox`1[...]").</param>
    /// <param name="methodName">MethodName ("MoveNext", "GetPriceAsync").</param>
    /// <param name="signature">MethodSignature ("instance class System.Threading.Tasks.Task`1&lt;value class System.Decimal&gt;  (int32)").</param>
    /// <param name="moduleId">The event's ModuleID (0 when unknown): which module the method's type belongs to.</param>
    public void AddMethod(string typeName, string methodName, string signature, long moduleId = 0)
    {
        if (!_seenMethods.Add((typeName, methodName, signature)))
        {
            return; // the same method from its load event and again from the rundown
        }
        MethodEvents++;
        var type = RuntimeTypeName.Parse(typeName);
        if (moduleId != 0 && AsyncMethodName.Parse(type.Name) is { } own)
        {
            _moduleIdByTypeKey.TryAdd(own.TypeKey, moduleId);
        }
        AddCompiledMethod(type.Name, methodName, moduleId);
        AssemblyAsyncMethods.AddClosureOf(_fromTrace, type.Name, methodName);
        AssemblyAsyncMethods.AddClosureOf(_fromTrace, type.Name, null);
        // A state machine's own methods (MoveNext), or a box whose type arguments name one.
        _fromTrace.AddStateMachine(type.Name);
        foreach (var argument in type.Arguments)
        {
            _fromTrace.AddStateMachine(argument.Name);
        }
        if (methodName.EndsWith(AsyncIteratorMoveNext, StringComparison.Ordinal) && AsyncMethodName.Parse(type.Name) is { } iterator)
        {
            // "System.Collections.Generic.IAsyncEnumerator<System.Int32>.MoveNextAsync" on the state machine: an async iterator.
            _iteratorMethodKeys.Add(iterator.MethodKey);
        }
        if (SynchronousIteratorMethods.Any(prefix => methodName.StartsWith(prefix, StringComparison.Ordinal)) && AsyncMethodName.Parse(type.Name) is not null)
        {
            // "System.Collections.Generic.IEnumerator<System.Int32>.get_Current": a yield-return iterator, named like an
            // async state machine ("<GetItems>d__3") but not one.
            _synchronousIterators.Add(type.Name);
        }
        var returned = MethodSignatureText.ReturnType(signature);
        if (returned is not null && returned.StartsWith(TasksNamespace, StringComparison.Ordinal)
            && AsyncMethodName.Parse(type.Name + "+<" + methodName + ">d__0") is { Kind: GeneratedTypeKind.StateMachine } kickoff)
        {
            _taskReturningMethodKeys.Add(kickoff.MethodKey);
        }
        if (returned is { } returnType && returnType.StartsWith(TaskOfT, StringComparison.Ordinal))
        {
            _taskReturningMethods.Add((type.Name, methodName, returnType));
            _tableComplete = false;
        }
    }

    /// <summary>Adds a module path for the fallback (duplicates and framework assemblies are ignored), and with its ModuleID
    /// (from a module event) for <see cref="ModuleOf"/>.</summary>
    public void AddModule(string? path, long moduleId = 0)
    {
        if (moduleId != 0 && !string.IsNullOrEmpty(path))
        {
            _modulePathById[moduleId] = path;
        }
        if (AssemblyAsyncMethods.IsUserModule(path) && _modulePaths.Add(path!))
        {
            _fromAssemblies = null; // read again, with this one
        }
    }

    /// <summary>How a synchronous iterator's state machine names its explicit IEnumerator and IEnumerable methods.</summary>
    private static readonly string[] SynchronousIteratorMethods =
        ["System.Collections.Generic.IEnumerator<", "System.Collections.Generic.IEnumerable<", "System.Collections.IEnumerator.", "System.Collections.IEnumerable."];

    /// <summary>True when the trace names this generated type ("Ns.T+&lt;GetItems&gt;d__3") as a synchronous iterator's state
    /// machine (it implements IEnumerator&lt;T&gt;): not an async method, though its name reads like one's.</summary>
    public bool IsSynchronousIterator(string typeName)
    {
        // Allocation events may print a class state machine by its nested name alone.
        var name = RuntimeTypeName.Parse(typeName).Name;
        return _synchronousIterators.Contains(name) || (name.StartsWith('<') && _synchronousIterators.Any(full => full.EndsWith("+" + name, StringComparison.Ordinal)));
    }

    /// <summary>True when the trace names this method's state machine as an async iterator's (it implements
    /// IAsyncEnumerator&lt;T&gt;.MoveNextAsync): one box and one state machine per enumeration, one call per MoveNextAsync.</summary>
    public bool IsAsyncIterator(string methodKey) => _iteratorMethodKeys.Contains(methodKey);
    /// <summary>The path of the module holding <paramref name="method"/>'s type, when the trace's method and module events tell.</summary>
    public string? ModuleOf(AsyncMethodName method) =>
        _moduleIdByTypeKey.TryGetValue(method.TypeKey, out var id) && _modulePathById.TryGetValue(id, out var path) ? path : null;

    /// <summary>
    /// The member that allocates a closure (full name, or its nested name alone as allocation events may print it), from
    /// what the compiler generated inside the closure: named by the trace's method events, or else by the assemblies still
    /// at their recorded paths (a closure whose methods never ran, e.g. on a fast path, has no method events).
    /// </summary>
    public AsyncMethodName? ClosureOwner(string typeName) =>
        _fromTrace.ClosureOwner(typeName) ?? (_fromAssemblies ??= ReadAssemblies()).ClosureOwner(typeName);

    /// <summary>Join keys of every method the trace's method events named (a method's own code, its state machine's
    /// MoveNext, its local functions and lambdas): the methods that were called at least once in the process; with the
    /// path of the module holding each, when the module events tell.</summary>
    public IEnumerable<(string Key, string TypeKey, string? ModulePath)> CompiledMethods() =>
        _compiledMethodKeys.Select(m => (m.Key, m.Key[..m.Key.LastIndexOf('.')], _modulePathById.GetValueOrDefault(m.Value)));

    /// <summary>The async methods the trace's method events say ran: a state machine known, and the method's own code compiled
    /// returning a task (a synchronous iterator's state machine is named alike and returns none). A method that never
    /// suspended is among them, though no TPL event names it.</summary>
    public IEnumerable<AsyncMethodName> AsyncMethodsThatRan() =>
        AllStateMachines().Select(AsyncMethodName.Parse).OfType<AsyncMethodName>()
            .Where(m => m.Kind == GeneratedTypeKind.StateMachine && _taskReturningMethodKeys.Contains(m.MethodKey))
            .DistinctBy(m => m.DisplayName, StringComparer.Ordinal);

    /// <summary>Members known with their ordinal from the names of methods on closures and of local functions
    /// ("Ns.T+&lt;&gt;c__DisplayClass5_0" :: "&lt;GetAsync&gt;g__Local|0", "Ns.T" :: "&lt;GetAsync&gt;g__Local|5_0").</summary>
    public IReadOnlyList<AsyncMethodName> MembersByOrdinal() => _membersByOrdinal;

    private void AddCompiledMethod(string typeName, string methodName, long moduleId)
    {
        if (AsyncMethodName.Parse(typeName) is { } generated)
        {
            if (generated.Kind != GeneratedTypeKind.Closure)
            {
                // A state machine's MoveNext; a local function's or lambda's means its member ran too.
                _compiledMethodKeys.TryAdd(generated.MethodKey, moduleId);
                _compiledMethodKeys.TryAdd(generated.TypeKey + "." + generated.MemberName, moduleId);
            }
            else if (MemberOf(methodName) is { } member && generated.MemberOrdinal is { } ordinal)
            {
                _membersByOrdinal.Add(generated with { MemberName = member, MemberOrdinal = ordinal, Kind = GeneratedTypeKind.StateMachine });
                _compiledMethodKeys.TryAdd(generated.TypeKey + "." + member, moduleId);
            }
            return;
        }
        // A member of a user type, or a local function or lambda compiled as one ("<GetAsync>g__Local|5_0", "<Main>b__0_1").
        if (AsyncMethodName.Parse(typeName + "+<" + (MemberOf(methodName) ?? methodName) + ">d__0") is not { } owner)
        {
            return;
        }
        _compiledMethodKeys.TryAdd(owner.MethodKey, moduleId);
        if (AsyncMethodName.Parse(typeName + "+<" + methodName + ">d") is { Kind: not GeneratedTypeKind.StateMachine, MemberOrdinal: not null } local)
        {
            _compiledMethodKeys.TryAdd(local.MethodKey, moduleId);
            _membersByOrdinal.Add(local);
        }
    }

    /// <summary>"&lt;GetAsync&gt;g__Local|5_0" -> "GetAsync"; null for a name that is not a generated one.</summary>
    private static string? MemberOf(string methodName) =>
        methodName.StartsWith('<') && methodName.IndexOf('>', StringComparison.Ordinal) is var end and > 1 ? methodName[1..end] : null;

    /// <summary>Full runtime names ("Ns.T+&lt;X&gt;d__0") of state machines with this short name: from the method events or
    /// the user assemblies, or else from the framework assemblies added (<see cref="AddFrameworkModule"/>).</summary>
    public IReadOnlyList<string> StateMachinesNamed(string shortName)
    {
        var named = Table().StateMachinesNamed(shortName);
        return named.Count > 0 || _frameworkModulePaths.Count == 0
            ? named
            : (_fromFramework ??= Read(_frameworkModulePaths)).StateMachinesNamed(shortName);
    }

    /// <summary>
    /// Adds a framework assembly (user assemblies are ignored here: <see cref="AddModule"/>) to read, once, when a state
    /// machine's short name is found nowhere else. In process there are no method events: a framework method's hops, known
    /// by their short name alone, are then named as the CLI names them from its method events, not "?.Method".
    /// </summary>
    public void AddFrameworkModule(string path)
    {
        if (!AssemblyAsyncMethods.IsUserModule(path) && !_frameworkModulePaths.Contains(path) && File.Exists(path))
        {
            _frameworkModulePaths.Add(path);
            _fromFramework = null; // read again, with this one
        }
    }

    /// <summary>An in-process stream has no method rundown: names come from the assemblies this process loaded, the user's,
    /// and the framework's for state machines known by their short name alone, as the CLI's method events name them.</summary>
    public void AddAssembliesOfThisProcess()
    {
        foreach (var assembly in AppDomain.CurrentDomain.GetAssemblies())
        {
            if (!assembly.IsDynamic)
            {
                AddModule(assembly.Location);
                AddFrameworkModule(assembly.Location);
            }
        }
    }

    /// <summary>Where a frame's type ends and its method starts: dots inside generic arguments ("Dictionary`2[System.String,
    /// System.Int32]") or generated names ("&lt;Ns.IFoo.GetAsync&gt;d__1") are not it.</summary>
    internal static int LastDotOutsideBrackets(string frame)
    {
        var depth = 0;
        var last = -1;
        for (var i = 0; i < frame.Length; i++)
        {
            switch (frame[i])
            {
                case '[' or '<':
                    depth++;
                    break;
                case ']' or '>':
                    depth--;
                    break;
                case '.' when depth == 0:
                    last = i;
                    break;
            }
        }
        return last;
    }

    /// <summary>The join keys of every method the user assemblies declare, async ones (with their local functions and lambdas)
    /// and not; empty where names come from a trace's method events (they name what ran, not what exists).</summary>
    public IReadOnlySet<string> DeclaredMethodKeys()
    {
        var table = Table();
        var keys = new HashSet<string>(table.DeclaredMethods, StringComparer.Ordinal);
        keys.UnionWith(table.AllStateMachines().Select(AsyncMethodName.Parse).OfType<AsyncMethodName>().Select(m => m.MethodKey));
        return keys;
    }

    /// <summary>Every state machine's full runtime name known.</summary>
    public IEnumerable<string> AllStateMachines() => Table().AllStateMachines();

    /// <summary>
    /// A resolver of stack frames ("Ns.T+&lt;GetAsync&gt;d__2.MoveNext", "Ns.T.GetAsync": type and method, no signature) to the
    /// async method each is: a state machine's MoveNext, or the method itself when the JIT inlined MoveNext into it, which
    /// is known by a state machine named after it. Memoized: one resolver serves one trace's samples.
    /// </summary>
    public Func<string, AsyncMethodName?> AsyncMethodFrames()
    {
        var byMethod = new Dictionary<string, AsyncMethodName>(StringComparer.Ordinal);
        foreach (var stateMachine in AllStateMachines())
        {
            // "Ns.T+<GetAsync>d__2" is GetAsync's, "Ns.T+<<Main>$>g__Local|0_3>d" is the local function "<<Main>$>g__Local|0_3"'s.
            var nested = stateMachine.LastIndexOf('+');
            var name = stateMachine[(nested + 1)..];
            var end = name.LastIndexOf(">d", StringComparison.Ordinal);
            if (nested > 0 && end > 1 && !_synchronousIterators.Contains(stateMachine) && AsyncMethodName.Parse(stateMachine) is { } method)
            {
                byMethod.TryAdd(stateMachine[..nested] + "." + name[1..end], method);
            }
        }
        var resolved = new Dictionary<string, AsyncMethodName?>(StringComparer.Ordinal);
        return frame =>
        {
            if (!resolved.TryGetValue(frame, out var method))
            {
                method = Resolve(frame);
                resolved.Add(frame, method);
            }
            return method;
        };

        AsyncMethodName? Resolve(string frame)
        {
            var dot = LastDotOutsideBrackets(frame);
            if (dot <= 0)
            {
                return null;
            }
            var typeName = RuntimeTypeName.Parse(frame[..dot]).Name;
            var methodName = frame[(dot + 1)..];
            return methodName == "MoveNext" && !_synchronousIterators.Contains(typeName) && AsyncMethodName.Parse(typeName) is { Kind: not GeneratedTypeKind.Closure } stateMachine
                ? stateMachine
                : byMethod.GetValueOrDefault(typeName + "." + methodName);
        }
    }

    /// <summary>The async methods whose return type prints as <paramref name="taskTypeName"/> ("System.Threading.Tasks.Task`1[System.Decimal]").</summary>
    public IReadOnlyList<AsyncMethodName> MethodsReturning(string taskTypeName) => Table().MethodsReturning(taskTypeName);

    private AsyncMethodTable Table()
    {
        if (MethodEvents == 0)
        {
            return _fromAssemblies ??= ReadAssemblies();
        }
        if (!_tableComplete)
        {
            LinkTaskReturningMethods();
        }
        return _fromTrace;
    }

    /// <summary>An async method's stub ("Ns.T", "GetAsync", Task`1[X]) joins its state machine ("Ns.T+&lt;GetAsync&gt;d__2")
    /// by type and member name: then the Task&lt;X&gt; it returns can be charged to it.</summary>
    private void LinkTaskReturningMethods()
    {
        var stateMachines = _fromTrace.AllStateMachines()
            .Select(AsyncMethodName.Parse)
            .Where(name => name is { Kind: GeneratedTypeKind.StateMachine })
            .ToLookup(name => (name!.TypeKey, name.MemberName));
        foreach (var (typeName, methodName, taskType) in _taskReturningMethods)
        {
            if (AsyncMethodName.Parse(typeName + "+<" + methodName + ">d__0") is { } stub)
            {
                foreach (var name in stateMachines[(stub.TypeKey, stub.MemberName)])
                {
                    _fromTrace.AddTaskReturningMethod(name!, taskType);
                }
            }
        }
        _tableComplete = true;
    }

    private AsyncMethodTable ReadAssemblies() => Read(_modulePaths);

    private static AsyncMethodTable Read(IEnumerable<string> paths)
    {
        var table = new AsyncMethodTable();
        foreach (var path in paths)
        {
            AssemblyAsyncMethods.Read(path, table);
        }
        return table;
    }
}
