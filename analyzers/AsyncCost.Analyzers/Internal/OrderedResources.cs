using System.Collections.Immutable;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Internal;

/// <summary>
/// What makes calls that share an object ordered: the object keeps a position that each call advances (a stream, a
/// writer, a connection, a channel), or it has state a call can change (a collection, a class of this compilation
/// with a writable field). And the inputs that order nothing although they are shared: values copied into the call
/// and memory the call only reads. AC0001 reads this to tell one ordered resource handed to every iteration's call
/// from independent work.
/// </summary>
internal static class OrderedResources
{
    // Objects whose operations must run one after another when shared across iterations, by metadata name: matching
    // names costs nothing up front, where resolving each type would search every reference of every compilation.
    private static readonly ImmutableHashSet<string> KnownTypeNames = ImmutableHashSet.Create(
        "System.IO.Stream", "System.IO.TextWriter", "System.IO.TextReader", "System.Xml.XmlWriter", "System.Xml.XmlReader",
        "System.Data.Common.DbConnection", "System.Data.Common.DbCommand", "System.Data.Common.DbDataReader",
        "System.Data.Common.DbTransaction", "System.Data.Common.DbBatch", "System.Data.IDbConnection",
        "System.Net.Sockets.Socket", "System.Net.WebSockets.WebSocket",
        "System.IO.Pipelines.PipeReader", "System.IO.Pipelines.PipeWriter",
        "System.Threading.Channels.ChannelReader`1", "System.Threading.Channels.ChannelWriter`1",
        "System.Threading.SemaphoreSlim", "System.IO.Compression.ZipArchive",
        "Microsoft.EntityFrameworkCore.DbContext", "Microsoft.EntityFrameworkCore.DbSet`1",
        "Microsoft.AspNetCore.Http.HttpResponse");

    // Type names that say "a position advances with each call" (a custom writer, reader or buffer), in any library.
    private static readonly string[] NameSuffixes =
        ["Writer", "Reader", "Buffer", "Stream", "Connection", "Transaction", "Session", "Context", "Cursor", "Enumerator", "Channel", "Archive"];

    /// <summary>The type, a base class or an interface is a known ordered resource or is named like one (<c>…Writer</c>, <c>…Connection</c>).</summary>
    public static bool Is(ITypeSymbol? type) => Is(type, IsOrderedResourceName);

    /// <summary>
    /// The type, a base class or an interface is one of the known framework types (a ZipArchive, a DbDataReader), not
    /// merely named like one: a name that merely ends in Session or Context may well hand out independent objects.
    /// </summary>
    public static bool IsKnown(ITypeSymbol? type) => Is(type, IsKnownName);

    private static bool Is(ITypeSymbol? type, System.Func<INamedTypeSymbol, bool> isOrderedResourceName)
    {
        if (type is null)
        {
            return false;
        }
        for (var current = type as INamedTypeSymbol; current is not null; current = current.BaseType)
        {
            if (isOrderedResourceName(current))
            {
                return true;
            }
        }
        return type.AllInterfaces.Any(isOrderedResourceName);
    }

    private static bool IsOrderedResourceName(INamedTypeSymbol type)
    {
        foreach (var suffix in NameSuffixes)
        {
            if (type.Name.EndsWith(suffix, System.StringComparison.Ordinal))
            {
                return true;
            }
        }
        return IsKnownName(type);
    }

    private static bool IsKnownName(INamedTypeSymbol type) =>
        type.ContainingNamespace is { IsGlobalNamespace: false } ns && KnownTypeNames.Contains(ns.ToDisplayString() + "." + type.MetadataName);

    /// <summary>
    /// An object a call can change, so that calls sharing it are ordered: an array, a collection, or a class of this
    /// compilation with a writable field (a position, a length, a flag). Strings, delegates and value types cannot be.
    /// </summary>
    public static bool CanBeChanged(ITypeSymbol? type)
    {
        if (type is IArrayTypeSymbol)
        {
            return true;
        }
        if (type is not INamedTypeSymbol { IsReferenceType: true, TypeKind: TypeKind.Class or TypeKind.Interface } named || named.SpecialType == SpecialType.System_String)
        {
            return false;
        }
        if (named.OriginalDefinition.AllInterfaces.Any(i => i.MetadataName == "ICollection`1" && i.ContainingNamespace.ToDisplayString() == "System.Collections.Generic"))
        {
            return true;
        }
        for (var current = named; current is not null && current.Locations.Any(l => l.IsInSource); current = current.BaseType)
        {
            foreach (var member in current.GetMembers())
            {
                if (member is IFieldSymbol { IsStatic: false, IsConst: false } field
                    && (field.IsImplicitlyDeclared ? field.AssociatedSymbol is IPropertySymbol { SetMethod.IsInitOnly: false } : !field.IsReadOnly))
                {
                    return true;
                }
            }
        }
        return false;
    }

    // Classes whose instances cannot change once made (JsonSerializerOptions becomes read-only at its first use), so a
    // call handed one shared instance can only read it.
    private static readonly ImmutableHashSet<string> ImmutableTypeNames = ImmutableHashSet.Create(
        "System.Uri", "System.Version", "System.Text.Encoding", "System.Text.Json.JsonSerializerOptions");

    /// <summary>
    /// A string, a Uri, a Version, an Encoding, a JsonSerializerOptions: whoever holds a shared one (a field of this,
    /// a settings object), a call it is handed to can only read it, so sharing it orders nothing.
    /// </summary>
    public static bool IsImmutable(ITypeSymbol? type)
    {
        if (type?.SpecialType == SpecialType.System_String)
        {
            return true;
        }
        for (var current = type as INamedTypeSymbol; current is not null; current = current.BaseType)
        {
            // The simple name first: most types walked here are none of these, and it costs no string.
            if (current.Name is "Uri" or "Version" or "Encoding" or "JsonSerializerOptions"
                && current.ContainingNamespace is { IsGlobalNamespace: false } ns && ImmutableTypeNames.Contains(ns.ToDisplayString() + "." + current.MetadataName))
            {
                return true;
            }
        }
        return false;
    }

    /// <summary>
    /// An argument the call only reads, so sharing it orders nothing: a value copied into the call (a port number, a
    /// CancellationToken, both often read off this or a field's CancellationTokenSource), a read-only view of memory,
    /// or the buffer a Write…/Send… call writes out (one payload fanned out to each element's own stream).
    /// </summary>
    public static bool IsReadOnlyInput(IArgumentOperation argument, IMethodSymbol method)
    {
        var value = ConfigureAwaitCalls.SkipConversions(argument.Value);
        if (argument.Parameter is { RefKind: RefKind.In } || IsReadOnlyMemory(argument.Parameter?.Type))
        {
            return true;
        }
        if (value.Type is { IsValueType: true } valueType && !IsWritableMemory(valueType))
        {
            return true;
        }
        var writesItOut = method.Name.StartsWith("Write", System.StringComparison.Ordinal) || method.Name.StartsWith("Send", System.StringComparison.Ordinal);
        return writesItOut && (value.Type is IArrayTypeSymbol || IsWritableMemory(value.Type));
    }

    private static bool IsReadOnlyMemory(ITypeSymbol? type) =>
        type is INamedTypeSymbol { Name: "ReadOnlyMemory" or "ReadOnlySpan" or "ReadOnlySequence", ContainingNamespace: { } ns }
        && ns.ToDisplayString() is "System" or "System.Buffers";

    private static bool IsWritableMemory(ITypeSymbol? type) =>
        type is INamedTypeSymbol { Name: "Memory" or "Span" or "ArraySegment", ContainingNamespace: { Name: "System", ContainingNamespace.IsGlobalNamespace: true } };
}
