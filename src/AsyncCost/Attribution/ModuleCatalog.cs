using System.Collections.Immutable;
using System.Reflection.Metadata;
using System.Reflection.PortableExecutable;
using System.Text;

namespace AsyncCost.Attribution;

/// <summary>
/// What the user's assemblies say about their async methods, read from metadata (the module paths come from loader and
/// rundown events or /proc/PID/maps): the full names of state machines known by short name in TPL events, and which async
/// methods return a given Task&lt;T&gt; (a synchronously completed call allocates only that Task, with no state-machine name).
/// Framework assemblies are skipped.
/// </summary>
internal sealed class ModuleCatalog
{
    private const string TaskOfT = "System.Threading.Tasks.Task`1";

    private readonly HashSet<string> _paths = new(StringComparer.Ordinal);
    private readonly Dictionary<string, List<string>> _stateMachinesByShortName = new(StringComparer.Ordinal);
    private readonly Dictionary<string, List<AsyncMethodName>> _methodsByTaskType = new(StringComparer.Ordinal);
    private readonly HashSet<string> _read = new(StringComparer.Ordinal);

    /// <summary>Adds a module path (duplicates and framework assemblies are ignored).</summary>
    public void AddModule(string? path)
    {
        if (string.IsNullOrEmpty(path) || !path.EndsWith(".dll", StringComparison.OrdinalIgnoreCase) && !path.EndsWith(".exe", StringComparison.OrdinalIgnoreCase))
        {
            return;
        }
        if (path.Contains("/shared/Microsoft.", StringComparison.Ordinal) || path.Contains("\\shared\\Microsoft.", StringComparison.Ordinal))
        {
            return; // the shared framework has no user async methods
        }
        _paths.Add(path);
    }

    /// <summary>Full runtime names ("Ns.T+&lt;X&gt;d__0") of state machines with this short name.</summary>
    public IReadOnlyList<string> StateMachinesNamed(string shortName)
    {
        ReadPending();
        return _stateMachinesByShortName.TryGetValue(shortName, out var names) ? names : [];
    }

    /// <summary>Every state machine's full runtime name found in the modules.</summary>
    public IEnumerable<string> AllStateMachines()
    {
        ReadPending();
        return _stateMachinesByShortName.Values.SelectMany(names => names);
    }

    /// <summary>The async methods whose return type prints as <paramref name="taskTypeName"/> ("System.Threading.Tasks.Task`1[System.Decimal]").</summary>
    public IReadOnlyList<AsyncMethodName> MethodsReturning(string taskTypeName)
    {
        ReadPending();
        return _methodsByTaskType.TryGetValue(taskTypeName, out var methods) ? methods : [];
    }

    private void ReadPending()
    {
        foreach (var path in _paths)
        {
            if (_read.Add(path))
            {
                ReadModule(path);
            }
        }
    }

    private void ReadModule(string path)
    {
        try
        {
            using var stream = File.OpenRead(path);
            using var pe = new PEReader(stream);
            if (!pe.HasMetadata)
            {
                return;
            }
            var reader = pe.GetMetadataReader();
            var provider = new RuntimeNameProvider(reader);
            foreach (var handle in reader.TypeDefinitions)
            {
                var type = reader.GetTypeDefinition(handle);
                var fullName = RuntimeNameProvider.FullName(reader, handle);
                if (type.IsNested && reader.GetString(type.Name).StartsWith('<') && AsyncMethodName.Parse(fullName) is { Kind: not GeneratedTypeKind.Closure })
                {
                    Add(_stateMachinesByShortName, reader.GetString(type.Name), fullName);
                }
                foreach (var methodHandle in type.GetMethods())
                {
                    var method = reader.GetMethodDefinition(methodHandle);
                    if (StateMachineOf(reader, method) is not { } stateMachine || AsyncMethodName.Parse(stateMachine) is not { } name)
                    {
                        continue;
                    }
                    var returnType = method.DecodeSignature(provider, genericContext: null).ReturnType;
                    if (returnType.StartsWith(TaskOfT + "[", StringComparison.Ordinal))
                    {
                        Add(_methodsByTaskType, returnType, name);
                    }
                }
            }
        }
        catch (IOException)
        {
            // Moved or deleted since the trace: names stay as the events gave them.
        }
        catch (UnauthorizedAccessException)
        {
        }
        catch (BadImageFormatException)
        {
        }
    }

    /// <summary>The state machine type name from [AsyncStateMachine(typeof(...))], or null.</summary>
    private static string? StateMachineOf(MetadataReader reader, MethodDefinition method)
    {
        foreach (var attributeHandle in method.GetCustomAttributes())
        {
            var attribute = reader.GetCustomAttribute(attributeHandle);
            if (attribute.Constructor.Kind != HandleKind.MemberReference)
            {
                continue;
            }
            var constructor = reader.GetMemberReference((MemberReferenceHandle)attribute.Constructor);
            if (constructor.Parent.Kind != HandleKind.TypeReference
                || reader.GetString(reader.GetTypeReference((TypeReferenceHandle)constructor.Parent).Name) != "AsyncStateMachineAttribute")
            {
                continue;
            }
            // Blob: prolog 0x0001, then the Type argument as a SerString (its name, possibly assembly-qualified).
            var blob = reader.GetBlobReader(attribute.Value);
            return blob.ReadUInt16() == 1 ? blob.ReadSerializedString() : null;
        }
        return null;
    }

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

    /// <summary>Decodes signatures into the runtime's printed type names ("System.Threading.Tasks.Task`1[System.Decimal]").</summary>
    private sealed class RuntimeNameProvider(MetadataReader reader) : ISignatureTypeProvider<string, object?>
    {
        public static string FullName(MetadataReader reader, TypeDefinitionHandle handle)
        {
            var type = reader.GetTypeDefinition(handle);
            var name = reader.GetString(type.Name);
            if (type.IsNested)
            {
                return FullName(reader, type.GetDeclaringType()) + "+" + name;
            }
            var ns = reader.GetString(type.Namespace);
            return ns.Length == 0 ? name : ns + "." + name;
        }

        private static string FullName(MetadataReader reader, TypeReferenceHandle handle)
        {
            var type = reader.GetTypeReference(handle);
            var name = reader.GetString(type.Name);
            if (type.ResolutionScope.Kind == HandleKind.TypeReference)
            {
                return FullName(reader, (TypeReferenceHandle)type.ResolutionScope) + "+" + name;
            }
            var ns = reader.GetString(type.Namespace);
            return ns.Length == 0 ? name : ns + "." + name;
        }

        public string GetPrimitiveType(PrimitiveTypeCode typeCode) => "System." + typeCode switch
        {
            PrimitiveTypeCode.IntPtr => "IntPtr",
            PrimitiveTypeCode.UIntPtr => "UIntPtr",
            PrimitiveTypeCode.TypedReference => "TypedReference",
            _ => typeCode.ToString(),
        };

        public string GetTypeFromDefinition(MetadataReader metadataReader, TypeDefinitionHandle handle, byte rawTypeKind) => FullName(reader, handle);

        public string GetTypeFromReference(MetadataReader metadataReader, TypeReferenceHandle handle, byte rawTypeKind) => FullName(reader, handle);

        public string GetGenericInstantiation(string genericType, ImmutableArray<string> typeArguments)
            => new StringBuilder(genericType).Append('[').AppendJoin(",", typeArguments).Append(']').ToString();

        public string GetSZArrayType(string elementType) => elementType + "[]";

        public string GetArrayType(string elementType, ArrayShape shape) => elementType + "[" + new string(',', shape.Rank - 1) + "]";

        public string GetByReferenceType(string elementType) => elementType + "&";

        public string GetPointerType(string elementType) => elementType + "*";

        public string GetPinnedType(string elementType) => elementType;

        public string GetModifiedType(string modifier, string unmodifiedType, bool isRequired) => unmodifiedType;

        public string GetFunctionPointerType(MethodSignature<string> signature) => "System.IntPtr";

        // Open generic parameters never match a runtime (closed) name: such methods stay unattributed.
        public string GetGenericMethodParameter(object? genericContext, int index) => "!!" + index.ToString(System.Globalization.CultureInfo.InvariantCulture);

        public string GetGenericTypeParameter(object? genericContext, int index) => "!" + index.ToString(System.Globalization.CultureInfo.InvariantCulture);

        public string GetTypeFromSpecification(MetadataReader metadataReader, object? genericContext, TypeSpecificationHandle handle, byte rawTypeKind)
            => reader.GetTypeSpecification(handle).DecodeSignature(this, genericContext);
    }
}
