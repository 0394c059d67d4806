using System.Collections.Immutable;
using System.Reflection.Metadata;
using System.Reflection.PortableExecutable;
using System.Text;

namespace AsyncCost.Attribution;

/// <summary>
/// The async methods an assembly on disk declares, read from its metadata: the optional fallback of
/// <see cref="MethodCatalog"/> for traces without method rundown (the trace names what ran; a file names what exists, if it
/// is still where it was). Framework assemblies are skipped.
/// </summary>
internal static class AssemblyAsyncMethods
{
    private const string TaskOfT = "System.Threading.Tasks.Task`1";

    /// <summary>True for a .dll/.exe path outside the shared framework (which has no user async methods) that is not a test
    /// framework's: a test runner's async methods (xunit's TestInvoker returns Task&lt;decimal&gt;) are a library's, and would
    /// otherwise make the Task&lt;T&gt; of the code under test ambiguous in every test process.</summary>
    public static bool IsUserModule(string? path) =>
        !string.IsNullOrEmpty(path)
        && (path.EndsWith(".dll", StringComparison.OrdinalIgnoreCase) || path.EndsWith(".exe", StringComparison.OrdinalIgnoreCase))
        && !path.Contains("/shared/Microsoft.", StringComparison.Ordinal) && !path.Contains("\\shared\\Microsoft.", StringComparison.Ordinal)
        && !TestFrameworkPrefixes.Any(prefix => Path.GetFileName(path.Replace('\\', '/')).StartsWith(prefix, StringComparison.OrdinalIgnoreCase));

    private static readonly string[] TestFrameworkPrefixes = ["xunit.", "nunit.", "nunit3.", "MSTest.", "Microsoft.TestPlatform.", "Microsoft.VisualStudio.TestPlatform.", "testhost."];

    /// <summary>Reads the module's state machines and the Task&lt;T&gt; return types of its async methods into the table;
    /// false when the file cannot be read (moved, deleted, not an assembly).</summary>
    public static bool Read(string path, AsyncMethodTable table)
    {
        try
        {
            using var stream = File.OpenRead(path);
            using var pe = new PEReader(stream);
            if (!pe.HasMetadata)
            {
                return false;
            }
            var reader = pe.GetMetadataReader();
            var provider = new RuntimeNameProvider(reader);
            foreach (var handle in reader.TypeDefinitions)
            {
                var type = reader.GetTypeDefinition(handle);
                var fullName = RuntimeNameProvider.FullName(reader, handle);
                if (type.IsNested && reader.GetString(type.Name).StartsWith('<'))
                {
                    table.AddStateMachine(fullName);
                    AddClosureOf(table, fullName, null);
                }
                foreach (var methodHandle in type.GetMethods())
                {
                    var method = reader.GetMethodDefinition(methodHandle);
                    var methodName = reader.GetString(method.Name);
                    AddClosureOf(table, fullName, methodName);
                    // Its key as a state machine named after it would have it: nested types joined with '.', no arity.
                    if (!methodName.StartsWith('<') && !methodName.StartsWith('.') && AsyncMethodName.Parse(fullName + "+<" + methodName + ">d__0") is { } declared)
                    {
                        table.AddDeclaredMethod(declared.MethodKey);
                    }
                    if (StateMachineOf(reader, method) is not { } stateMachine || AsyncMethodName.Parse(stateMachine) is not { } name)
                    {
                        continue;
                    }
                    var returnType = method.DecodeSignature(provider, genericContext: null).ReturnType;
                    if (returnType.StartsWith(TaskOfT + "[", StringComparison.Ordinal))
                    {
                        table.AddTaskReturningMethod(name, returnType);
                    }
                }
            }
            return true;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or BadImageFormatException)
        {
            return false;
        }
    }

    /// <summary>
    /// The member a closure belongs to, from what the compiler generated inside it: <paramref name="methodName"/> of the type
    /// <paramref name="typeName"/> ("&lt;GetAsync&gt;g__Local|0" on "Ns.T+&lt;&gt;c__DisplayClass5_0"), or, with no method name, a
    /// state machine nested in a closure ("Ns.T+&lt;&gt;c__DisplayClass5_0+&lt;&lt;GetAsync&gt;g__Local|0&gt;d").
    /// </summary>
    internal static void AddClosureOf(AsyncMethodTable table, string typeName, string? methodName)
    {
        if (methodName is not null)
        {
            if (methodName.StartsWith('<') && methodName.IndexOf('>', StringComparison.Ordinal) is var end and > 1)
            {
                table.AddClosureMember(typeName, methodName[1..end]);
            }
        }
        else if (typeName.LastIndexOfAny(['+', '/']) is var nested and > 0 && AsyncMethodName.Parse(typeName) is { MemberName: { } member })
        {
            table.AddClosureMember(typeName[..nested], member);
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
